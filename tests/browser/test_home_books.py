"""A home game's books in a real browser: alice (the host, desktop) and bob (a
member, on a 390×844 phone) sit down on their pages and play a hand to the
showdown (its moves made through the services, as another process's would
be); both then see the same books, to the chip the chip ledger's, and
the same settle-up. Carol, a member who stands watching, sees no books but
may download them, as the players may.
"""

from __future__ import annotations

import csv
import io
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import Hand, Table, TableMember
from tables.rules import HandState
from tables.selectors.home_ledger import LedgerRow, home_ledger, settle_up
from tests.browser.test_csp import refusals
from tests.browser.test_table_layout import off_the_loop, passive, told
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    fits_width,
    latest_hand,
    open_buy_in,
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

BUY_INS = {"alice": 200, "bob": 300}


def at_the_table(browser: Any, base: str, table: Table, name: str, viewport: Any) -> Page:
    page = browser.new_context(**viewport).new_page()
    start_session(page, base, name)
    page.goto(f"{base}/tables/{table.pk}/")
    return page


def chips(n: int) -> str:
    return f"{n:,}"


def signed(n: int) -> str:
    """A net as the page shows it: "+12", "−12" (a minus sign), "0"."""
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "0"


def row_cells(row: LedgerRow) -> list[str]:
    figures = [row.bought_in, row.topped_up, row.cashed_out, row.on_table]
    return [row.name, *map(chips, figures), signed(row.net)]


def expect_books(page: Page, rows: list[LedgerRow], transfers: list[str]) -> None:
    """The page shows these players' figures, in order, and these transfers."""
    expect(page.locator("#ledger-live")).to_be_visible()
    expect(page.locator("#ledger-rows tr")).to_have_count(len(rows))
    for i, row in enumerate(rows):
        cells = page.locator("#ledger-rows tr").nth(i).locator("th, td")
        expect(cells).to_have_text(row_cells(row))
    expect(page.locator("#ledger-transfers li")).to_have_text(transfers)


def play_to_the_showdown(hand: Hand) -> None:
    """Everyone checks and calls to the end; each move reaches the pages."""
    while not (state := HandState.from_dict(hand.state)).finished:
        move = {
            "hand_id": hand.pk,
            "player_id": hand.seating["players"][state.to_act]["player"],
            "kind": passive(state),
            "version": hand.version,
        }
        off_the_loop(partial(told, hand.table_id, partial(services.hand_act, **move)))
        hand.refresh_from_db()


def downloaded(page: Page) -> list[list[str]]:
    with page.expect_download() as download:
        page.locator("#ledger").get_by_role("link", name="Download CSV").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text)))


def test_two_players_see_the_same_books_and_settle_up_and_download_them(
    browser: Any,
    live_server_url: str,
    table: Table,
    server_channel_layer: None,
    screenshots: Path,
) -> None:
    users = {
        name: user_signup(username=name, password=PASSWORD) for name in ("alice", "bob", "carol")
    }
    Table.objects.filter(pk=table.pk).update(host=users["alice"], name="Friday stud")
    for name in ("bob", "carol"):
        TableMember.objects.create(table=table, player=users[name])
    base = live_server_url
    alice = at_the_table(browser, base, table, "alice", DESKTOP)
    bob = at_the_table(browser, base, table, "bob", PHONE)
    carol = at_the_table(browser, base, table, "carol", DESKTOP)
    watching = {"alice": refusals(alice), "bob": refusals(bob)}

    # Standing, nobody gets the books live: the section says how to follow them.
    expect(alice.locator("#ledger-note")).to_be_visible()
    expect(alice.locator("#ledger-live")).to_be_hidden()

    pages = {1: alice, 2: bob}
    for (seat, page), name in zip(pages.items(), BUY_INS, strict=True):
        open_buy_in(page, seat)
        buy_in(page, BUY_INS[name])
        expect(page.locator("#buy-in")).to_be_hidden()
    seated = home_ledger(table.pk)
    for page in (alice, bob):
        expect_books(page, seated, ["Everyone is square."])

    play_to_the_showdown(wait_until(lambda: latest_hand(table), "the first hand"))
    rows = home_ledger(table.pk)  # the next hand's antes stay on the table: same figures
    nets = {row.username: row.net for row in rows}
    assert sum(nets.values()) == 0 and nets["alice"] != 0, nets
    [payment] = settle_up(rows)
    transfers = [f"{payment.payer} pays {payment.payee} {chips(payment.amount)}"]
    for page in (alice, bob):
        expect_books(page, rows, transfers)
        expect(page.locator("#ledger-totals th, #ledger-totals td")).to_have_text(
            ["Total", "500", "0", "0", "500", "0"]
        )
    alice.locator("#ledger").scroll_into_view_if_needed()
    shot(alice, screenshots, "1-books-desktop")
    bob.locator("#ledger").scroll_into_view_if_needed()
    shot(bob, screenshots, "2-books-phone")
    assert fits_width(bob)
    # On the phone every figure fits the screen, the nets too: nothing to scroll to.
    assert bob.locator(".books-scroll").evaluate("box => box.scrollWidth <= box.clientWidth")

    # Carol, standing, has no books on her page; the snapshots never sent her any.
    expect(carol.locator("#ledger-note")).to_be_visible()
    expect(carol.locator("#ledger-live")).to_be_hidden()
    shot(carol, screenshots, "3-standing-desktop")

    # The file: every player's row, the totals and who pays whom, for carol too.
    expected = [row_cells(row)[:1] + [row.username] for row in rows]
    for page in (bob, carol):
        got = downloaded(page)
        assert [line[:2] for line in got[1:3]] == expected
        assert [line[-1] for line in got[1:3]] == [str(row.net) for row in rows]
        assert got[-1] == [payment.payer, payment.payee, str(payment.amount)]
    assert watching == {"alice": [], "bob": []}
