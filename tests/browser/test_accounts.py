"""Signing up, the profile page and login lockouts in a real browser, on a
desktop and on a 390×844 phone.

Personas:
- dana (desktop) and erin (phone), newcomers: each first types a username far
  past the limit, and must be told so, not have it cut short unseen.
- alice and bob, friends who play from one home: every browser here reaches the
  server from 127.0.0.1, as friends behind one router do. Bob forgets his
  password and locks his own account; alice still logs in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from accounts.services import user_signup
from tests.browser.test_names_and_times import header_is_one_line
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    fits_width,
    log_in,
    shot,
    start_session,
)

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

TOO_LONG = "d" * 200
NEW_PASSWORD = "a-brand-new-felt-91"


def fill_signup(page: Page, username: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()


@pytest.mark.parametrize(("viewport", "username"), [(DESKTOP, "dana"), (PHONE, "erin")])
def test_a_username_past_the_limit_gets_a_clear_error_instead_of_being_cut(
    browser: Any,
    live_server_url: str,
    screenshots: Path,
    viewport: dict[str, Any],
    username: str,
) -> None:
    page = browser.new_context(**viewport).new_page()
    page.goto(live_server_url + "/accounts/signup/")
    page.fill("#id_username", TOO_LONG)
    # Nothing in the page cuts what was typed.
    assert len(page.input_value("#id_username")) == 200

    fill_signup(page, TOO_LONG)

    error = page.locator("#id_username_errors")
    expect(error).to_have_text("A username has at most 24 characters; this one has 200.")
    assert fits_width(page)
    shot(page, screenshots, f"signup-too-long-{username}")
    assert not User.objects.filter(username__startswith="ddd").exists()

    fill_signup(page, username)
    expect(page.locator(".message")).to_contain_text(f"Welcome, {username}!")
    expect(page.locator(".player-name")).to_have_text(username)


def assert_tick_boxes_sit_on_their_labels_line(page: Page) -> None:
    """Each tick box is before its label and centred on the label's line."""
    form = page.locator("#card-preferences")
    for name in ("four_colour_deck", "sounds", "animations"):
        box = form.locator(f"#id_{name}").bounding_box()
        label = form.locator(f'label[for="id_{name}"]').bounding_box()
        assert box["x"] + box["width"] <= label["x"], name
        box_middle, label_middle = box["y"] + box["height"] / 2, label["y"] + label["height"] / 2
        assert abs(box_middle - label_middle) <= 3, (name, box, label)
    expect(form).not_to_contain_text("(optional)")


