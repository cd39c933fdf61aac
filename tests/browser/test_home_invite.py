"""Home games in a real browser, first part: alice opens a dealer's-choice home
game from the lobby, copies its invite link; bob, not yet logged in, opens
the link, logs in and lands at the table, sits down and plays; carol, a
stranger in a third browser, finds it neither in the lobby nor at its
address. Desktop for alice, a 390×844 phone for bob.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables.models import Table, TableMember
from tests.browser.test_csp import refusals
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    fits_width,
    log_in,
    open_buy_in,
    seat_box,
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


def open_home_game(page: Page, base: str, screenshots: Path) -> None:
    page.goto(base + "/tables/")
    page.get_by_role("link", name="Open a home game").click()
    shot(page, screenshots, "0-form-desktop")  # as it starts: seed 003's game
    page.fill("#id_name", "Friday stud")
    page.select_option("#id_policy", "dealers_choice")
    for name in ("Seven-card stud", "Baseball", "Razz"):
        page.get_by_label(name, exact=True).check()
    page.select_option("#id_structure", "spread")
    for field, value in (("ante", "1"), ("bring_in", "2"), ("small_bet", "5"), ("big_bet", "20")):
        page.fill(f"#id_{field}", value)
    page.fill("#id_seats", "7")
    page.fill("#id_min_buy_in", "100")
    page.fill("#id_max_buy_in", "1000")
    page.get_by_role("button", name="Open the game").click()


def test_a_host_invites_a_friend_by_link_and_a_stranger_cannot_find_the_game(
    browser: Any, live_server_url: str, transactional_db: None, screenshots: Path
) -> None:
    for name in ("alice", "bob", "carol"):
        user_signup(username=name, password=PASSWORD)
    alice = browser.new_context(**DESKTOP).new_page()
    alice_refusals = refusals(alice)
    log_in(alice, live_server_url, "alice")
    open_home_game(alice, live_server_url, screenshots)
    expect(alice.locator("h1")).to_have_text("Friday stud")
    link = alice.locator("#invite-link").input_value()
    table = Table.objects.get(name="Friday stud")
    assert link.endswith("/home/join/#" + table.invite_code)
    shot(alice, screenshots, "1-host-desktop")

    # Carol, a stranger, finds it nowhere.
    carol = browser.new_context(**DESKTOP).new_page()
    log_in(carol, live_server_url, "carol")
    carol.goto(live_server_url + "/tables/")
    expect(carol.locator("#lobby")).not_to_contain_text("Friday stud")
    expect(carol.locator("#home-games")).not_to_contain_text("Friday stud")
    response = carol.goto(f"{live_server_url}/tables/{table.pk}/")
    assert response is not None and response.status == 404
    # A forged link is told the same as a table that doesn't exist.
    carol.goto(live_server_url + "/home/join/#forged-code-0000000000000000000000000000000")
    expect(carol.locator("#home-join-status")).to_have_text("There is no such table.")
    assert not TableMember.objects.filter(player__username="carol").exists()

    # Bob opens the link on his phone, logs in, and comes back to the table.
    bob = browser.new_context(**PHONE).new_page()
    bob_refusals = refusals(bob)
    bob.goto(link)
    expect(bob.locator("#home-join-status")).to_have_text("You are invited to a home game.")
    assert "#" not in bob.url  # the code left the address bar
    shot(bob, screenshots, "2-invited-phone")
    bob.locator("#home-join-login").get_by_role("link", name="log in").click()
    bob.fill("#id_username", "bob")
    bob.fill("#id_password", PASSWORD)
    bob.locator("form button[type=submit]").click()
    expect(bob.locator("h1")).to_have_text("Friday stud")
    assert fits_width(bob)
    expect(bob.locator("#invite")).to_have_count(0)  # the link is the host's to share

    # Both sit down: alice's call begins the first hand.
    open_buy_in(alice, 1)
    buy_in(alice, 300)
    open_buy_in(bob, 4)
    buy_in(bob, 300)
    expect(alice.locator(".call-panel")).to_be_visible()
    shot(alice, screenshots, "3-host-calls-desktop")
    alice.get_by_role("button", name="Baseball").click()
    expect(seat_box(bob, 4)).to_be_visible()
    expect(bob.locator(".room-stakes")).to_contain_text("Baseball")
    shot(bob, screenshots, "4-friend-phone")
    wait_until(lambda: table.hands.exists(), "the called hand")
    assert table.hands.get().variant == "baseball"

    carol.goto(live_server_url + "/tables/")
    expect(carol.locator("#lobby")).not_to_contain_text("Friday stud")
    assert alice_refusals == [] and bob_refusals == []
