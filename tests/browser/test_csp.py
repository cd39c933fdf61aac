"""The Content-Security-Policy breaks no page: nothing is refused in a real browser.

Chromium reports every script, style, image or connection a page's policy
refuses as a console error; alice, logged in, and staff browse the pages with
the most script (the lobby, a live table, the reports) and none may appear.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables.models import Stakes, Table
from tests.browser.test_table_play import DESKTOP, PASSWORD, log_in

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser


def refusals(page: Any) -> list[str]:
    """The policy's refusals on ``page`` from now on, as Chromium words them."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


def test_the_players_pages_run_under_the_policy(
    browser: Any, live_server_url: str, transactional_db: None
) -> None:
    stakes = Stakes.objects.create(
        name="Stud 5/10", small_bet=5, big_bet=10, min_buy_in=100, max_buy_in=1000
    )
    table = Table.objects.create(name="Policy table", stakes=stakes)
    user_signup(username="alice", password=PASSWORD)
    page = browser.new_context(**DESKTOP).new_page()
    refused = refusals(page)

    log_in(page, live_server_url, "alice")
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby-status")).to_contain_text("Live")  # its websocket is open
    page.goto(f"{live_server_url}/tables/{table.pk}/")
    expect(page.locator("#street")).to_have_text("Waiting for players")
    page.goto(live_server_url + "/accounts/password-reset/")

    assert refused == []


def test_the_admin_and_reports_run_under_the_policy(
    browser: Any, live_server_url: str, transactional_db: None
) -> None:
    User.objects.create_superuser(username="boss", password=PASSWORD)
    page = browser.new_context(**DESKTOP).new_page()
    refused = refusals(page)

    page.goto(live_server_url + "/admin/login/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    for path in ("/admin/rake-report/", "/admin/activity-report/", "/admin/tables/stakes/add/"):
        page.goto(live_server_url + path)
        expect(page.locator("#content")).to_be_visible()

    assert refused == []
