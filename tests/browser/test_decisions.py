"""Decisions that are not bets, made in real browsers: rolling a card (roll
your own), exchanging one or standing pat (English stud), and declaring high
or low (hi-lo declare).

Each hand is dealt from a stacked deck through the services; the players then
play it to the end only by clicking and pressing keys on the table page.

Personas (alice sits in seat 1 and deals, so bob, in seat 2, decides first):
- bob: sees his own down cards and the card he chose to roll, and alice's
  choices only once both have chosen.
- alice: the same from her side; a card she exchanges face down is hers
  alone to see.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.cards import parse_card
from tests.browser.test_bet_size import engine_now
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import (
    PHONE,
    expect_cards,
    expect_hidden,
    fits_width,
    label,
    seat_box,
    shot,
    start_session,
    wait_until,
)
from tests.browser.test_wild_cards import ALICE, BOB, SEATS, deal_stacked, open_table
from tests.rules.stacking import stack_deck

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

BY_SEAT = {seat: player for player, seat in SEATS.items()}


# ------------------------------------------------------------------ helpers


def open_both(browser: Any, live_server_url: str, table: Table) -> dict[int, Page]:
    """Bob's and alice's table pages, by engine player."""
    return {
        player: open_table(browser, live_server_url, table, name)
        for player, name in ((BOB, "bob"), (ALICE, "alice"))
    }


def bet_round(table: Table, pages: dict[int, Page]) -> None:
    """The players bring in, call and check with the C key until the round ends."""
    state = engine_now(table)
    street = state.street
    while state.phase == "betting" and state.street == street:
        player, turn = BY_SEAT[seat_to_act(table)], state.turn
        expect(pages[player].locator("#actions .action").first).to_be_visible()
        pages[player].keyboard.press("c")
        wait_until(lambda turn=turn: engine_now(table).turn > turn, "a bet, call or check")
        state = engine_now(table)


def deciding(table: Table) -> list[int]:
    return engine_now(table).deciding()


def badge(page: Page, seat: int) -> Any:
    return seat_box(page, seat).locator(".seat-badge")


def picks(page: Page, seat: int) -> Any:
    return seat_box(page, seat).locator(".card-pick")


def close_up(page: Page, seat: int, folder: Path, name: str) -> None:
    """A screenshot of one seat and the felt around it, to see its cards up close."""
    box = seat_box(page, seat).bounding_box()
    assert box is not None
    clip = {
        "x": box["x"] - 60,
        "y": box["y"] - 40,
        "width": box["width"] + 120,
        "height": box["height"] + 80,
    }
    shot(page, folder, name, full_page=False, clip=clip)


def finished(table: Table) -> HandState:
    return wait_until(lambda: (s := engine_now(table)).finished and s, "the showdown")


def expect_bob_scoops(table: Table, pages: dict[int, Page], words: str) -> None:
    """The hand is over, bob took every chip of it, and both pages' last-hand
    row names him the winner with ``words``."""
    state = finished(table)
    assert state.result is not None
    assert state.result["payouts"][BOB] > 0 and state.result["payouts"][ALICE] == 0
    for page in pages.values():
        expect(page.locator("#last-hand .last-winner")).to_contain_text("bob")
        expect(page.locator("#last-hand")).to_contain_text(words)


# ---------------------------------------------------------- roll your own

# Two down cards a round, four rounds. Bob rolls his kings one by one; alice
# rolls a nine, a four, a jack and a ten. Bob's four kings win.
ROLL_DECK = stack_deck(
    {BOB: "Kd7c", ALICE: "9s9h"},
    {BOB: "Ks2d", ALICE: "4c5h"},
    {BOB: "Kh3s", ALICE: "Jc8d"},
    {BOB: "Kc6h", ALICE: "Td2s"},
)
ROLLS = [
    {BOB: "Ks", ALICE: "4c"},
    {BOB: "Kh", ALICE: "Jc"},
    {BOB: "Kc", ALICE: "Td"},
]


@pytest.fixture
def roll_hand(table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch) -> Table:
    return deal_stacked(table, "roll_your_own", ROLL_DECK, monkeypatch)


def roll_by_click(table: Table, page: Page, label: str) -> None:
    before = len(deciding(table))
    page.get_by_role("button", name=f"Roll the {label}").click()
    wait_until(lambda: len(deciding(table)) < before, f"the roll of the {label}")


def test_roll_your_own_hides_each_roll_until_both_have_chosen(
    browser: Any, live_server_url: str, roll_hand: Table, screenshots: Path
) -> None:
    table = roll_hand
    pages = open_both(browser, live_server_url, table)
    bob, alice = pages[BOB], pages[ALICE]

    # Both are asked at once; each may roll either down card, numbered 1 and 2.
    for page in pages.values():
        expect(page.locator("#actions .decision-prompt")).to_contain_text("Roll a card")
        expect(page.locator("#turn")).to_have_text("Your turn: roll")
        expect(page.locator("#keys-decide")).to_be_visible()
        # One clock for both, on both seats.
        expect(page.locator("#timer-text")).to_contain_text("Your time: ")
        expect(page.locator("#felt .seat-timer")).to_have_count(2)
    expect(picks(bob, SEATS[BOB])).to_have_count(2)
    expect(picks(bob, SEATS[BOB]).nth(0)).to_have_attribute("aria-label", "Roll the K♦")
    expect(picks(bob, SEATS[BOB]).nth(1)).to_have_attribute("aria-label", "Roll the 7♣")
    expect(picks(bob, SEATS[ALICE])).to_have_count(0)  # alice's cards are not his to pick
    shot(bob, screenshots, "1-roll-asked")
    bob.keyboard.press("Tab")  # into the page; the cards come later in the order
    picks(bob, SEATS[BOB]).nth(1).focus()
    close_up(bob, SEATS[BOB], screenshots, "1-roll-asked-close")
    # On a phone too the cards to roll are spread out to be tapped, and the felt fits.
    phone = browser.new_context(**PHONE).new_page()
    start_session(phone, live_server_url, "bob")
    phone.goto(f"{live_server_url}/tables/{table.pk}/")
    expect(picks(phone, SEATS[BOB])).to_have_count(2)
    assert fits_width(phone)
    shot(phone, screenshots, "1-roll-asked-phone")
    phone.context.close()

    roll_by_click(table, bob, "K♦")
    # Bob sees what he chose, waiting; alice sees only that he has chosen.
    expect(bob.locator("#actions")).to_have_text("You roll the K♦ — waiting for alice.")
    expect(seat_box(bob, SEATS[BOB]).locator(".card-chosen")).to_have_attribute("data-card", "Kd")
    expect(picks(bob, SEATS[BOB])).to_have_count(0)
    expect(badge(alice, SEATS[BOB])).to_have_text("decided")
    expect(badge(alice, SEATS[ALICE])).to_have_text("choosing…")
    expect(seat_box(alice, SEATS[ALICE])).to_have_class(re.compile(r"\bseat-deciding\b"))
    expect_cards(alice, SEATS[BOB], [], 2)
    expect_hidden(alice, [parse_card("Kd")])
    expect(alice.locator("#turn")).to_have_text("Your turn: roll")
    expect(bob.locator("#turn")).to_have_text("alice to roll")
    expect(bob.locator("#timer-text")).to_contain_text("alice’s time: ")
    expect(bob.locator("#felt .seat-timer")).to_have_count(1)
    shot(alice, screenshots, "2-alice-sees-bob-decided")
    shot(bob, screenshots, "2-bob-waits")
    close_up(bob, SEATS[BOB], screenshots, "2-bob-waits-close")

    # Alice rolls her second down card with its number key.
    alice.keyboard.press("2")
    wait_until(lambda: engine_now(table).phase == "betting", "both rolls")
    expect_cards(alice, SEATS[BOB], ["K♦"], 1)
    for page in pages.values():
        expect(seat_box(page, SEATS[BOB]).locator('.hand-up .card[data-card="Kd"]')).to_have_count(
            1
        )
        expect(
            seat_box(page, SEATS[ALICE]).locator('.hand-up .card[data-card="9h"]')
        ).to_have_count(1)
        expect(page.locator("#felt .seat-badge")).to_have_count(0)
        expect(page.locator("#keys-bets")).to_be_visible()
    shot(alice, screenshots, "3-rolls-revealed")

    bet_round(table, pages)
    for rolls in ROLLS:
        wait_until(lambda: engine_now(table).phase == "deciding", "the next roll")
        roll_by_click(table, bob, label(rolls[BOB]))
        expect_hidden(alice, [parse_card(rolls[BOB])])
        roll_by_click(table, alice, label(rolls[ALICE]))
        wait_until(lambda: engine_now(table).phase != "deciding", "both rolls")
        if not engine_now(table).finished:
            bet_round(table, pages)

    # Four kings up beat alice's hand; bob takes the pot.
    expect_bob_scoops(table, pages, "four of a kind")
    for page in pages.values():
        expect(seat_box(page, SEATS[BOB]).locator(".hand-up .card")).to_have_count(4)
        expect(seat_box(page, SEATS[BOB])).to_have_class(re.compile(r"\bseat-winner\b"))
    shot(alice, screenshots, "4-showdown")


# ------------------------------------------------------------ English stud

# In engine order (bob, then alice), a burn before each street. Bob exchanges
# his up 2♣ after 5th street and gets the A♠; alice stands pat. After 6th
# street bob stands pat and alice exchanges her down 9♠ for the 2♥. Bob's
# aces full of kings beat alice's nines.
ENGLISH_DECK = stack_deck(
    {BOB: "AhKd2c", ALICE: "9s9h3c"},
    {BOB: "Ks", ALICE: "4c"},
    {BOB: "Qh", ALICE: "5d"},
    {"draws": "As"},  # bob's exchange
    {BOB: "Ac", ALICE: "9d"},
    {"draws": "2h"},  # alice's exchange
    {BOB: "Kh", ALICE: "Tc"},  # 7th street, down
)


@pytest.fixture
def english_hand(
    table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch
) -> Table:
    table.stakes.exchange_price = True  # the minimum bet then: 10 after 5th and 6th street
    table.stakes.save(update_fields=["exchange_price"])
    return deal_stacked(table, "english", ENGLISH_DECK, monkeypatch)


def test_english_stud_exchanges_a_card_by_click_and_stands_pat(
    browser: Any, live_server_url: str, english_hand: Table, screenshots: Path
) -> None:
    table = english_hand
    pages = open_both(browser, live_server_url, table)
    bob, alice = pages[BOB], pages[ALICE]
    for _ in range(3):
        bet_round(table, pages)
    state = engine_now(table)
    assert (state.decision_name, state.to_act) == ("exchange", BOB)

    # Bob may exchange any of his five cards, for 10 chips, or stand pat.
    expect(bob.locator("#actions .decision-title")).to_have_text("Exchange (10)")
    expect(bob.locator("#actions .action-stand_pat")).to_contain_text("Stand pat")
    labels = [
        "Exchange the A♥",
        "Exchange the K♦",
        "Exchange the 2♣",
        "Exchange the K♠",
        "Exchange the Q♥",
    ]
    expect(picks(bob, SEATS[BOB])).to_have_count(5)
    for i, name in enumerate(labels):
        expect(picks(bob, SEATS[BOB]).nth(i)).to_have_attribute("aria-label", name)
        expect(picks(bob, SEATS[BOB]).nth(i).locator(".card-key")).to_have_text(str(i + 1))
    expect(alice.locator("#turn")).to_have_text("bob to exchange or stand pat")
    expect(alice.locator("#actions button")).to_have_count(0)
    bob.get_by_role("button", name="Exchange the 2♣").hover()
    shot(bob, screenshots, "1-bob-may-exchange")

    stack = engine_now(table).stacks[BOB]
    bob.get_by_role("button", name="Exchange the 2♣").click()
    wait_until(lambda: engine_now(table).to_act == ALICE, "bob's exchange")
    assert engine_now(table).stacks[BOB] == stack - 10
    # The A♠ arrives face up where the 2♣ was, for both to see.
    for page in pages.values():
        up = seat_box(page, SEATS[BOB]).locator(".hand-up .card")
        expect(up).to_have_count(3)
        expect(up.nth(0)).to_have_attribute("data-card", "As")
        expect(page.locator('#felt [data-card="2c"]')).to_have_count(0)
    expect(alice.locator("#turn")).to_have_text("Your turn: exchange or stand pat")
    shot(alice, screenshots, "2-alice-to-exchange")

    alice.keyboard.press("p")  # stands pat
    wait_until(lambda: engine_now(table).phase == "betting", "6th street")
    bet_round(table, pages)
    wait_until(lambda: engine_now(table).to_act == BOB, "the second exchange")
    expect(bob.locator("#actions .decision-title")).to_have_text("Exchange (10)")
    bob.get_by_role("button", name="Stand pat").click()
    wait_until(lambda: engine_now(table).to_act == ALICE, "bob standing pat")

    # Alice exchanges her first down card, the 9♠, with its number key; the
    # 2♥ comes face down: hers to see, not bob's.
    expect(picks(alice, SEATS[ALICE]).nth(0)).to_have_attribute("aria-label", "Exchange the 9♠")
    alice.keyboard.press("1")
    wait_until(lambda: engine_now(table).phase == "betting", "7th street")
    expect(seat_box(alice, SEATS[ALICE]).locator(".hand-down .card").first).to_have_attribute(
        "data-card", "2h"
    )
    expect(alice.locator('#felt [data-card="9s"]')).to_have_count(0)
    expect(seat_box(bob, SEATS[ALICE]).locator(".card-back")).to_have_count(
        3
    )  # 9♥, 2♥ and 7th street's
    expect_hidden(bob, [parse_card("2h"), parse_card("9s")])
    shot(bob, screenshots, "3-seventh-street")

    bet_round(table, pages)
    expect_bob_scoops(table, pages, "full house")
    shot(alice, screenshots, "4-showdown")


# ---------------------------------------------------------- hi-lo declare

# Bob holds three kings, alice a wheel: bob declares high, alice low, and
# they split the pot.
DECLARE_DECK = stack_deck(
    {BOB: "KhKd2c", ALICE: "Ah2h3c"},
    {BOB: "Ks", ALICE: "4d"},
    {BOB: "9h", ALICE: "5s"},
    {BOB: "8c", ALICE: "7h"},
    {BOB: "Jd", ALICE: "Qc"},
)


@pytest.fixture
def declare_hand(
    table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch
) -> Table:
    return deal_stacked(table, "declare", DECLARE_DECK, monkeypatch)


def test_hi_lo_declare_keeps_each_declaration_secret_until_both_are_made(
    browser: Any, live_server_url: str, declare_hand: Table, screenshots: Path
) -> None:
    table = declare_hand
    pages = open_both(browser, live_server_url, table)
    bob, alice = pages[BOB], pages[ALICE]
    while engine_now(table).phase == "betting":
        bet_round(table, pages)
    assert engine_now(table).deciding() == [BOB, ALICE]

    for page in pages.values():
        expect(page.locator("#actions .decision-title")).to_have_text("Declare")
        buttons = page.locator("#actions button")
        expect(buttons).to_have_count(3)
        for i, (name, key) in enumerate((("High", "H"), ("Low", "L"), ("Both", "B"))):
            expect(buttons.nth(i).locator(".action-label")).to_have_text(name)
            expect(buttons.nth(i).locator("kbd")).to_have_text(key)
    shot(bob, screenshots, "1-declare-asked")

    bob.get_by_role("button", name="High").click()
    wait_until(lambda: deciding(table) == [ALICE], "bob's declaration")
    expect(bob.locator("#actions")).to_have_text("You declared high — waiting for alice.")
    expect(badge(bob, SEATS[BOB])).to_have_text("decided")
    # Alice learns that bob has declared, not what.
    expect(badge(alice, SEATS[BOB])).to_have_text("decided")
    expect(badge(alice, SEATS[ALICE])).to_have_text("choosing…")
    expect(alice.locator("#felt")).not_to_contain_text("High")
    expect(alice.locator("#actions button")).to_have_count(3)
    shot(alice, screenshots, "2-alice-sees-bob-decided")

    alice.keyboard.press("l")  # declares low
    state = finished(table)
    assert state.result is not None
    assert state.declared == ["high", "low"]
    assert state.result["payouts"][BOB] == state.result["payouts"][ALICE] > 0
    for page in pages.values():
        expect(badge(page, SEATS[BOB])).to_have_text("declared High")
        expect(badge(page, SEATS[ALICE])).to_have_text("declared Low")
        expect(seat_box(page, SEATS[BOB]).locator(".seat-tags")).to_contain_text("(high)")
        expect(seat_box(page, SEATS[ALICE]).locator(".seat-tags")).to_contain_text("(low)")
        expect(page.locator("#last-hand .last-winner")).to_have_count(2)
    shot(alice, screenshots, "3-split")

    # The replayer's last step shows the declarations too.
    hand = Hand.objects.filter(table=table).latest("pk")
    alice.goto(f"{live_server_url}/hands/{hand.pk}/")
    alice.keyboard.press("End")
    expect(seat_box_in(alice, "#replay-felt", SEATS[BOB]).locator(".seat-badge")).to_have_text(
        "declared High"
    )
    expect(seat_box_in(alice, "#replay-felt", SEATS[ALICE]).locator(".seat-badge")).to_have_text(
        "declared Low"
    )
    shot(alice, screenshots, "4-replayer")


def seat_box_in(page: Page, felt: str, seat: int) -> Any:
    return page.locator(f'{felt} .seat[data-seat="{seat}"]')


# ------------------------------------------------- Aces, Straights and Flushes

BUG_DECK = stack_deck({BOB: "AhKd2c", ALICE: "9s9h3c"})


@pytest.fixture
def bug_hand(table: Table, server_channel_layer: None, monkeypatch: pytest.MonkeyPatch) -> Table:
    return deal_stacked(table, "aces_straights_flushes", BUG_DECK, monkeypatch)


def test_aces_straights_and_flushes_lays_the_bug_in_the_centre(
    browser: Any, live_server_url: str, bug_hand: Table, screenshots: Path
) -> None:
    page = open_table(browser, live_server_url, bug_hand, "alice")
    joker = page.locator("#community .card-joker")
    expect(joker).to_have_count(1)
    expect(joker).to_have_attribute("aria-label", "the bug: a joker, every hand's seventh card")
    expect(
        page.get_by_role("img", name="the bug: a joker, every hand's seventh card")
    ).to_be_visible()
    shot(page, screenshots, "1-the-bug")
