"""What the table page tells its players as a hand goes on, in a real browser.

Personas:
- alice, on a desktop browser, reloads in the middle of a hand, then leaves
  after it; later she lets her turns run out.
- bob, on a phone-sized browser, plays on, by keyboard where he can.
- carol, on a phone, sits out until the table stands her up (al and bo
  play the hand that does it, through the services).

Every check reads the page as a person would; the database is read only to
know whose turn it is, or that a change the page is to show has been made.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import broadcast, services
from tables.models import Seat, Stakes, Table
from tables.rules import HandState
from tables.rules.cards import FULL_DECK
from tables.services import hands as hand_services
from tests.browser.test_table_layout import off_the_loop
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    latest_hand,
    open_buy_in,
    seat_box,
    seat_numbers,
    shot,
    start_session,
    wait_until,
)
from tests.tables.conftest import bet_and_call, play_out
from tests.tables.test_history_access import MUCK_DECK
from tests.tables.test_services import chips_paid

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser


def seat_both(browser: Any, base: str, table: Table) -> dict[int, Page]:
    """Alice (seat 1, desktop) and bob (seat 2, phone) log in and sit; a hand is dealt."""
    pages = {}
    for seat, name, viewport in ((1, "alice", DESKTOP), (2, "bob", PHONE)):
        user_signup(username=name, password=PASSWORD)
        page = browser.new_context(**viewport).new_page()
        start_session(page, base, name)
        page.goto(f"{base}/tables/{table.pk}/")
        open_buy_in(page, seat)
        buy_in(page, 200)
        expect(page.locator("#buy-in")).to_be_hidden()
        pages[seat] = page
    wait_until(lambda: latest_hand(table), "the first hand")
    return pages


def seat_to_act(table: Table) -> int | None:
    hand = latest_hand(table)
    state = HandState.from_dict(hand.state)
    return None if state.to_act is None else seat_numbers(hand)[state.to_act]


def lines(page: Page, selector: str) -> list[str]:
    """The texts of the list's items, or of the items ``selector`` picks."""
    items = page.locator(selector if " " in selector else f"{selector} li")
    return items.all_inner_texts()


