"""Advance actions in a real browser: chosen before the turn, made on it, or dropped.

Whose turn it is, and every move made, are read from the database; each
page is only clicked as a player would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import Table
from tests.browser.test_table_notices import lines, seat_to_act
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    latest_hand,
    shot,
    start_session,
    wait_until,
)

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

NAMES = {1: "alice", 2: "bob", 3: "carol"}


def seat_players(browser: Any, base: str, table: Table, count: int) -> dict[int, Page]:
    """``count`` players seated in seats 1, 2, …, each on their own page; a hand dealt to all.

    They are seated by the services, which deal nothing, so the first hand
    waits for the last of them: it is dealt when that player sits out and in.
    """
    pages = {}
    for number in range(1, count + 1):
        player = user_signup(username=NAMES[number], password=PASSWORD)
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
        page = browser.new_context(**DESKTOP).new_page()
        start_session(page, base, NAMES[number])
        page.goto(f"{base}/tables/{table.pk}/")
        pages[number] = page
    last = pages[count].locator("#seat-controls")
    sit_out = last.get_by_role("checkbox", name="Sit out next hand")
    sit_out.check()
    expect(sit_out).to_be_checked()
    sit_out.uncheck()
    hand = wait_until(lambda: latest_hand(table), "the first hand")
    assert len(hand.seating["players"]) == count
    return pages


def moves(table: Table) -> list[tuple[int, str, bool]]:
    hand = latest_hand(table)
    return [(move.seat, move.kind, move.timed_out) for move in hand.moves()]


def advance(page: Page, label: str) -> Any:
    return page.locator("#advance label", has_text=label).locator("input")


def test_check_fold_chosen_early_folds_once_the_bring_in_is_made(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    pages = seat_players(browser, live_server_url, table, 2)
    bringer = seat_to_act(table)
    other = 3 - bringer
    waiting = pages[other]
    # Nothing to call yet: check/fold is offered, and so is a plain check.
    expect(advance(waiting, "Check/Fold")).to_be_visible()
    expect(advance(waiting, "Check")).to_have_count(2)  # "Check/Fold" and "Check"
    expect(pages[bringer].locator("#advance")).to_be_hidden()  # not before one's own turn
    advance(waiting, "Check/Fold").check()
    shot(waiting, screenshots, "1-check-fold-ticked")
    assert moves(table) == []  # never out of turn

    pages[bringer].locator("#actions .action-bring_in").click()
    # The bring-in is a bet to call: on the turn it became, check/fold folds.
    wait_until(lambda: len(moves(table)) == 2, "the folder's move")
    assert moves(table) == [(bringer, "bring_in", False), (other, "fold", False)]
    expect(waiting.locator("#log")).to_contain_text(f"Seat {other} ({NAMES[other]}) folds")
    assert f"Seat {other} ({NAMES[other]}) folds (out of time)" not in lines(waiting, "#log")
    shot(waiting, screenshots, "2-folded-for-her")


def test_call_two_is_dropped_by_a_completion_before_the_turn(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    pages = seat_players(browser, live_server_url, table, 3)
    bringer = seat_to_act(table)
    pages[bringer].locator("#actions .action-bring_in").click()
    wait_until(lambda: seat_to_act(table) != bringer, "the bring-in")
    completer = seat_to_act(table)
    caller = ({1, 2, 3} - {bringer, completer}).pop()
    page = pages[caller]

    expect(advance(page, "Call 2")).to_be_visible()
    advance(page, "Call 2").check()
    pages[completer].locator("#actions .action-complete").click()
    # Now 5 to call: "Call 2" was for another situation, so nothing is sent
    # and the player chooses with the buttons.
    wait_until(lambda: seat_to_act(table) == caller, "the caller's turn")
    expect(page.locator("#actions .action-call")).to_contain_text("Call 5")
    expect(page.locator("#advance")).to_be_hidden()
    version = latest_hand(table).version
    page.wait_for_timeout(1000)
    assert latest_hand(table).version == version
    assert caller not in [move.seat for move in latest_hand(table).moves()]
    shot(page, screenshots, "call-two-dropped")


def test_a_background_tab_signals_the_players_turn_in_its_title_and_icon(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    pages = seat_players(browser, live_server_url, table, 2)
    actor = seat_to_act(table)
    page, other = pages[actor], pages[3 - actor]
    title = page.title()
    # As a browser does when the tab goes to the background or comes back.
    hide = (
        "hidden => { Object.defineProperty(document, 'hidden', "
        "{configurable: true, get: () => hidden}); "
        "document.dispatchEvent(new Event('visibilitychange')); }"
    )
    icon = 'link[rel="icon"]'

    for looker in (page, other):
        looker.evaluate(hide, True)  # both tabs go to the background
    expect(page).to_have_title("▶ Your turn · " + title)
    assert page.locator(icon).get_attribute("href").endswith("favicon-turn.svg")
    expect(other).to_have_title(title)  # not their turn: nothing to signal
    page.evaluate(hide, False)  # back to the front
    expect(page).to_have_title(title)
    assert page.locator(icon).get_attribute("href").endswith("favicon.svg")
