"""A pot-limit hand played in a real browser with the bet-size control.

Every amount the test expects is the engine's, read from the stored hand;
the pages are only clicked and typed into as a player would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tables.models import Stakes, Table
from tables.rules import HandState
from tests.browser.test_advance import seat_players
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import latest_hand, shot, wait_until

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser


@pytest.fixture
def pot_limit_table(transactional_db: None) -> Table:
    """Pot-limit razz: ante 1, bring-in 2, minimum bet 5; long turns, everything shown."""
    stakes = Stakes.objects.create(
        name="Browser pot-limit razz",
        variant="razz",
        structure="pot",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=5,
        min_buy_in=100,
        max_buy_in=1000,
        action_seconds=120,
        time_bank_seconds=60,
        auto_muck=False,
    )
    return Table.objects.create(name="Pot-limit table", stakes=stakes)


def engine_now(table: Table) -> HandState:
    return HandState.from_dict(latest_hand(table).state)


def wager_option(table: Table) -> Any:
    [option] = [
        a for a in engine_now(table).legal_actions() if a.kind in ("complete", "bet", "raise")
    ]
    return option


def moved_on(table: Table, turn: int) -> Any:
    """A check that the hand has gone past ``turn``."""
    return lambda: engine_now(table).turn > turn or engine_now(table).finished


def last_action(table: Table) -> tuple[str, int | None]:
    move = latest_hand(table).moves()[-1]
    return move.kind, move.amount


def test_a_pot_limit_hand_is_played_to_the_showdown_with_the_bet_size_control(
    browser: Any, live_server_url: str, pot_limit_table: Table, screenshots: Path
) -> None:
    table = pot_limit_table
    pages = seat_players(browser, live_server_url, table, 2)
    bringer = seat_to_act(table)
    pages[bringer].locator("#actions .action-bring_in").click()
    wait_until(lambda: seat_to_act(table) != bringer, "the bring-in")

    # The other player completes by the "Pot" preset: the engine's most.
    completer = seat_to_act(table)
    page = pages[completer]
    option = wager_option(table)
    assert option.amounts is None
    control = page.locator("#actions .bet-size")
    expect(control.locator(".bet-slider")).to_have_attribute("min", str(option.min))
    expect(control.locator(".bet-slider")).to_have_attribute("max", str(option.max))
    # Pot limit's presets, and no "All in" while the pot is short of the stack.
    expect(control.locator(".bet-preset")).to_have_text(["½ pot", "Pot"])
    control.locator('.bet-preset[data-preset="pot"]').click()
    expect(control.locator(".bet-amount")).to_have_value(str(option.max))
    expect(control.locator(".bet-wager")).to_contain_text(f"Complete to {option.max}")
    shot(page, screenshots, "1-pot-preset")
    control.locator(".bet-wager").click()
    wait_until(lambda: last_action(table) == ("complete", option.max), "the complete to the pot")

    # The bring-in raises by typing: first too much (refused in the page,
    # nothing sent), then the least raise, sent with Enter.
    page = pages[bringer]
    option = wager_option(table)
    field = page.locator("#actions .bet-size .bet-amount")
    field.fill(str(option.max + 1))
    field.press("Enter")
    expect(page.locator("#actions .bet-error")).to_contain_text(f"{option.max:,}")
    page.wait_for_timeout(500)
    assert engine_now(table).to_act is not None and seat_to_act(table) == bringer  # nothing sent
    field.fill(str(option.min))
    field.press("Enter")
    wait_until(lambda: last_action(table) == ("raise", option.min), "the typed raise")

    # The completer calls with the keyboard; then both check it down to the showdown.
    expect(pages[completer].locator("#actions .action-call")).to_be_visible()
    pages[completer].keyboard.press("c")
    wait_until(lambda: engine_now(table).street >= 1, "4th street")
    while not engine_now(table).finished:
        # The turn is read before the key: read after it, the check may
        # already be made, and the wait would be for a move nobody makes.
        seat, turn = seat_to_act(table), engine_now(table).turn
        expect(pages[seat].locator("#actions .action-check")).to_be_visible()
        pages[seat].keyboard.press("c")  # check
        wait_until(moved_on(table, turn), "a check")
    hand = latest_hand(table)
    state = HandState.from_dict(hand.state)
    assert state.result is not None and not state.result["uncontested"]
    for page in pages.values():
        expect(page.locator("#last-hand")).to_contain_text("low")
    shot(pages[completer], screenshots, "2-showdown")
    # The stakes line names the structure.
    expect(pages[completer].locator("body")).to_contain_text("pot limit")
