"""Chips at the seat and the waiting list, in a real browser.

Personas:
- alice tops up between hands, rebuys once busted (her seat out of chips
  until then), and sets an auto-rebuy;
- at a full two-seat table, carol joins the waiting list, bob leaves, and
  the seat is held for carol, who takes it, while dave watches it held.

Stacks and balances are read back from the database, never from the page's
arithmetic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Seat, Stakes, Table, WaitingPlayer
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    open_buy_in,
    seat_box,
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


def page_for(browser: Any, base: str, name: str, viewport: dict[str, Any] = DESKTOP) -> Page:
    user_signup(username=name, password=PASSWORD)
    page = browser.new_context(**viewport).new_page()
    start_session(page, base, name)
    return page


def stack_of(table: Table, name: str) -> int | None:
    seat = Seat.objects.filter(table=table, player__username=name).first()
    return None if seat is None else seat.stack


def test_alice_tops_up_rebuys_and_sets_an_auto_rebuy(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    alice = page_for(browser, live_server_url, "alice")
    alice.goto(f"{live_server_url}/tables/{table.pk}/")
    open_buy_in(alice, 1)
    buy_in(alice, 200)
    expect(seat_box(alice, 1).locator(".seat-stack")).to_have_text("200 chips")

    # Alone, so no hand runs: she may add up to the table's maximum of 1,000.
    form = alice.locator("#add-chips")
    expect(form).to_contain_text("1 to 800 more, between your hands")
    form.locator("input").fill("900")
    form.get_by_role("button", name="Top up").click()
    expect(form).to_contain_text("Enter a whole number of chips from 1 to 800.")
    assert stack_of(table, "alice") == 200  # the page refused it; nothing was sent
    form.locator("input").fill("300")
    form.get_by_role("button", name="Top up").click()
    expect(seat_box(alice, 1).locator(".seat-stack")).to_have_text("500 chips")
    assert stack_of(table, "alice") == 500
    expect(alice.locator(".site-header .balance")).to_have_text("9,500 chips")
    shot(alice, screenshots, "alice-1-topped-up")

    # Busted (as a lost all-in would leave her): the form offers a rebuy instead.
    Seat.objects.filter(table=table, player__username="alice").update(stack=0)
    alice.reload()
    form = alice.locator("#add-chips")
    expect(form.get_by_role("button", name="Rebuy")).to_be_visible()
    expect(form).to_contain_text("100 to 1,000")
    expect(seat_box(alice, 1).locator(".seat-tags")).to_have_text("out of chips")
    form.locator("input").fill("150")
    form.get_by_role("button", name="Rebuy").click()
    expect(seat_box(alice, 1).locator(".seat-stack")).to_have_text("150 chips")
    expect(seat_box(alice, 1)).not_to_contain_text("out of chips")
    assert stack_of(table, "alice") == 150

    # Auto-rebuy to 400: set between her hands, it tops her up at once.
    auto = alice.locator("#auto-rebuy")
    auto.locator("input.chip-amount").fill("400")
    auto.get_by_role("checkbox").check()
    expect(seat_box(alice, 1).locator(".seat-stack")).to_have_text("400 chips")
    seat = Seat.objects.get(table=table, player__username="alice")
    assert (seat.auto_rebuy_to, seat.stack) == (400, 400)
    expect(alice.locator("#auto-rebuy").get_by_role("checkbox")).to_be_checked()
    alice.locator("#auto-rebuy").get_by_role("checkbox").uncheck()
    wait_until(lambda: Seat.objects.get(pk=seat.pk).auto_rebuy_to is None, "the auto-rebuy to stop")
    shot(alice, screenshots, "alice-2-auto-rebuy-off")


def test_a_seat_is_held_for_the_first_on_the_waiting_list_who_takes_it(
    browser: Any, live_server_url: str, screenshots: Path
) -> None:
    stakes = Stakes.objects.create(
        name="Heads-up stud", variant="stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
        min_buy_in=100, max_buy_in=1000, seats=2, action_seconds=120,
    )  # fmt: skip
    table = Table.objects.create(name="Two seats", stakes=stakes)
    bob = page_for(browser, live_server_url, "bob")
    carol = page_for(browser, live_server_url, "carol", PHONE)
    dave = page_for(browser, live_server_url, "dave")
    user_signup(username="alice", password=PASSWORD)
    for number, name in ((1, "alice"), (2, "bob")):
        player = User.objects.get(username=name)
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=100)
    for page in (bob, carol, dave):
        page.goto(f"{live_server_url}/tables/{table.pk}/")

    carol.locator("#chip-controls").get_by_role("button", name="Join the waiting list").click()
    expect(carol.locator("#chip-controls")).to_contain_text("You are next on the waiting list")
    dave.locator("#chip-controls").get_by_role("button", name="Join the waiting list").click()
    expect(dave.locator("#chip-controls")).to_contain_text("You are number 2 on the waiting list")
    assert list(WaitingPlayer.objects.values_list("player__username", flat=True)) == [
        "carol",
        "dave",
    ]

    # Bob leaves: seat 2 is held for carol alone.
    bob.locator("#seat-controls").get_by_role("button", name="Leave table").click()
    expect(carol.locator("#chip-controls")).to_contain_text("Seat 2 is held for you until")
    expect(seat_box(dave, 2)).to_contain_text("held for the waiting list")
    expect(seat_box(dave, 2).get_by_role("button", name="Sit here")).to_have_count(0)
    shot(carol, screenshots, "carol-1-seat-held")
    shot(dave, screenshots, "dave-1-seat-held-for-carol")

    open_buy_in(carol, 2)
    buy_in(carol, 100)
    expect(seat_box(dave, 2).locator(".seat-name")).to_have_text("carol")
    # Two players again: a hand is dealt, so her 100 may already hold an ante less.
    assert Seat.objects.get(table=table, player__username="carol").number == 2
    # Dave is next now, and carol is off the list.
    expect(dave.locator("#chip-controls")).to_contain_text("You are next on the waiting list")
    assert list(WaitingPlayer.objects.values_list("player__username", flat=True)) == ["dave"]
    shot(carol, screenshots, "carol-2-seated")
