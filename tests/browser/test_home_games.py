"""The home games of the seeds, played in a real browser.

Mississippi (seed 000): after the bring-in round, 4th and 5th street are
dealt one after the other, and only then does the betting start again. The
players only click and press keys; what the test expects is read from the
stored hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tables.models import Table
from tests.browser.test_advance import NAMES, seat_players
from tests.browser.test_bet_size import engine_now
from tests.browser.test_table_notices import lines, seat_to_act
from tests.browser.test_table_play import seat_box, shot, wait_until

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser


@pytest.fixture
def mississippi_table(table: Table) -> Table:
    """The browser tests' stud 5/10 table (long turns, hands shown), dealing Mississippi."""
    table.stakes.variant = "mississippi"
    table.stakes.save(update_fields=["variant"])
    return table


def test_a_mississippi_hand_deals_4th_and_5th_street_together_and_plays_to_the_showdown(
    browser: Any, live_server_url: str, mississippi_table: Table, screenshots: Path
) -> None:
    table = mississippi_table
    pages = seat_players(browser, live_server_url, table, 2)
    bringer = seat_to_act(table)
    pages[bringer].locator("#actions .action-bring_in").click()
    wait_until(lambda: seat_to_act(table) != bringer, "the bring-in")
    caller = seat_to_act(table)
    expect(pages[caller].locator("#actions .action-call")).to_be_visible()
    pages[caller].keyboard.press("c")  # call
    wait_until(lambda: engine_now(table).street == 2, "4th and 5th street")

    # Both streets are on the felt before anyone bets again: five cards a seat,
    # the heading says 5th street, and the log tells 4th street's cards, then
    # 5th street's, with no move between them.
    for page in pages.values():
        expect(page.locator("#street")).to_contain_text("5th street")
        for seat in pages:
            expect(seat_box(page, seat).locator(".card")).to_have_count(5)
    log = lines(pages[caller], "#log")
    dealt = [i for i, line in enumerate(log) if " is dealt " in line]
    assert len(dealt) == 6  # 3rd, 4th and 5th street, two players each
    assert dealt[2:] == list(range(dealt[2], dealt[2] + 4))  # 4th and 5th, back to back
    shot(pages[caller], screenshots, "1-fifth-street")

    # The second round is the small bet (hold'em's flop); then check it down.
    opener = seat_to_act(table)
    [bet] = [a for a in engine_now(table).legal_actions() if a.kind == "bet"]
    assert bet.amounts == (5,)
    expect(pages[opener].locator("#actions .action-bet")).to_be_visible()
    pages[opener].keyboard.press("b")
    wait_until(lambda: seat_to_act(table) != opener, "the bet")
    other = next(seat for seat in pages if seat != opener)
    expect(pages[other].locator("#actions .action-call")).to_be_visible()
    pages[other].keyboard.press("c")
    wait_until(lambda: engine_now(table).street == 3, "6th street")
    while not engine_now(table).finished:
        seat, turn = seat_to_act(table), engine_now(table).turn
        expect(pages[seat].locator("#actions .action-check")).to_be_visible()
        pages[seat].keyboard.press("c")
        wait_until(
            lambda turn=turn: engine_now(table).turn > turn or engine_now(table).finished, "a check"
        )
    state = engine_now(table)
    assert state.result is not None and not state.result["uncontested"]
    for page in pages.values():
        expect(page.locator("#last-hand")).to_contain_text("wins")
    expect(pages[caller].locator("body")).to_contain_text("Mississippi")
    expect(pages[caller].locator("#log")).to_contain_text(f"({NAMES[opener]}) bets 5")
    shot(pages[caller], screenshots, "2-showdown")
