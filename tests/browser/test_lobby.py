"""The lobby in a real browser: its columns, its order, sorting that survives
live updates, a desktop's rows two lines tall at most, and a phone's screen.

A visitor, not logged in, compares tables before choosing one: three tables
with different buy-ins, one of them full with a player waiting. On a phone,
a player whose name is as long as signup once allowed (150 characters) finds
the lobby as wide as the screen, and the table they sit down at marked.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import broadcast, services
from tables.models import RakeRule, Stakes, Table
from tests.browser.test_names_and_times import (
    LONG,
    expect_cut_short,
    header_is_one_line,
)
from tests.browser.test_table_layout import off_the_loop
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    fits_width,
    open_buy_in,
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


@pytest.fixture
def tables(transactional_db: None) -> dict[str, Table]:
    """Cheap (buy-in 40–400, 2 seats, full, bob waiting), Middle (100–1,000), Big (1,000–5,000)."""
    rake = RakeRule.objects.create(name="5% cap 3", percent=5, cap=3)
    made = {}
    for name, low, high, seats in (
        ("Cheap", 40, 400, 2),
        ("Middle", 100, 1000, 8),
        ("Big", 1000, 5000, 8),
    ):
        stakes = Stakes.objects.create(
            name=f"{name} stakes", variant="stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
            min_buy_in=low, max_buy_in=high, seats=seats, rake=rake if name != "Big" else None,
        )  # fmt: skip
        made[name] = Table.objects.create(name=name, stakes=stakes)
    users = {name: user_signup(username=name, password=PASSWORD) for name in ("al", "cy", "bob")}
    for number, name in ((1, "al"), (2, "cy")):
        services.seat_take(
            table_id=made["Cheap"].pk, player_id=users[name].pk, seat_number=number, buy_in=100
        )
    services.waiting_join(table_id=made["Cheap"].pk, player_id=users["bob"].pk)
    return made


def names(page: Page) -> list[str]:
    """The tables' names in the lobby's order (without the mark of the player's own)."""
    cells = page.locator("#lobby tbody td.lobby-name")
    return cells.evaluate_all("(cells) => cells.map((cell) => cell.firstChild.textContent.trim())")


def test_a_visitor_compares_tables_and_sorts_them(
    browser: Any, live_server_url: str, tables: dict[str, Table], screenshots: Path
) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    # The links the page came with, held before the socket's first rows arrive.
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => {"
        " window.servedLinks = Array.from(document.querySelectorAll('#lobby a')); })"
    )
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby-status")).to_contain_text("Live")
    # The socket's first rows are the rows the page came with: no link was
    # swapped under a visitor's pointer (a click on a replaced link is lost).
    assert page.evaluate(
        "window.servedLinks.length === 6 && window.servedLinks.every((a) => a.isConnected)"
    )
    cheap = page.locator(f'#lobby tr[data-table="{tables["Cheap"].pk}"] td')
    expect(cheap.nth(2)).to_have_text("40–400")
    expect(cheap.nth(3)).to_have_text("5% up to 3, from 4th street")
    expect(cheap.nth(4)).to_have_text("2 / 2")
    expect(cheap.nth(5)).to_have_text("1")
    big = page.locator(f'#lobby tr[data-table="{tables["Big"].pk}"] td')
    expect(big.nth(2)).to_have_text("1,000–5,000")
    expect(big.nth(3)).to_have_text("none")
    expect(big.nth(4)).to_have_text("0 / 8 · 8 free")

    heading = page.locator("#lobby th", has_text="Buy-in")
    heading.get_by_role("button").click()
    expect(heading).to_have_attribute("aria-sort", "ascending")
    assert names(page) == ["Cheap", "Middle", "Big"]
    heading.get_by_role("button").click()
    expect(heading).to_have_attribute("aria-sort", "descending")
    assert names(page) == ["Big", "Middle", "Cheap"]
    shot(page, screenshots, "lobby-sorted-by-buy-in")

    # A live update (dee sits down at Middle in her own browser) keeps the
    # order, and swaps only what changed: Big's row and Middle's links stay
    # the elements they were.
    rows = ", ".join(f'#lobby tr[data-table="{tables[n].pk}"] a' for n in ("Big", "Middle"))
    page.evaluate("(rows) => { window.kept = Array.from(document.querySelectorAll(rows)); }", rows)
    user_signup(username="dee", password=PASSWORD)
    dee = browser.new_context(**DESKTOP).new_page()
    start_session(dee, live_server_url, "dee")
    dee.goto(f"{live_server_url}/tables/{tables['Middle'].pk}/")
    open_buy_in(dee, 1)
    buy_in(dee, 100)
    middle = page.locator(f'#lobby tr[data-table="{tables["Middle"].pk}"] td')
    expect(middle.nth(4)).to_have_text("1 / 8 · 7 free")
    assert names(page) == ["Big", "Middle", "Cheap"]
    assert page.evaluate("window.kept.length === 4 && window.kept.every((a) => a.isConnected)")
    page.locator("#lobby th", has_text="Waiting").get_by_role("button").click()
    assert names(page)[-1] == "Cheap"  # the only table with anyone waiting, ascending


def test_on_a_desktop_each_tables_stakes_and_rake_take_two_lines_at_most(
    browser: Any, live_server_url: str, tables: dict[str, Table], screenshots: Path
) -> None:
    """The longest game's name among them, so that a desktop's lobby stays a
    list to scan: each row two lines tall at most, not four or five."""
    long = Stakes.objects.create(
        name="Hi-lo stakes", variant="stud8", ante=1, bring_in=2, small_bet=5, big_bet=10,
        min_buy_in=100, max_buy_in=1000, rake=tables["Cheap"].stakes.rake,
    )  # fmt: skip
    Table.objects.create(name="Demo Seven-card Stud Hi-Lo 1", stakes=long)
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby tbody tr")).to_have_count(4)
    lines = page.evaluate(
        """() => [...document.querySelectorAll('#lobby tbody td')].map(cell => {
            const text = [...cell.childNodes].find(node => node.nodeType === Node.TEXT_NODE
                && node.textContent.trim()) || cell;
            const range = document.createRange();
            range.selectNodeContents(text);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            return [cell.textContent.trim().slice(0, 40), tops.size];
        })"""
    )
    shot(page, screenshots, "lobby-desktop")
    assert [cell for cell in lines if cell[1] > 2] == [], lines


def test_on_a_phone_the_lobby_fits_the_screen_and_marks_the_players_table(
    browser: Any,
    live_server_url: str,
    tables: dict[str, Table],
    server_channel_layer: None,
    screenshots: Path,
) -> None:
    player = user_signup(username=LONG, password=PASSWORD)  # as signup allowed it once
    page = browser.new_context(**PHONE).new_page()
    start_session(page, live_server_url, LONG)
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby-status")).to_contain_text("Live")
    # The busy table first, then the empty ones by name (all three are stud).
    assert names(page) == ["Cheap", "Big", "Middle"]
    assert fits_width(page)
    assert header_is_one_line(page)
    expect_cut_short(page, ".site-header .player-name")
    shot(page, screenshots, "phone-lobby")

    # The player sits down at Middle elsewhere, and the lobby hears of it as
    # every viewer does: the live rows mark it, and it moves up among the
    # tables with players.
    middle_id = tables["Middle"].pk
    services.seat_take(table_id=middle_id, player_id=player.pk, seat_number=1, buy_in=100)
    off_the_loop(lambda: broadcast.table_changed(middle_id))
    middle = page.locator(f'#lobby tr[data-table="{middle_id}"]')
    expect(middle).to_have_class("lobby-seated")
    expect(middle.locator(".lobby-you")).to_have_text("You’re seated")
    expect(middle.get_by_role("link", name="Your seat")).to_have_attribute(
        "href", f"/tables/{middle_id}/"
    )
    assert names(page) == ["Cheap", "Middle", "Big"]
    expect(page.locator("#lobby tr.lobby-seated")).to_have_count(1)
    assert fits_width(page)
    shot(page, screenshots, "phone-lobby-seated")