def test_a_reload_keeps_the_log_and_chat_and_leaving_waits_for_the_hand(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    pages = seat_both(browser, live_server_url, table)
    alice, bob = pages[1], pages[2]
    alice.fill("#chat-text", "good luck, bob")
    alice.locator("#chat-form button").click()
    expect(bob.locator("#chat")).to_contain_text("alice: good luck, bob")

    # The bring-in, made by whoever has the low card, then bob's page and
    # alice's agree on the log so far.
    actor = seat_to_act(table)
    pages[actor].locator("#actions .action-bring_in").click()
    expect(alice.locator("#log")).to_contain_text("brings in 2")
    # Who sat down when is this page's own news; the hand's lines come from
    # the server. Bob's sitting down dealt the hand: his line comes before it.
    assert lines(alice, "#log")[:3] == [
        "alice sits down in seat 1",
        "bob sits down in seat 2",
        "Hand #1",
    ]
    assert len(lines(alice, "#log .log-seat")) == 2
    before = lines(alice, "#log li:not(.log-seat)")
    assert before[0] == "Hand #1" and "antes 1" in before[1]

    alice.reload()
    expect(alice.locator("#log")).to_contain_text("brings in 2")
    assert lines(alice, "#log") == before  # the whole hand so far, nothing twice
    expect(alice.locator("#chat li")).to_have_count(1)  # nothing twice
    expect(alice.locator("#chat li")).to_contain_text("alice: good luck, bob")
    shot(alice, screenshots, "alice-1-reloaded")

    # Leaving mid-hand is taken as "after this hand", and can be taken back.
    controls = alice.locator("#seat-controls")
    leave = controls.get_by_role("checkbox", name="Leave after this hand")
    leave.check()
    expect(controls).to_contain_text(
        "You’ll leave the table, with your chips, when this hand ends."
    )
    expect(seat_box(bob, 1).locator(".seat-tags")).to_contain_text("leaving after this hand")
    expect(leave).to_be_checked()  # as the server has it, after the redraw
    leave.uncheck()  # stay after all
    expect(seat_box(bob, 1).locator(".seat-tags")).not_to_contain_text("leaving")
    expect(leave).not_to_be_checked()
    leave.check()
    expect(alice.locator("#banner")).to_be_hidden()  # no error: nothing was refused
    shot(alice, screenshots, "alice-2-leaving")

    # The player facing the bring-in folds with F, which ends the hand.
    actor = seat_to_act(table)
    pages[actor].keyboard.press("f")
    expect(bob.locator("#log")).to_contain_text("folds")
    expect(alice.locator("#seat-controls")).to_contain_text("Pick an empty seat to sit down.")
    assert not Seat.objects.filter(table=table, player__username="alice").exists()
    # She was dealt in, so the hand is still hers to replay.
    expect(alice.locator("#last-hand-link")).to_be_visible()
    expect(alice.locator("#last-hand-link")).to_have_attribute("href", re.compile(r"/hands/\d+/$"))
    expect(bob.locator("#log")).to_contain_text("alice leaves the table")
    # Bob is alone: the table says it is waiting, not "Hand #1 · over" for good.
    expect(bob.locator("#street")).to_have_text("Waiting for players")
    expect(bob.locator("#turn")).to_have_text(
        "A hand starts once two players with chips are sitting in."
    )
    shot(bob, screenshots, "bob-3-waiting")
    shot(alice, screenshots, "alice-3-left")


def test_timed_out_turns_are_said_in_the_log_and_on_the_seat(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    """Alice never moves; bob checks with F, since checking is free (no bring-in)."""
    stakes = table.stakes
    # Long enough for bob's page to answer even on a busy machine, short enough to wait out.
    stakes.action_seconds, stakes.time_bank_seconds, stakes.bring_in = 8, 0, 0
    stakes.save(update_fields=["action_seconds", "time_bank_seconds", "bring_in"])
    pages = seat_both(browser, live_server_url, table)
    alice, bob = pages[1], pages[2]

    def alice_sat_out() -> bool:
        return Seat.objects.filter(table=table, number=1, state="sitting_out").exists()

    while not alice_sat_out():
        if seat_to_act(table) == 2 and bob.locator("#actions .action-check").count():
            bob.keyboard.press("f")  # nothing to fold: F checks
            wait_until(lambda: seat_to_act(table) != 2 or alice_sat_out(), "bob's check")
        wait_until(lambda: seat_to_act(table) == 2 or alice_sat_out(), "alice's turn to pass", 30)

    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text("Seat 1 (alice) checks (out of time)")
        expect(page.locator("#log")).to_contain_text("alice sat out: two turns timed out")
        expect(seat_box(page, 1).locator(".seat-tags")).to_contain_text(
            "sat out: two turns timed out"
        )
    # F made real checks for bob: moves of his own, not the clock's.
    bobs = [m for h in table.hands.all() for m in h.moves() if m.seat == 2 and m.kind == "check"]
    assert any(not m.timed_out for m in bobs)
    expect(alice.locator("#seat-controls")).to_contain_text(
        "You were sat out: two turns timed out. Untick “Sit out next hand” to be dealt in again."
    )
    shot(alice, screenshots, "alice-sat-out")
    shot(bob, screenshots, "bob-sees-alice-sat-out")
    sit_out = alice.locator("#seat-controls").get_by_role("checkbox", name="Sit out next hand")
    expect(sit_out).to_be_checked()
    sit_out.uncheck()
    expect(seat_box(bob, 1).locator(".seat-tags")).not_to_contain_text("sat out")


def split_pot_deck(stakes: Stakes, stacks: list[int]) -> list[int]:
    """A deck on which heads-up hi-lo, bet and called to the end, splits the pot
    between two players: one takes the high half, the other the low.

    Found by the engine alone, from a fixed seed, so every run deals the same.
    """
    rng = random.Random(2026)
    while True:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        state = HandState.new(stakes.game_config(), stacks, deck)
        while not state.finished:
            state.act(state.to_act, *bet_and_call(state))
        pot = state.result["pots"][0]
        high, low = set(pot["high_winners"]), set(pot["low_winners"])
        if len(state.result["pots"]) == 1 and len(high) == len(low) == 1 and high != low:
            return deck


def test_a_hi_lo_split_says_who_took_which_half_and_calls_say_how_much(
    browser: Any,
    live_server_url: str,
    table: Table,
    screenshots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stakes = table.stakes
    stakes.variant = "stud8"
    stakes.save(update_fields=["variant"])
    users = {}
    for seat, name in ((1, "alice"), (2, "bob")):
        users[name] = user_signup(username=name, password=PASSWORD)
        services.seat_take(
            table_id=table.pk, player_id=users[name].pk, seat_number=seat, buy_in=300
        )
    deck = split_pot_deck(stakes, [300, 300])
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(deck))
    # Nothing deals over the hand to look at: moves made here schedule no next
    # hand, and the test server runs no beat. (Closing the table would stand
    # the players up, taking the winners' seats off the felt.)
    hand = play_out(services.hand_start(table_id=table.pk), bet_and_call)
    result = HandState.from_dict(hand.state).result
    pot = result["pots"][0]
    seats = seat_numbers(hand)
    names = {1: "alice", 2: "bob"}
    high, low = seats[pot["high_winners"][0]], seats[pot["low_winners"][0]]
    shares = dict(pot["shares"])
    won = {seat: shares[seats.index(seat)] for seat in (high, low)}

    page = browser.new_context(**DESKTOP).new_page()
    start_session(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/tables/{table.pk}/")
    expect(seat_box(page, high).locator(".seat-tags")).to_contain_text(f"wins {won[high]} (high)")
    expect(seat_box(page, low).locator(".seat-tags")).to_contain_text(f"wins {won[low]} (low)")
    # One pot: it is "Pot", never "Main pot".
    expect(page.locator(".last-pot")).to_have_text(
        f"Pot {pot['amount']}: {names[seats[pot['shares'][0][0]]]} {pot['shares'][0][1]} "
        f"({'high' if seats[pot['shares'][0][0]] == high else 'low'}), "
        f"{names[seats[pot['shares'][1][0]]]} {pot['shares'][1][1]} "
        f"({'high' if seats[pot['shares'][1][0]] == high else 'low'})"
    )
    log = page.locator("#log")
    expect(log).to_contain_text(
        f"Seat {high} ({names[high]}) wins {won[high]} (high), "
        f"Seat {low} ({names[low]}) wins {won[low]} (low)"
    )
    # Every call says what it cost: the chips the caller put in on that street.
    # (What the engine asked of each call, replayed from the stored hand.)
    paid = chips_paid(hand)
    calls = [(move.seat, paid[move.number]) for move in hand.moves() if move.kind == "call"]
    assert calls
    texts = log.locator("li.log-call").all_inner_texts()
    assert texts == [f"Seat {seat} ({names[seat]}) calls {chips}" for seat, chips in calls]
    assert "Main pot" not in page.locator("#room").inner_text()
    shot(page, screenshots, "alice-split-pot")


def test_sitting_out_waits_for_the_hand_and_a_mucked_hand_is_named_to_its_player(
    browser: Any,
    live_server_url: str,
    table: Table,
    server_channel_layer: None,
    screenshots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MUCK_DECK: bob (seat 2) makes aces full; alice (seat 1) ticks "Sit out
    next hand" during the hand, plays it out, and her hand, which can't win,
    is mucked for her at the showdown (auto-muck). Only she is told, in each
    case: bob sees a seat in the hand, then that she mucked."""
    table.stakes.auto_muck = True
    table.stakes.save(update_fields=["auto_muck"])
    users = {}
    for seat, name in ((1, "alice"), (2, "bob")):
        users[name] = user_signup(username=name, password=PASSWORD)
        services.seat_take(
            table_id=table.pk, player_id=users[name].pk, seat_number=seat, buy_in=300
        )
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(MUCK_DECK))
    hand = services.hand_start(table_id=table.pk)
    pages = {}
    for seat, name, viewport in ((1, "alice", DESKTOP), (2, "bob", PHONE)):
        pages[seat] = browser.new_context(**viewport).new_page()
        start_session(pages[seat], live_server_url, name)
        pages[seat].goto(f"{live_server_url}/tables/{table.pk}/")
    alice, bob = pages[1], pages[2]

    sit_out = alice.locator("#seat-controls").get_by_role("checkbox", name="Sit out next hand")
    sit_out.check()
    expect(seat_box(alice, 1).locator(".seat-tags")).to_contain_text("sitting out next hand")
    expect(alice.locator("#seat-controls")).to_contain_text("You’ll sit out when this hand ends")
    expect(sit_out).to_be_checked()  # as the server has it, after the redraw
    wait_until(lambda: Seat.objects.get(player=users["alice"]).sitting_out_next, "the sit-out")
    bob.reload()  # a fresh snapshot: still nothing to tell bob
    expect(seat_box(bob, 1).locator(".seat-name")).to_have_text("alice")
    expect(seat_box(bob, 1)).not_to_contain_text("sitting out")
    shot(alice, screenshots, "alice-1-sitting-out-next-hand")
    shot(bob, screenshots, "bob-1-sees-a-seat-in-the-hand")

    hand = play_out(hand, bet_and_call)
    off_the_loop(lambda: broadcast.table_changed(table.pk))  # the moves were made here
    state = HandState.from_dict(hand.state)
    her = seat_numbers(hand).index(1)
    assert state.mucked[her] and not state.shown[her]
    words = state.hand_words(her)["high"]
    expect(seat_box(alice, 1).locator(".seat-hand")).to_have_text(words)
    mine = alice.locator(".last-row").filter(has_text="alice")
    expect(mine.locator(".last-words")).to_have_text(words)
    expect(mine.locator(".last-mucked")).to_have_text("mucked")
    expect(mine.locator(".card")).to_have_count(len(state.hand_words(her)["cards"]))
    theirs = bob.locator(".last-row").filter(has_text="alice")
    expect(theirs.locator(".last-mucked")).to_have_text("mucked")
    expect(theirs.locator(".last-words")).to_have_count(0)
    expect(theirs.locator(".card")).to_have_count(0)
    expect(seat_box(bob, 1).locator(".seat-hand")).to_have_count(0)
    assert words not in bob.locator("body").inner_text()
    # The hand over, everyone sees her sitting out.
    for page in (alice, bob):
        expect(seat_box(page, 1).locator(".seat-tags")).to_contain_text("sitting out")
        expect(seat_box(page, 1).locator(".seat-tags")).not_to_contain_text("next hand")
    shot(alice, screenshots, "alice-2-her-mucked-hand")
    shot(bob, screenshots, "bob-2-alice-mucked")


@pytest.mark.usefixtures("server_channel_layer")
def test_a_player_stood_up_for_sitting_out_is_told_why_and_that_the_chips_are_back(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    """Carol sits, then sits out; with the stakes' ``sit_out_hands`` at 1, the
    first hand dealt without her stands her up. Her page says so, where it
    would otherwise only offer an empty seat; a player who leaves by choice
    is not told it."""
    stakes = table.stakes
    stakes.sit_out_hands = 1
    stakes.save(update_fields=["sit_out_hands"])
    users = {name: user_signup(username=name, password=PASSWORD) for name in ("carol", "al", "bo")}
    carol = browser.new_context(**PHONE).new_page()
    start_session(carol, live_server_url, "carol")
    carol.goto(f"{live_server_url}/tables/{table.pk}/")
    open_buy_in(carol, 3)
    buy_in(carol, 300)
    sit_out = carol.locator("#seat-controls").get_by_role("checkbox", name="Sit out next hand")
    sit_out.check()
    wait_until(lambda: Seat.objects.get(player=users["carol"]).state == "sitting_out", "sit out")
    for number, name in ((1, "al"), (2, "bo")):
        services.seat_take(
            table_id=table.pk, player_id=users[name].pk, seat_number=number, buy_in=300
        )
    assert off_the_loop(lambda: services.hand_start(table_id=table.pk)) is not None
    off_the_loop(lambda: broadcast.table_changed(table.pk))
    assert not Seat.objects.filter(player=users["carol"]).exists()

    controls = carol.locator("#seat-controls")
    expect(controls).to_contain_text("You were stood up, your chips back in your balance")
    expect(controls).to_contain_text("Pick an empty seat to sit down.")
    shot(carol, screenshots, "carol-stood-up")

    # Sitting down again clears it; leaving by choice doesn't bring it back.
    open_buy_in(carol, 4)
    buy_in(carol, 100)
    expect(seat_box(carol, 4).locator(".seat-name")).to_have_text("carol")
    expect(controls).not_to_contain_text("stood up")
    controls.get_by_role("button", name="Leave table").click()  # not dealt in: at once
    expect(controls).to_contain_text("Pick an empty seat to sit down.")
    expect(controls).not_to_contain_text("stood up")
