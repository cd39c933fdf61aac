"""The table on a phone and on a desktop: eight players, seven cards each.

A full table is the hardest case for the layout: eight seats around a phone's
390-pixel-wide felt, each with a hand of up to seven cards and a bet in front
of it. Alice plays a whole hand from a 390×844 phone, tapping only what she
can see without scrolling; the seven other players' moves are made through the
services. What the page must show is read from the database.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts.services import user_signup
from tables import services
from tables.broadcast import table_changed
from tables.models import Hand, Table
from tables.rules import HandState
from tests.browser.test_table_play import (
    DESKTOP,
    MOVING,
    PASSWORD,
    PHONE,
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

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


def full_table(table: Table) -> dict[str, Any]:
    """Eight players seated by the services, alice in seat 1; one hand dealt."""
    users = {}
    for number, name in enumerate(NAMES, start=1):
        users[name] = user_signup(username=name, password=PASSWORD)
        services.seat_take(
            table_id=table.pk, player_id=users[name].pk, seat_number=number, buy_in=500
        )
    return users


def state_of(hand: Hand) -> HandState:
    hand.refresh_from_db()
    return HandState.from_dict(hand.state)


def passive(state: HandState) -> str:
    """Check, call or bring in: everyone stays to the end, no one raises."""
    kinds = {option.kind for option in state.legal_actions()}
    return next(kind for kind in ("check", "call", "bring_in") if kind in kinds)


def off_the_loop(work: Callable[[], Any]) -> Any:
    """Run ``work`` in a thread of its own and return what it returns.

    Playwright keeps an event loop in the test's thread, where the services'
    broadcast (``async_to_sync``) refuses to run; in another thread it
    reaches the server's pages as the server's own would.
    """

    def run() -> Any:
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def told(table_id: int, change: Callable[[], Any]) -> Any:
    """Make a change through the services, then tell the table's pages, as the
    site's own callers do."""
    result = change()
    table_changed(table_id)
    return result


def others_play(hand: Hand, alice_index: int) -> HandState:
    """Every move up to alice's next turn (or the hand's end), made by the services."""
    table_id = hand.table_id
    while True:
        state = state_of(hand)
        if state.finished or state.to_act == alice_index:
            return state
        move = {
            "hand_id": hand.pk,
            "player_id": hand.seating["players"][state.to_act]["player"],
            "kind": passive(state),
            "version": hand.version,
        }
        off_the_loop(partial(told, table_id, partial(services.hand_act, **move)))


def moved_on(table: Table, version: int) -> bool:
    hand = latest_hand(table)
    return hand is not None and hand.version != version


def boxes(page: Page, *selectors: str) -> list[list[dict[str, float]]]:
    """The boxes each selector picks, all measured in one go in the page.

    Finding and measuring in one script matters: a snapshot arriving between
    the two would redraw the seats, leaving only detached, empty boxes.
    """
    return page.evaluate(BOXES, list(selectors))


BOXES = """selectors => selectors.map(selector =>
  [...document.querySelectorAll(selector)].map(n => {
    const r = n.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height, name: n.className};
  }).filter(b => b.width)
)"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def assert_laid_out(page: Page, width: int, height: int) -> None:
    """No two seats, bets or the centre overlap; all of it, and alice's
    controls, are on the screen without scrolling; every up card's corner is
    wide enough to read."""
    assert page.evaluate("window.scrollY") == 0
    seats, bets, centre = boxes(page, "#felt .seat", "#felt .seat-bet", "#felt .centre > *")
    assert len(seats) == 8, seats
    things = seats + bets + centre
    for i, a in enumerate(things):
        assert a["x"] >= 0 and a["x"] + a["width"] <= width, f"off the screen: {a}"
        for b in things[i + 1 :]:
            assert not overlaps(a, b), f"{a} overlaps {b}"
    for selector in ("#actions", "#seat-controls"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, f"{selector}: {box}"
    # Each up card shows at least its corner: the part not under the next card.
    strips = page.evaluate(
        """() => [...document.querySelectorAll('#felt .hand-up .card')].map(c => {
          const next = c.nextElementSibling;
          const r = c.getBoundingClientRect();
          const shown = next ? next.getBoundingClientRect().x - r.x : r.width;
          return {shown, font: parseFloat(getComputedStyle(c).fontSize)};
        })"""
    )
    assert strips
    assert all(s["shown"] >= 11 and s["font"] >= 10 for s in strips), strips


def assert_hole_cards_apart(page: Page, down: int) -> None:
    """The player's own down cards, faces shown, lie apart from her up cards."""
    mine = page.locator("#felt .seat-mine")
    expect(mine.locator(".hand-down .card-hole[data-card]")).to_have_count(down)
    expect(mine.locator(".hand-up .card-hole")).to_have_count(0)
    gap = page.evaluate(
        """() => {
          const mine = document.querySelector('#felt .seat-mine');
          const down = mine.querySelector('.hand-down').getBoundingClientRect();
          const up = mine.querySelector('.hand-up').getBoundingClientRect();
          return up.left - down.right;
        }"""
    )
    assert gap >= 4, gap


