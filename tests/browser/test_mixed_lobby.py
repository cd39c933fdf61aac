"""Mixed tables in a real browser: the lobby shows a rotation's game and its
counter, both moving on as hands are played; it filters by kind of table;
and an operator sees the list of games on the table's admin page.

A visitor watches the lobby on a desktop and on a phone while alice and bob
play at the rotation (their hands are played here, through the services);
the boss, a superuser, opens the table in the admin.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import broadcast, services
from tables.models import Hand, Stakes, Table, TableGame
from tests.browser.test_admin_pages import admin_page, misplaced_selects
from tests.browser.test_csp import refusals
from tests.browser.test_table_layout import off_the_loop
from tests.browser.test_table_play import DESKTOP, PASSWORD, PHONE, fits_width, shot
from tests.tables.test_mixed_games import deal_and_finish

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

STUD8 = "Seven-card stud hi-lo, eight or better"


@pytest.fixture
def rotation(table: Table) -> Table:
    """The browser table (stud 5/10) as a rotation of razz, stud hi-lo and stud,
    two hands each; alice and bob sit in seats 1 and 2."""
    table.policy, table.rotate_hands = Table.Policy.ROTATION, 2
    table.name = "Stud mix"
    table.save(update_fields=["policy", "rotate_hands", "name"])
    for position, variant in enumerate(["razz", "stud8", "stud"]):
        TableGame.objects.create(table=table, position=position, variant=variant)
    for seat, name in ((1, "alice"), (2, "bob")):
        player = user_signup(username=name, password=PASSWORD)
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=seat, buy_in=300)
    return table


@pytest.fixture
def others(rotation: Table) -> dict[str, Table]:
    """A fixed stud table and a dealer's-choice table beside the rotation."""
    fixed = Table.objects.create(name="Plain stud", stakes=rotation.stakes)
    home = Stakes.objects.create(
        name="Home spread 5-20", variant="stud", structure="spread", ante=1, bring_in=2,
        small_bet=5, big_bet=20, min_buy_in=100, max_buy_in=1000, seats=7,
    )  # fmt: skip
    choice = Table.objects.create(
        name="Dealer's choice", stakes=home, policy=Table.Policy.DEALERS_CHOICE
    )
    for position, variant in enumerate(["stud", "baseball", "queens", "roll_your_own"]):
        TableGame.objects.create(table=choice, position=position, variant=variant)
    return {"fixed": fixed, "choice": choice}


def play_a_hand(table: Table) -> Hand:
    """Deal a hand at ``table`` and play it out here, then tell the lobby, as the
    server's own services would (off Playwright's loop)."""
    hand = off_the_loop(partial(deal_and_finish, table))
    off_the_loop(lambda: broadcast.table_changed(table.pk))
    return hand


def game_cell(page: Page, table: Table) -> Any:
    return page.locator(f'#lobby tr[data-table="{table.pk}"] td.lobby-game')


def test_the_lobby_follows_a_rotations_game_and_counter(
    browser: Any,
    live_server_url: str,
    rotation: Table,
    others: dict[str, Table],
    server_channel_layer: None,
    screenshots: Path,
) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby-status")).to_contain_text("Live")
    cell = game_cell(page, rotation)
    # Before any hand: the list's first game, its count and the game after it.
    expect(cell).to_contain_text("Razz, 5/10, ante 1, bring-in 2")
    expect(cell.locator(".lobby-mix")).to_have_text(f"Razz first · 2 hands, then {STUD8}")
    expect(game_cell(page, others["choice"]).locator(".lobby-mix")).to_have_text("Dealer’s choice")
    expect(game_cell(page, others["fixed"]).locator(".lobby-mix")).to_have_count(0)

    assert play_a_hand(rotation).variant == "razz"
    expect(cell.locator(".lobby-mix")).to_have_text(f"Razz · 1 more hand, then {STUD8}")
    shot(page, screenshots, "lobby-razz-1-more")

    play_a_hand(rotation)
    expect(cell.locator(".lobby-mix")).to_have_text(f"Razz · {STUD8} next")

    assert play_a_hand(rotation).variant == "stud8"
    expect(cell).to_contain_text(f"{STUD8}, 5/10, ante 1, bring-in 2")
    expect(cell.locator(".lobby-mix")).to_have_text(f"{STUD8} · 1 more hand, then Seven-card stud")
    expect(cell.locator(".lobby-mix")).to_have_attribute(
        "title", f"Games: Razz, {STUD8}, Seven-card stud"
    )
    shot(page, screenshots, "lobby-stud8-1-more")

    # A phone shows the same, as wide as its screen.
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server_url + "/tables/")
    expect(phone.locator("#lobby-status")).to_contain_text("Live")
    expect(game_cell(phone, rotation).locator(".lobby-mix")).to_have_text(
        f"{STUD8} · 1 more hand, then Seven-card stud"
    )
    assert fits_width(phone)
    shot(phone, screenshots, "phone-lobby")


