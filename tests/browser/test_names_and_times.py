"""Long names and local times in real browsers, on a desktop and a phone.

Personas:
- "l" × 150, whose account is from before usernames were limited (signup
  took 150 characters then): every page that names them cuts the name short
  with an ellipsis, keeps it whole in a title, and stays as wide as the screen;
- bob, the other player of their hand, with a short name.

Both browsers are in Kolkata (UTC+5:30) while the server writes UTC: the hand
started at 22:45:10 UTC on 1 March, which is 04:15:10 on 2 March there, and
the chat line was said at 22:45:30 UTC.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import ChatLine, Hand, Table
from tests.browser.test_table_play import DESKTOP, PASSWORD, PHONE, fits_width, shot, start_session
from tests.tables.test_history_access import play_hand, showdown

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

LONG = "l" * 150
ZONE = "Asia/Kolkata"
STARTED = datetime.datetime(2026, 3, 1, 22, 45, 10, tzinfo=datetime.UTC)
ENDED = STARTED + datetime.timedelta(seconds=70)
SAID = STARTED + datetime.timedelta(seconds=20)
# Chromium's ICU may still call Kolkata by its old name.
ZONE_NAMES = ("Asia/Kolkata", "Asia/Calcutta")


def header_is_one_line(page: Page) -> bool:
    """Whether every item the header shows shares one row: a band of height
    that crosses them all."""
    return page.evaluate(
        """() => {
          const boxes = [...document.querySelectorAll('.site-name, .site-nav > *')]
            .map((node) => node.getBoundingClientRect())
            .filter((box) => box.width > 0);
          return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
        }"""
    )


def expect_cut_short(page: Page, selector: str) -> None:
    """Wait until the element ``selector`` finds shows less than its text (an
    ellipsis): the page may still be drawing it anew from a later message."""
    page.wait_for_function(
        """(selector) => {
          const node = document.querySelector(selector);
          return node !== null && node.scrollWidth > node.clientWidth;
        }""",
        arg=selector,
        timeout=10_000,
    )


@pytest.fixture
def played(transactional_db: None, table: Table) -> Hand:
    """The long-named player and bob play one hand to a showdown; both show.
    The long-named player says "gl" in the chat."""
    long = user_signup(username=LONG, password=PASSWORD)
    bob = user_signup(username="bob", password=PASSWORD)
    for number, player in enumerate((long, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    hand = play_hand(table, showdown)
    Hand.objects.filter(pk=hand.pk).update(started_at=STARTED, ended_at=ENDED)
    line = services.chat_post(table_id=table.pk, player_id=long.pk, text="gl")
    ChatLine.objects.filter(pk=line["id"]).update(sent_at=SAID)
    return hand


def open_as_long(browser: Any, base: str, device: dict[str, Any]) -> Page:
    page = browser.new_context(**device, timezone_id=ZONE).new_page()
    start_session(page, base, LONG)
    page.goto(f"{base}/tables/")
    return page


def test_a_long_name_is_cut_short_and_never_widens_a_page(
    browser: Any, live_server_url: str, played: Hand, screenshots: Path
) -> None:
    hand = played
    for device_name, device in (("desktop", DESKTOP), ("phone", PHONE)):
        page = open_as_long(browser, live_server_url, device)
        expect_cut_short(page, ".site-header .player-name")
        player = page.locator(".site-header .player")
        expect(player).to_have_attribute("title", f"{LONG}: your profile")

        page.goto(f"{live_server_url}/tables/")
        expect(page.locator("#lobby-status")).to_contain_text("Live")
        expect(page.locator("#lobby tr.lobby-seated")).to_have_count(1)
        shot(page, screenshots, f"{device_name}-1-lobby")
        assert fits_width(page), "the lobby"

        page.goto(f"{live_server_url}/tables/{hand.table_id}/")
        expect(page.locator("#last-hand-number")).to_have_text("#1")
        expect(page.locator("#chat li")).to_have_count(1)
        for place in ("#last-hand .last-name", "#felt .seat-name", "#chat .chat-from"):
            named = f'{place}[title="{LONG}"]'  # the whole name in its title
            expect(page.locator(named)).to_have_count(1)
            expect_cut_short(page, named)
        expect(page.locator("#log")).to_contain_text("Seat 1 (" + "l" * 23 + "…)")
        shot(page, screenshots, f"{device_name}-2-table")
        assert fits_width(page), "the table page"

        page.goto(f"{live_server_url}/hands/{hand.pk}/")
        expect(page.locator(f'#replay-felt .seat-name[title="{LONG}"]')).to_have_count(1)
        expect_cut_short(page, f'#players .name-cut[title="{LONG}"]')
        shot(page, screenshots, f"{device_name}-3-hand")
        assert fits_width(page), "the hand page"

        page.goto(f"{live_server_url}/hands/")
        shot(page, screenshots, f"{device_name}-4-my-hands")
        assert fits_width(page), "My hands"
        controls = page.locator("#hand-filters :is(select, input:not([type=hidden]), button)")
        heights = controls.evaluate_all("all => all.map(c => c.getBoundingClientRect().height)")
        assert len(heights) > 2 and len(set(heights)) == 1, f"the filters' heights: {heights}"
        if device is PHONE:
            assert header_is_one_line(page)


def test_times_are_shown_in_the_browsers_time_zone(
    browser: Any, live_server_url: str, played: Hand, screenshots: Path
) -> None:
    hand = played
    page = open_as_long(browser, live_server_url, DESKTOP)

    page.goto(f"{live_server_url}/hands/{hand.pk}/")
    times = page.locator(".hand-head time")
    expect(times.nth(0)).to_have_text("2026-03-02 04:15:10")
    expect(times.nth(1)).to_have_text("04:16:20")
    assert page.locator(".hand-head [data-time-zone]").inner_text() in ZONE_NAMES
    assert times.nth(0).get_attribute("title").startswith("2026-03-02 04:15:10 (Asia/")
    shot(page, screenshots, "1-hand")
    # The hand's download writes its times in the browser's zone too.
    href = page.locator(".hand-links a", has_text="text").get_attribute("href")
    assert href is not None and "tz=Asia%2F" in href
    download = page.request.get(href)  # the script made it whole: scheme, host and all
    assert download.ok and " - 2026/03/02 4:15:10 " in download.text()

    page.goto(f"{live_server_url}/hands/")
    expect(page.locator(f'#hands tr[data-hand="{hand.pk}"] time')).to_have_text("2026-03-02 04:15")
    assert page.locator("#hands th [data-time-zone]").inner_text() in ZONE_NAMES

    page.goto(f"{live_server_url}/tables/{hand.table_id}/")
    expect(page.locator("#chat .chat-time")).to_have_text("04:15")
    shot(page, screenshots, "2-chat")