@pytest.mark.parametrize("card_size", ["normal", "large"])
def test_a_full_hand_of_eight_on_a_phone_with_every_control_in_reach(
    browser: Any,
    live_server_url: str,
    server_channel_layer: None,
    table: Table,
    screenshots: Path,
    card_size: str,
) -> None:
    alice = full_table(table)["alice"]
    alice.card_size = card_size  # the larger cards must fit too
    alice.save(update_fields=["card_size"])
    hand = off_the_loop(partial(told, table.pk, partial(services.hand_start, table_id=table.pk)))
    alice_index = next(i for i, entry in enumerate(hand.seating["players"]) if entry["seat"] == 1)
    # The layout is measured at rest: no card is in flight when it is.
    phone = browser.new_context(**PHONE).new_page()
    start_session(phone, live_server_url, "alice")
    phone.goto(f"{live_server_url}/tables/{table.pk}/")
    desktop = browser.new_context(**DESKTOP).new_page()
    start_session(desktop, live_server_url, "bob")
    desktop.goto(f"{live_server_url}/tables/{table.pk}/")

    streets_seen = set()
    while True:
        state = others_play(hand, alice_index)
        if state.finished:
            break
        street = state.street
        move = phone.locator(f"#actions .action-{passive(state)}")
        expect(move).to_be_visible()
        if street not in streets_seen and street >= 3:
            streets_seen.add(street)
            assert_laid_out(phone, 390, 844)
            assert_hole_cards_apart(phone, len(state.downcards(alice_index)))
            shot(phone, screenshots, f"phone-street-{street + 3}")
            shot(desktop, screenshots, f"desktop-street-{street + 3}")
            # What the README shows: the screen as each player sees it.
            shot(phone, screenshots, "table-phone", full_page=False)
            shot(desktop, screenshots, "table-desktop", full_page=False)
        move.tap()
        wait_until(partial(moved_on, table, hand.version), "alice's move")
    expect(phone.locator("#last-hand")).to_be_visible()
    shot(phone, screenshots, "phone-showdown")


def test_an_observers_phone_shows_six_seats_bets_clear_of_the_cards_and_the_centre(
    browser: Any,
    live_server_url: str,
    server_channel_layer: None,
    table: Table,
    screenshots: Path,
) -> None:
    """Three players on the long sides of a six-seat felt, each with a bet out:
    on a 390-pixel phone no bet lies on a seat's cards, the centre's words or
    another bet (a side seat's bet goes above or below it when the line to
    the centre has no room)."""
    table.stakes.seats = 6
    table.stakes.save(update_fields=["seats"])
    for number, name in zip((3, 4, 6), NAMES, strict=False):
        player = user_signup(username=name, password=PASSWORD)
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=500)
    hand = off_the_loop(partial(told, table.pk, partial(services.hand_start, table_id=table.pk)))
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(f"{live_server_url}/tables/{table.pk}/")
    # The bring-in, a completion and a call: a bet before each seat, the street still on.
    for moved, kind in enumerate(("bring_in", "complete", "call"), start=1):
        state = state_of(hand)
        move = {
            "hand_id": hand.pk,
            "player_id": hand.seating["players"][state.to_act]["player"],
            "kind": kind,
            "version": hand.version,
        }
        if kind == "complete":
            move["amount"] = table.stakes.small_bet
        off_the_loop(partial(told, table.pk, partial(services.hand_act, **move)))
        expect(phone.locator("#felt .seat-bet")).to_have_count(moved)
    expect(phone.locator("#timer")).to_be_visible()  # the centre at its tallest
    shot(phone, screenshots, "observer-phone-bets")
    seats, bets, centre = boxes(phone, "#felt .seat", "#felt .seat-bet", "#felt .centre > *")
    assert (len(seats), len(bets)) == (6, 3)
    for i, bet in enumerate(bets):
        for other in seats + centre + bets[i + 1 :]:
            assert not overlaps(bet, other), f"{bet} overlaps {other}"
        assert bet["x"] >= 0 and bet["x"] + bet["width"] <= 390, f"off the screen: {bet}"


COUNT_ANIMATIONS = """
window.animationsStarted = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.animationsStarted += 1;
  return animate.apply(this, args);
};
"""


def test_cards_and_chips_move_unless_the_player_or_the_device_asks_for_stillness(
    browser: Any,
    live_server_url: str,
    server_channel_layer: None,
    table: Table,
    screenshots: Path,
) -> None:
    users = {}
    for number, name in enumerate(NAMES[:3], start=1):
        users[name] = user_signup(username=name, password=PASSWORD)
        services.seat_take(
            table_id=table.pk, player_id=users[name].pk, seat_number=number, buy_in=500
        )
    users["carol"].animations = False
    users["carol"].save(update_fields=["animations"])
    pages = {}
    for name, options in (
        ("alice", DESKTOP | MOVING),
        ("bob", DESKTOP),
        ("carol", DESKTOP | MOVING),
    ):
        context = browser.new_context(**options)
        context.add_init_script(COUNT_ANIMATIONS)
        pages[name] = context.new_page()
        start_session(pages[name], live_server_url, name)
        pages[name].goto(f"{live_server_url}/tables/{table.pk}/")
        expect(pages[name].locator("#street")).to_have_text("Waiting for players")

    hand = off_the_loop(partial(told, table.pk, partial(services.hand_start, table_id=table.pk)))
    for page in pages.values():
        expect(page.locator("#felt .seat .card")).to_have_count(9)
    shot(pages["alice"], screenshots, "alice-dealt")
    # Nine cards flew in for alice; bob's device and carol's choice keep theirs still.
    wait_until(lambda: pages["alice"].evaluate("window.animationsStarted") >= 9, "the deal")
    # The bring-in slides out in front of its seat, for alice alone.
    before = pages["alice"].evaluate("window.animationsStarted")
    state = state_of(hand)
    bring_in = partial(
        services.hand_act,
        hand_id=hand.pk,
        player_id=hand.seating["players"][state.to_act]["player"],
        kind="bring_in",
        version=hand.version,
    )
    off_the_loop(partial(told, table.pk, bring_in))
    for page in pages.values():
        expect(page.locator("#felt .seat-bet")).to_have_count(1)
    wait_until(lambda: pages["alice"].evaluate("window.animationsStarted") > before, "the bet")
    for name in ("bob", "carol"):
        assert pages[name].evaluate("window.animationsStarted") == 0, name