def test_the_lobby_filters_by_kind_of_table(
    browser: Any,
    live_server_url: str,
    rotation: Table,
    others: dict[str, Table],
    screenshots: Path,
) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(live_server_url + "/tables/")
    expect(page.locator("#lobby-status")).to_contain_text("Live")
    rows = page.locator("#lobby tbody tr")
    expect(rows).to_have_count(3)

    page.locator("#lobby-filters select[name=games]").select_option("rotation")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".lobby-name")).to_have_text("Stud mix")
    assert page.url.endswith("?games=rotation")

    page.locator("#lobby-filters select[name=games]").select_option("dealers_choice")
    expect(rows.first.locator(".lobby-name")).to_have_text("Dealer's choice")
    # The game filter finds it by a game of its list, Baseball.
    page.locator("#lobby-filters select[name=variant]").select_option("baseball")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".lobby-name")).to_have_text("Dealer's choice")
    shot(page, screenshots, "lobby-dealers-choice-baseball")

    # A reload keeps the filters, on the page's first rows as well.
    page.reload()
    expect(page.locator("#lobby-filters select[name=games]")).to_have_value("dealers_choice")
    expect(rows).to_have_count(1)

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live_server_url + "/tables/")
    expect(phone.locator("#lobby-filters select[name=games]")).to_be_visible()
    assert fits_width(phone)
    shot(phone, screenshots, "phone-lobby-filters")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_operator_sees_the_tables_games_and_a_refusal_on_its_field(
    browser: Any,
    live_server_url: str,
    rotation: Table,
    screenshots: Path,
    size: dict[str, Any],
) -> None:
    off_the_loop(partial(deal_and_finish, rotation))
    page = admin_page(browser, live_server_url, size)
    refused = refusals(page)
    page.goto(f"{live_server_url}/admin/tables/table/{rotation.pk}/change/")
    games = page.locator("#games-group")
    expect(games).to_contain_text("Games of a rotation or dealer's choice")
    expect(page.locator("#id_games-0-variant")).to_have_value("razz")
    expect(page.locator(".field-dealing")).to_contain_text(
        f"Razz, 5/10, ante 1, bring-in 2. Razz · 1 more hand, then {STUD8}"
    )
    misplaced = misplaced_selects(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    shot(page, screenshots, "admin-table-games")
    assert misplaced == []
    assert width <= size["viewport"]["width"] or size is DESKTOP

    # A game for six at most on the spare row, and a second game at place 0: refused.
    page.locator("#id_games-3-position").fill("0")
    page.locator("#id_games-3-variant").select_option("roll_your_own")
    page.locator("input[name=_save]").click()
    expect(page.locator("#games-group .errorlist")).to_contain_text(
        "Razz has place 0: choose another"
    )
    shot(page, screenshots, "admin-table-games-refused")
    assert list(rotation.games.values_list("variant", flat=True)) == ["razz", "stud8", "stud"]

    # (Saving is left to tests/tables/test_mixed_lobby_admin.py: the admin's log
    # of a change names its model by a content type id, which this long-lived
    # server keeps from before the database was emptied for this test.)
    assert refused == []
