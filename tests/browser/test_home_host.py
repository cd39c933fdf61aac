"""A home game's host runs it in a real browser: alice (the host, on a
desktop) pauses the deal, and bob (her friend, on a 390×844 phone) sits
down to no hand and is told the game is paused; she resumes and a hand is
dealt; she removes bob mid-hand, and he leaves when it ends, his chips back
in his balance and the table gone for him; then she closes the game.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables import broadcast
from tables.models import Hand, Seat, Table, TableMember
from tests.browser.test_csp import refusals
from tests.browser.test_table_layout import off_the_loop
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    fits_width,
    open_buy_in,
    seat_box,
    shot,
    start_session,
    wait_until,
)
from tests.tables.conftest import bet_and_call, play_out

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# Where the lead looks at this test's screenshots, besides the usual folder.
LOOK_HERE = Path("/tmp/shots-host")


def panel(page: Page) -> Any:
    return page.locator("#host-panel")


def test_the_host_pauses_resumes_removes_a_friend_and_closes_the_game(
    browser: Any,
    live_server_url: str,
    table: Table,
    server_channel_layer: None,
    screenshots: Path,
) -> None:
    alice_user, bob_user = (user_signup(username=n, password=PASSWORD) for n in ("alice", "bob"))
    Table.objects.filter(pk=table.pk).update(host=alice_user)
    TableMember.objects.create(table=table, player=bob_user)
    address = f"{live_server_url}/tables/{table.pk}/"
    alice = browser.new_context(**DESKTOP).new_page()
    bob = browser.new_context(**PHONE).new_page()
    seen = {"alice": refusals(alice), "bob": refusals(bob)}
    for page, name in ((alice, "alice"), (bob, "bob")):
        start_session(page, live_server_url, name)
        page.goto(address)
    expect(panel(alice)).to_be_visible()
    expect(panel(bob)).to_be_hidden()  # the panel is the host's alone

    # Alice sits and pauses; bob sits, and no hand is dealt.
    open_buy_in(alice, 1)
    buy_in(alice, 300)
    expect(seat_box(alice, 1)).to_contain_text("alice")
    panel(alice).get_by_role("button", name="Pause the deal").click()
    expect(alice.locator("#home-status")).to_have_text(
        "You paused the game: no new hand starts until you resume it."
    )
    open_buy_in(bob, 4)
    buy_in(bob, 300)
    expect(seat_box(bob, 4)).to_contain_text("bob")
    expect(bob.locator("#home-status")).to_have_text(
        "Paused by the host, alice: no new hand starts until they resume the game."
    )
    assert fits_width(bob)
    shot(alice, screenshots, "1-host-paused-desktop")
    shot(bob, screenshots, "2-friend-sees-paused-phone")
    assert not Hand.objects.filter(table=table).exists()

    # She resumes: a hand is dealt at once.
    panel(alice).get_by_role("button", name="Resume the deal").click()
    hand = wait_until(lambda: Hand.objects.filter(table=table).first(), "the hand dealt on resume")
    for page in (alice, bob):
        expect(page.locator("#street")).to_contain_text("Hand #1")
        expect(page.locator("#home-status")).to_be_hidden()

    # She removes bob mid-hand, after saying she is sure: he leaves when it ends.
    row = panel(alice).locator('.host-player[data-player="bob"]')
    row.get_by_role("button", name="Remove").click()
    expect(row).to_contain_text("Remove bob? Their chips go back")
    shot(alice, screenshots, "3-host-confirms-removal-desktop")
    alice.set_viewport_size(PHONE["viewport"])  # the host's panel on a phone
    assert fits_width(alice)
    shot(alice, screenshots, "3-host-confirms-removal-phone")
    alice.set_viewport_size(DESKTOP["viewport"])
    row.get_by_role("button", name="Remove bob").click()
    expect(row).to_contain_text("leaves after this hand")
    # Bob's page is told at once, and the table is gone for him.
    expect(bob.locator("#banner-text")).to_contain_text("The host has removed you from this game")
    expect(bob.locator("#conn")).to_have_text("This table doesn't exist.")
    expect(seat_box(alice, 4)).to_contain_text("leaving after this hand")
    shot(alice, screenshots, "4-host-removed-bob-desktop")
    wait_until(
        lambda: not TableMember.objects.filter(table=table, player=bob_user).exists(),
        "bob's membership revoked",
    )
    balance = User.objects.get(pk=bob_user.pk).balance
    hand = play_out(hand, bet_and_call)
    off_the_loop(lambda: broadcast.table_changed(table.pk))  # the moves were made here
    expect(seat_box(alice, 4)).not_to_contain_text("bob")
    expect(panel(alice)).to_contain_text("No one else is seated.")
    won = hand.results.get(player=bob_user).final_stack
    assert not Seat.objects.filter(table=table, player=bob_user).exists()
    assert User.objects.get(pk=bob_user.pk).balance == balance + won
    response = bob.goto(address)  # the table is gone for him
    assert response is not None and response.status == 404
    shot(bob, screenshots, "5-removed-friend-phone")

    # Then she closes the game, after saying she is sure.
    panel(alice).get_by_role("button", name="Close the game…").click()
    shot(alice, screenshots, "6-host-confirms-close-desktop")
    panel(alice).get_by_role("button", name="Close the game", exact=True).click()
    expect(alice.locator("#street")).to_have_text("The table is closed")
    # Nothing is left to run: the panel offers only to deal the game again.
    expect(panel(alice).locator("button")).to_have_count(0)
    expect(panel(alice).get_by_role("link")).to_have_text(["Deal it again…"])
    wait_until(lambda: not Table.objects.get(pk=table.pk).is_open, "the game closed")
    shot(alice, screenshots, "7-closed-desktop")
    assert seen == {"alice": [], "bob": []}

    LOOK_HERE.mkdir(parents=True, exist_ok=True)
    for picture in screenshots.glob("*.png"):
        shutil.copy(picture, LOOK_HERE / picture.name)


def test_the_invite_links_underscores_show(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    """An invite code may hold "_": the host's box for the link must draw it,
    not cut it off below the line so that it reads as a space."""
    alice = user_signup(username="alice", password=PASSWORD)
    Table.objects.filter(pk=table.pk).update(host=alice, invite_code="a_b")
    page = browser.new_context(**DESKTOP).new_page()
    start_session(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/tables/{table.pk}/")
    link = page.locator("#invite-link")
    expect(link).to_have_value(f"{live_server_url}/home/join/#a_b")
    shot(link, screenshots, "invite-link-desktop")
    drawn = {}
    for text in ("_" * 30, " " * 30):
        link.evaluate("(box, text) => { box.value = text; }", text)
        drawn[text] = link.screenshot()
    cut_off = drawn["_" * 30] == drawn[" " * 30]
    assert not cut_off, "the link's underscores were drawn as spaces"
