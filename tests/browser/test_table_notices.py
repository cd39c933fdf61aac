"""What the table page tells its players as a hand goes on, in a real browser.

Personas:
- alice, on a desktop browser, reloads in the middle of a hand, then leaves
  after it; later she lets her turns run out.
- bob, on a phone-sized browser, plays on, by keyboard where he can.

Every check reads the page as a person would; the hand is read from the
database only to know whose turn it is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables.models import Seat, Table
from tables.rules import HandState
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    latest_hand,
    log_in,
    open_buy_in,
    seat_box,
    seat_numbers,
    shot,
    wait_until,
)

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
        log_in(page, base, name)
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
    # Who sat down when is this page's own news; the hand's lines come from the server.
    assert lines(alice, "#log .log-seat") == [
        "alice sits down in seat 1",
        "bob sits down in seat 2",
    ]
    before = lines(alice, "#log li:not(.log-seat)")
    assert before[0] == "Hand #1" and "antes 1" in before[1]

    alice.reload()
    expect(alice.locator("#log")).to_contain_text("brings in 2")
    assert lines(alice, "#log") == before  # the whole hand so far, nothing twice
    assert lines(alice, "#chat") == ["alice: good luck, bob"]
    shot(alice, screenshots, "alice-1-reloaded")

    # Leaving mid-hand is taken as "after this hand", and can be taken back.
    controls = alice.locator("#seat-controls")
    controls.get_by_role("button", name="Leave after this hand").click()
    expect(controls).to_contain_text(
        "You’ll leave the table, with your chips, when this hand ends."
    )
    expect(seat_box(bob, 1).locator(".seat-tags")).to_contain_text("leaving after this hand")
    controls.get_by_role("button", name="Stay").click()
    expect(seat_box(bob, 1).locator(".seat-tags")).not_to_contain_text("leaving")
    controls.get_by_role("button", name="Leave after this hand").click()
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
    stakes.action_seconds, stakes.time_bank_seconds, stakes.bring_in = 5, 0, 0
    stakes.save(update_fields=["action_seconds", "time_bank_seconds", "bring_in"])
    pages = seat_both(browser, live_server_url, table)
    alice, bob = pages[1], pages[2]

    def alice_sat_out() -> bool:
        return Seat.objects.filter(table=table, number=1, state="sitting_out").exists()

    while not alice_sat_out():
        if seat_to_act(table) == 2 and bob.locator("#actions .action-check").count():
            bob.keyboard.press("f")  # nothing to fold: F checks
            wait_until(lambda: seat_to_act(table) != 2 or alice_sat_out(), "bob's check")
        wait_until(lambda: seat_to_act(table) == 2 or alice_sat_out(), "alice's turn to pass", 20)

    for page in (alice, bob):
        expect(page.locator("#log")).to_contain_text("Seat 1 (alice) checks (out of time)")
        expect(page.locator("#log")).to_contain_text("alice sat out: two turns timed out")
        expect(seat_box(page, 1).locator(".seat-tags")).to_contain_text(
            "sat out: two turns timed out"
        )
    assert "Seat 2 (bob) checks (out of time)" not in lines(bob, "#log")
    expect(alice.locator("#seat-controls")).to_contain_text(
        "You were sat out: two turns timed out. Sit in to be dealt in again."
    )
    shot(alice, screenshots, "alice-sat-out")
    shot(bob, screenshots, "bob-sees-alice-sat-out")
    alice.locator("#seat-controls").get_by_role("button", name="Sit in").click()
    expect(seat_box(bob, 1).locator(".seat-tags")).not_to_contain_text("sat out")
