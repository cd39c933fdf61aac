"""Rules at hand, in real browsers: the table page's "How this game plays"
panel, on a desktop and a phone, and Chicago's winning spade marked at the
showdown on the felt and in the Last hand box.

The Chicago hand is dealt from a stacked deck in this process, through the
services; alice and bob then play it on the server's pages, and an observer
(not logged in) watches from a phone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tables.models import Table
from tables.rules.games import how_it_plays
from tests.browser.test_bet_size import engine_now
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import DESKTOP, PHONE, fits_width, seat_box, shot, wait_until
from tests.browser.test_wild_cards import ALICE, BOB, NAMES, SEATS, deal_stacked, open_table
from tests.rules.stacking import stack_deck

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# Alice: K♠ J♦ down, 7♣ J♥ 5♦ 3♣ up, 8♥ down: a pair of jacks and the K♠ in
# the hole. Bob: 9♣ 4♠ down, 9♦ 9♥ Q♣ A♥ up, 6♣ down: three nines, and only
# the 4♠ in the hole. High Chicago: bob's nines take half, alice's K♠ half.
CHICAGO_DECK = stack_deck(
    {BOB: "9c4s9d", ALICE: "KsJd7c"},
    {BOB: "9h", ALICE: "Jh"},
    {BOB: "Qc", ALICE: "5d"},
    {BOB: "Ah", ALICE: "3c"},
    {BOB: "6c", ALICE: "8h"},
)


def play_to_the_showdown(table: Table, pages: dict[int, Page]) -> None:
    """Alice brings in with her 7♣, bob calls, and both check it down."""
    assert seat_to_act(table) == SEATS[ALICE]
    pages[ALICE].locator("#actions .action-bring_in").click()
    wait_until(lambda: seat_to_act(table) == SEATS[BOB], "the bring-in")
    expect(pages[BOB].locator("#actions .action-call")).to_be_visible()
    pages[BOB].keyboard.press("c")
    wait_until(lambda: engine_now(table).street == 1, "4th street")
    while not engine_now(table).finished:
        seat, turn = seat_to_act(table), engine_now(table).turn
        player = next(p for p, s in SEATS.items() if s == seat)
        expect(pages[player].locator("#actions .action-check")).to_be_visible()
        pages[player].keyboard.press("c")
        wait_until(
            lambda turn=turn: engine_now(table).turn > turn or engine_now(table).finished, "a check"
        )


def test_chicagos_winning_spade_is_marked_at_the_showdown_for_every_viewer(
    browser: Any,
    live_server_url: str,
    table: Table,
    server_channel_layer: None,
    monkeypatch: pytest.MonkeyPatch,
    screenshots: Path,
) -> None:
    deal_stacked(table, "high_chicago", CHICAGO_DECK, monkeypatch)
    pages = {player: open_table(browser, live_server_url, table, NAMES[player]) for player in SEATS}
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(f"{live_server_url}/tables/{table.pk}/")
    viewers = [*pages.values(), watcher]
    # Before the showdown nothing is marked: alice's K♠ is hers alone to see.
    expect(seat_box(pages[ALICE], SEATS[ALICE]).locator('.card[data-card="Ks"]')).to_be_visible()
    for page in viewers:
        expect(page.locator("#felt .card-spade")).to_have_count(0)

    play_to_the_showdown(table, pages)

    [pot] = engine_now(table).result["pots"]
    assert pot["spade_winners"] == [ALICE] and pot["high_winners"] == [BOB]
    # On the felt, until the next deal: alice's K♠, not bob's 4♠ in the hole that lost.
    for page in viewers:
        spade = seat_box(page, SEATS[ALICE]).locator(".card-spade")
        expect(spade).to_have_count(1)
        expect(spade).to_have_attribute("data-card", "Ks")
        expect(spade).to_have_attribute("aria-label", "K♠, high spade")
        expect(seat_box(page, SEATS[BOB]).locator(".card-spade")).to_have_count(0)
        expect(seat_box(page, SEATS[BOB]).locator('.card[data-card="4s"]')).to_be_visible()
    shot(pages[BOB], screenshots, "1-showdown-desktop")
    shot(watcher, screenshots, "2-showdown-phone")
    assert fits_width(watcher)
    # In the Last hand box: the same card, in alice's row alone.
    for page in viewers:
        last = page.locator("#last-hand .card-spade")
        expect(last).to_have_count(1)
        expect(last).to_have_attribute("data-card", "Ks")
        row = page.locator("#last-hand .last-row", has=page.locator(".card-spade"))
        expect(row.locator(".last-name")).to_have_text("alice")
        expect(page.locator("#last-hand .last-pot")).to_contain_text("alice 3 (high spade)")


GAMES = ("stud", "roll_your_own", "high_chicago", "man_with_the_axe")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_table_page_says_how_its_game_plays_in_a_panel_that_opens(
    browser: Any, live_server_url: str, table: Table, viewport: dict, screenshots: Path
) -> None:
    page = browser.new_context(**viewport).new_page()
    for variant in GAMES:
        table.stakes.variant = variant
        table.stakes.save(update_fields=["variant"])
        page.goto(f"{live_server_url}/tables/{table.pk}/")
        panel = page.locator("#how-it-plays")
        words = how_it_plays(table.stakes.game_config())
        # Folded away at first, out of the felt's way.
        expect(panel.locator("summary")).to_have_text("How this game plays")
        expect(panel.locator("p").first).to_be_hidden()
        panel.locator("summary").click()
        expect(panel.locator("p")).to_have_text(list(words))
        expect(panel.locator("p").first).to_be_visible()
        assert fits_width(page), f"{variant}: the open panel pushes the page sideways"
        shot(page, screenshots, f"{variant}-open")
        panel.locator("summary").click()
        expect(panel.locator("p").first).to_be_hidden()