@pytest.mark.parametrize(("viewport", "device"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_player_sets_their_name_and_password_on_the_profile(
    browser: Any,
    live_server_url: str,
    screenshots: Path,
    viewport: dict[str, Any],
    device: str,
) -> None:
    user_signup(username="alice", password=PASSWORD)
    other_browser = browser.new_context(**DESKTOP).new_page()
    log_in(other_browser, live_server_url, "alice")
    page = browser.new_context(**viewport).new_page()
    log_in(page, live_server_url, "alice")
    page.goto(live_server_url + "/accounts/profile/")
    assert_tick_boxes_sit_on_their_labels_line(page)
    assert fits_width(page)
    shot(page, screenshots, f"profile-{device}")

    name_form = page.locator("#display-name")
    name_form.get_by_label("Display name").fill("Queen of Razz")
    name_form.get_by_role("button", name="Save").click()
    expect(page.locator(".message")).to_have_text("Your display name is saved.")
    expect(page.locator(".player-name")).to_have_text("Queen of Razz")

    password_form = page.locator("#password-change")
    password_form.get_by_label("Old password").fill(PASSWORD)
    password_form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    password_form.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    password_form.get_by_role("button", name="Change my password").click()
    expect(page.locator(".message")).to_contain_text("Your password is changed.")
    expect(page.locator(".player-name")).to_have_text("Queen of Razz")  # still logged in
    shot(page, screenshots, f"profile-saved-{device}")

    # The browser that was logged in before the change is logged out.
    other_browser.goto(live_server_url + "/accounts/profile/")
    expect(other_browser.locator("h1")).to_have_text("Log in")
    assert User.objects.get(username="alice").check_password(NEW_PASSWORD)


@pytest.mark.parametrize(("viewport", "device"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_friend_locked_out_at_home_leaves_the_other_logging_in(
    browser: Any,
    live_server_url: str,
    screenshots: Path,
    viewport: dict[str, Any],
    device: str,
) -> None:
    for name in ("alice", "bob"):
        user_signup(username=name, password=PASSWORD)
    bob = browser.new_context(**viewport).new_page()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        bob.goto(live_server_url + "/accounts/login/")
        bob.fill("#id_username", "bob")
        bob.fill("#id_password", "what-was-it-again")
        bob.locator("form button[type=submit]").click()
    expect(bob.locator("h1")).to_have_text("Too many failed logins")
    expect(bob.locator("main")).to_contain_text(
        "Other accounts can still log in from your address."
    )
    assert fits_width(bob)
    shot(bob, screenshots, f"bob-locked-out-{device}")

    alice = browser.new_context(**viewport).new_page()
    log_in(alice, live_server_url, "alice")  # from the same address, 127.0.0.1

    expect(alice.locator(".player-name")).to_have_text("alice")
    shot(alice, screenshots, f"alice-logged-in-{device}")


def test_an_account_named_before_the_limit_has_a_profile_that_fits_a_phone(
    browser: Any, live_server_url: str, screenshots: Path
) -> None:
    """150 characters with no break in them: the profile shows the name whole, wrapped."""
    old_name = "o" * 150
    User.objects.create_user(username=old_name, password=PASSWORD)
    page = browser.new_context(**PHONE).new_page()
    log_in(page, live_server_url, old_name)

    page.goto(live_server_url + "/accounts/profile/")

    expect(page.locator("h1")).to_have_text(old_name)
    assert fits_width(page)
    shot(page, screenshots, "profile-old-long-name-phone")


def test_on_a_phone_the_menu_reaches_my_hands_the_admin_and_log_out(
    browser: Any, live_server_url: str, screenshots: Path
) -> None:
    """An operator on a phone: the header has room for the lobby and their
    name only, and every other link opens from its menu, which closes as a
    menu does. A desktop shows the links themselves and no menu."""
    operator = user_signup(username="olga", password=PASSWORD)
    User.objects.filter(pk=operator.pk).update(is_staff=True)
    desktop = browser.new_context(**DESKTOP).new_page()
    start_session(desktop, live_server_url, "olga")
    desktop.goto(live_server_url + "/tables/")
    header = desktop.locator(".site-header")
    for name in ("My hands", "Admin", "Log out"):
        expect(
            header.get_by_role("link", name=name).or_(header.get_by_role("button", name=name))
        ).to_be_visible()
    expect(desktop.locator(".nav-menu")).to_be_hidden()

    page = browser.new_context(**PHONE).new_page()
    start_session(page, live_server_url, "olga")
    page.goto(live_server_url + "/tables/")
    menu = page.locator(".nav-menu")
    items = menu.locator(".nav-menu-items")
    expect(menu).to_be_visible()
    expect(items).to_be_hidden()
    assert header_is_one_line(page)

    menu.locator("summary").click()
    expect(items).to_be_visible()
    names = items.locator("a, button").all_inner_texts()
    assert names == ["My hands", "Profile", "Admin", "Log out"]
    assert fits_width(page)
    shot(page, screenshots, "phone-menu-open")

    page.locator("main h1").click()  # a tap outside closes it
    expect(items).to_be_hidden()
    menu.locator("summary").click()
    page.keyboard.press("Escape")  # as does Escape
    expect(items).to_be_hidden()

    menu.locator("summary").click()
    items.get_by_role("link", name="My hands").click()
    expect(page).to_have_url(live_server_url + "/hands/")
    page.locator(".nav-menu summary").click()
    page.locator(".nav-menu").get_by_role("link", name="Admin").click()
    expect(page).to_have_url(live_server_url + "/admin/")
    page.goto(live_server_url + "/tables/")
    page.locator(".nav-menu summary").click()
    page.locator(".nav-menu").get_by_role("button", name="Log out").click()
    expect(page.locator(".site-header")).to_contain_text("Log in")
