"""A deuces-wild hand in real browsers: the wild cards marked on the felt,
in the log, at the showdown, in the hand history and in the replayer.

The hand is dealt from a stacked deck in this process, through the services;
the players then play it by clicking and pressing keys on the server's pages.
Bob's upcards hold two deuces, so he shows five aces; alice's straight flush
loses to them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import Hand, Table
from tables.services import hands as hand_services
from tests.browser.test_bet_size import engine_now
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    seat_box,
    shot,
    start_session,
    wait_until,
)
from tests.rules.stacking import stack_deck

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# Alice sits in seat 1 and deals, so bob (seat 2) is engine player 0.
BOB, ALICE = 0, 1
SEATS = {BOB: 2, ALICE: 1}
NAMES = {BOB: "bob", ALICE: "alice"}
# Bob: A♥ A♦ down, 2♣ A♣ 2♦ K♣ up, 3♥ down: five aces, two of them deuces.
# Alice: 9♠ 8♠ down, 7♠ 6♠ 5♠ Q♦ up, J♦ down: a straight flush, nine high.
WILD_DECK = stack_deck(
    {BOB: "AhAd2c", ALICE: "9s8s7s"},
    {BOB: "Ac", ALICE: "6s"},
    {BOB: "2d", ALICE: "5s"},
    {BOB: "Kc", ALICE: "Qd"},
    {BOB: "3h", ALICE: "Jd"},
)


def deal_stacked(
    table: Table, variant: str, deck: list[int], monkeypatch: pytest.MonkeyPatch
) -> Table:
    """The browser tests' table dealing ``variant``, alice and bob seated, a
    hand under way from ``deck``."""
    table.stakes.variant = variant
    table.stakes.save(update_fields=["variant"])
    for player, seat in SEATS.items():
        user = user_signup(username=NAMES[player], password=PASSWORD)
        services.seat_take(table_id=table.pk, player_id=user.pk, seat_number=seat, buy_in=300)
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(deck))
    hand = services.hand_start(table_id=table.pk)
    assert [each["seat"] for each in hand.seating["players"]] == [SEATS[BOB], SEATS[ALICE]]
    return table


@pytest.fixture
def deuces_hand(table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch) -> Table:
    return deal_stacked(table, "deuces", WILD_DECK, monkeypatch)


def open_table(browser: Any, base: str, table: Table, name: str) -> Page:
    page = browser.new_context(**DESKTOP).new_page()
    start_session(page, base, name)
    page.goto(f"{base}/tables/{table.pk}/")
    return page


def wild_faces(page: Page, seat: int) -> Any:
    return seat_box(page, seat).locator(".card.card-wild")


def test_a_deuces_wild_hand_marks_its_wild_cards_from_the_deal_to_the_history(
    browser: Any, live_server_url: str, deuces_hand: Table, screenshots: Path
) -> None:
    table = deuces_hand
    pages = {player: open_table(browser, live_server_url, table, NAMES[player]) for player in SEATS}
    # The 2♣ door card is wild, for bob and for alice, and says so to a screen reader.
    for page in pages.values():
        door = wild_faces(page, SEATS[BOB])
        expect(door).to_have_count(1)
        expect(door).to_have_attribute("aria-label", "2♣, wild")
        expect(wild_faces(page, SEATS[ALICE])).to_have_count(0)
        expect(page.locator("#log")).to_contain_text("2♣ (wild)")
        expect(page.locator("#wilds")).to_have_text("Wild: deuces")
    # Bob's aces are not wild.
    expect(seat_box(pages[BOB], SEATS[BOB]).locator(".card:not(.card-wild)")).to_have_count(2)
    shot(pages[BOB], screenshots, "1-third-street")

    # A wild door card counts as an ace, so alice's seven brings in.
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

    # The showdown: bob's two up deuces marked, his hand named with them.
    state = engine_now(table)
    assert state.result is not None
    assert state.result["hands"][str(BOB)]["high"] == "five of a kind, aces (two wild)"
    for page in pages.values():
        expect(wild_faces(page, SEATS[BOB])).to_have_count(2)
        expect(page.locator("#last-hand")).to_contain_text("five of a kind, aces (two wild)")
        expect(page.locator("#last-hand .card-wild")).to_have_count(2)
    shot(pages[ALICE], screenshots, "2-showdown")

    # The hand history: the players' cards with the deuces marked, and the
    # replayer's last step with them too.
    hand = Hand.objects.filter(table=table).latest("pk")
    page = pages[ALICE]
    page.goto(f"{live_server_url}/hands/{hand.pk}/")
    page.wait_for_load_state("load")
    marked = page.locator(".card.card-wild")
    expect(marked.first).to_be_visible()
    expect(page.locator("body")).to_contain_text("five of a kind, aces (two wild)")
    page.keyboard.press("End")
    expect(page.locator("#replay-felt .card.card-wild")).to_have_count(2)
    expect(page.locator("#replay-wilds")).to_have_text("Wild: deuces")
    shot(page, screenshots, "3-history")


# Queens and after: bob's Q♣ door, then alice's 5♦: queens and fives wild. On
# 4th street alice's Q♦ is the last card up: queens alone. On 5th street bob's
# 7♠ follows it: queens and sevens.
QUEENS_DECK = stack_deck(
    {BOB: "KcKdQc", ALICE: "5h5s5d"},
    {BOB: "9h", ALICE: "Qd"},
    {BOB: "7s", ALICE: "8c"},
)


@pytest.fixture
def queens_hand(table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch) -> Table:
    return deal_stacked(table, "queens", QUEENS_DECK, monkeypatch)


def check_round(table: Table, pages: dict[int, Page], street: int) -> None:
    """Everyone checks (or brings in and calls) until ``street`` is dealt."""
    while engine_now(table).street < street:
        seat, turn = seat_to_act(table), engine_now(table).turn
        player = next(p for p, s in SEATS.items() if s == seat)
        expect(pages[player].locator("#actions button").first).to_be_visible()
        pages[player].keyboard.press("c")
        wait_until(lambda turn=turn: engine_now(table).turn > turn, "a move")


def test_queens_and_after_shows_the_wild_rank_as_it_moves(
    browser: Any, live_server_url: str, queens_hand: Table, screenshots: Path
) -> None:
    table = queens_hand
    pages = {player: open_table(browser, live_server_url, table, NAMES[player]) for player in SEATS}
    for page in pages.values():
        expect(page.locator("#wilds")).to_have_text("Wild: queens and fives")
        expect(wild_faces(page, SEATS[BOB])).to_have_count(1)  # his Q♣
    # Alice's three fives are wild; bob sees only her 5♦ door card.
    expect(wild_faces(pages[ALICE], SEATS[ALICE])).to_have_count(3)
    expect(wild_faces(pages[BOB], SEATS[ALICE])).to_have_count(1)
    shot(pages[ALICE], screenshots, "1-queens-and-fives")

    check_round(table, pages, 1)
    for page in pages.values():
        expect(page.locator("#wilds")).to_have_text("Wild: queens")
        expect(page.locator("#log")).to_contain_text("Wild now: queens")
        # Her fives are wild no more; her Q♦ is.
        expect(wild_faces(page, SEATS[ALICE])).to_have_attribute("aria-label", "Q♦, wild")

    check_round(table, pages, 2)
    for page in pages.values():
        expect(page.locator("#wilds")).to_have_text("Wild: queens and sevens")
        expect(page.locator("#log")).to_contain_text("Wild now: queens and sevens")
        expect(wild_faces(page, SEATS[BOB])).to_have_count(2)  # the Q♣ and the 7♠
    shot(pages[BOB], screenshots, "2-queens-and-sevens")
