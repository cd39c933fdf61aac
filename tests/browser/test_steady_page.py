"""What lies under the felt stays put while a seated player plays.

A click aimed at "Sit out next hand", the top-up or a home game's host panel
must land on it, whoever's turn it is and whether a hand is on: the move
area keeps its room (steady.js), the top-up form stays, shut, during the
player's hand, and an error floats over the page instead of pushing it down.
Alice plays a spread-limit hand from a desktop, where her turn brings the
bet-size control, the tallest row of moves; every position is read from her
page at each turn, between the hands and on the next hand. On a phone, a
mixed table's head names each hand's games in one line or two, and the felt
under it stays where it is either way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tables.models import Table
from tests.browser.test_advance import seat_players
from tests.browser.test_mixed_tables import mixed_table
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import PHONE, latest_hand, shot, wait_until

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

WATCHED = ("#felt", "#seat-controls", "#chip-controls")
TOPS = """selectors => Object.fromEntries(selectors.map(s =>
  [s, Math.round(document.querySelector(s).getBoundingClientRect().top + window.scrollY)]))"""
PASSIVE = "#actions .action-check, #actions .action-call, #actions .action-bring_in"


def tops(page: Page) -> dict[str, int]:
    """Where the felt and the seat's controls begin, from the page's top."""
    return page.evaluate(TOPS, list(WATCHED))


def play_passively(table: Table, pages: dict[int, Page], seen: list[tuple[str, Any]]) -> None:
    """Every player checks, calls or brings in to the end of the hand; at
    each turn, where alice's page has her controls."""
    alice = pages[1]
    hand = latest_hand(table)
    assert hand is not None
    while True:
        hand.refresh_from_db()
        if hand.ended_at is not None:
            return
        actor = seat_to_act(table)
        assert actor is not None
        if actor == 1:
            # Her turn, with a size to choose: the tallest row of moves.
            expect(alice.locator("#actions .bet-size")).to_be_visible()
            seen.append(("her turn", tops(alice)))
        else:
            expect(alice.locator("#advance")).to_be_visible()
            seen.append(("his turn", tops(alice)))
        move = pages[actor].locator(PASSIVE).first
        expect(move).to_be_visible()
        move.click()
        wait_until(lambda was=hand.version: latest_hand(table).version != was, "the move")


def test_what_lies_under_the_felt_stays_put_through_turns_hands_and_errors(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    table.stakes.structure = "spread"
    table.stakes.save(update_fields=["structure"])
    pages = seat_players(browser, live_server_url, table, 2)
    alice = pages[1]
    first = latest_hand(table)
    assert first is not None
    seen: list[tuple[str, Any]] = []
    play_passively(table, pages, seen)
    shot(alice, screenshots, "1-hand-over")

    # Between her hands the top-up opens, where it stood shut during the hand.
    expect(alice.locator("#add-chips button")).to_be_enabled()
    seen.append(("between hands", tops(alice)))

    wait_until(lambda: latest_hand(table).number > first.number, "the next hand", seconds=30)
    expect(alice.locator("#add-chips button")).to_be_disabled()
    expect(alice.locator("#add-chips")).to_contain_text("between your hands")
    seen.append(("the next hand", tops(alice)))

    # Six chat lines in a breath: the sixth is refused, and the error shows
    # without moving the page under her.
    for number in range(6):
        alice.fill("#chat-text", f"line {number}")
        alice.press("#chat-text", "Enter")
    expect(alice.locator("#banner")).to_be_visible()
    expect(alice.locator("#banner-text")).to_contain_text("chat")
    seen.append(("an error", tops(alice)))
    shot(alice, screenshots, "2-error-shown")

    kinds = {what for what, _ in seen}
    assert {"her turn", "his turn", "between hands", "the next hand", "an error"} <= kinds
    places = {tuple(where.items()) for _, where in seen}
    assert len(places) == 1, seen


SHORT = ("Razz, 5/10", "Razz · 1 more hand, then Seven-card stud")
LONG = (
    "Seven-card stud hi-lo, eight or better, 5/10, ante 1, bring-in 2",
    "Seven-card stud hi-lo, eight or better · 3 more hands, then Seven-card stud",
)
# The page's head as a new hand's snapshot redraws it (games.js): the stakes
# line's game and the mix line.
HEAD = """([game, mix]) => {
  document.getElementById('game-words').textContent = game;
  document.getElementById('mix').textContent = mix;
  return document.querySelector('#felt').getBoundingClientRect().top + window.scrollY;
}"""

# How many lines a block's text takes of itself, its kept room let go for the count.
LINES = """selector => {
  const block = document.querySelector(selector);
  block.style.minHeight = '0px';
  const line = parseFloat(getComputedStyle(block).lineHeight);
  const lines = Math.round(block.getBoundingClientRect().height / line);
  block.style.minHeight = '';
  return lines;
}"""


def test_a_mixed_tables_game_names_long_or_short_leave_the_felt_where_it_is_on_a_phone(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    mixed_table(table, "Stud mix", Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=2)
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server_url}/tables/{table.pk}/")
    expect(page.locator("#mix")).to_be_visible()
    expect(page.locator("#conn")).to_have_text("")
    expect(page.locator("#felt .seat")).to_have_count(table.stakes.seats)  # drawn
    short = page.evaluate(HEAD, list(SHORT))
    long = page.evaluate(HEAD, list(LONG))
    shot(page, screenshots, "long-names-phone")
    # At 390 pixels the long names do take two lines each, as the short
    # ones take one: measured with the room kept for two let go.
    assert page.evaluate(LINES, ".room-stakes") == 2
    assert page.evaluate(LINES, "#mix") == 2
    page.evaluate(HEAD, list(SHORT))
    assert page.evaluate(LINES, ".room-stakes") == 1
    assert page.evaluate(LINES, "#mix") == 1
    assert long == short
