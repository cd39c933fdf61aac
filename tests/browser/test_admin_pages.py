"""The operators' admin pages in a real browser: the stakes form keeps its long
choices in their column, a table's page closes and reopens it, the pages
changed for them run under the Content-Security-Policy, and the reports' total
rows line up with their columns.

The boss is a superuser, signed in at the admin's own login page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Table
from tests.browser.test_csp import refusals
from tests.browser.test_table_play import DESKTOP, PASSWORD, PHONE, shot
from tests.tables.conftest import bet_and_call, play_out

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser


def admin_page(browser: Any, base: str, size: dict[str, Any]) -> Any:
    User.objects.create_superuser(username="boss", password=PASSWORD)
    page = browser.new_context(**size).new_page()
    page.goto(base + "/admin/login/")
    page.fill("#id_username", "boss")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#user-tools")).to_contain_text("boss")
    return page


def cut_lists(page: Any) -> list[str]:
    """The ids of the page's tabular inlines (a table's games, seats…) wider
    than their box that can't be scrolled sideways: cut at the screen's edge."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.inline-group .tabular fieldset.module')]
            .filter(box => box.scrollWidth > box.clientWidth + 1
                && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX))
            .map(box => box.closest('.inline-group').id)"""
    )


def misplaced_selects(page: Any) -> list[str]:
    """The ids of the form's selects that pass the right edge of their fieldset,
    or crowd out their label (squeezed to nothing, or overlapped)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('fieldset .flex-container > select')]
            .filter(select => {
                const box = select.getBoundingClientRect();
                const column = select.closest('fieldset').getBoundingClientRect();
                const label = select.parentElement.querySelector('label').getBoundingClientRect();
                const apart = label.right <= box.left + 1 || label.bottom <= box.top + 1;
                const inside = label.left >= column.left - 0.5 && box.right <= column.right + 0.5;
                return !inside || label.width < 40 || !apart;
            })
            .map(select => select.id)"""
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_stakes_form_keeps_every_choice_in_its_column(
    browser: Any, live_server_url: str, table: Table, screenshots: Path, size: dict[str, Any]
) -> None:
    page = admin_page(browser, live_server_url, size)
    page.goto(f"{live_server_url}/admin/tables/stakes/{table.stakes_id}/change/")
    page.locator("#id_timeout_policy").select_option("all_in")  # the longest: a sentence

    # Before any scrolling, which may slide a box that overflows back into view.
    misplaced = misplaced_selects(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    shot(
        page.locator("fieldset", has=page.locator("#id_timeout_policy")),
        screenshots,
        "stakes-clock",
    )
    assert misplaced == []
    assert width <= size["viewport"]["width"]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_operator_closes_and_reopens_a_table_from_its_page(
    browser: Any, live_server_url: str, table: Table, screenshots: Path, size: dict[str, Any]
) -> None:
    page = admin_page(browser, live_server_url, size)
    page.goto(f"{live_server_url}/admin/tables/table/{table.pk}/change/")
    expect(page.locator("#open-close h2")).to_have_text("This table is open")
    assert cut_lists(page) == []

    page.get_by_role("button", name="Close table").click()

    expect(page.locator(".messagelist")).to_contain_text("Browser table is closed")
    expect(page.locator("#open-close h2")).to_have_text("This table is closed")
    shot(page, screenshots, "closed", full_page=False)
    assert not Table.objects.get(pk=table.pk).is_open

    page.get_by_role("button", name="Reopen table").click()

    expect(page.locator(".messagelist")).to_contain_text("Browser table is open")
    shot(page, screenshots, "reopened", full_page=False)
    assert Table.objects.get(pk=table.pk).is_open


def test_the_operators_pages_run_under_the_policy(
    browser: Any, live_server_url: str, table: Table
) -> None:
    page = admin_page(browser, live_server_url, DESKTOP)
    refused = refusals(page)

    for path in (
        "/admin/",
        "/admin/chip-audit/",
        f"/admin/tables/table/{table.pk}/change/",
        f"/admin/tables/stakes/{table.stakes_id}/change/",
        "/admin/tables/rakerule/",
    ):
        page.goto(live_server_url + path)
        expect(page.locator("#content")).to_be_visible()

    assert refused == []


def test_a_reports_total_row_lines_up_with_the_rows_above(
    browser: Any, live_server_url: str, table: Table
) -> None:
    """Each report's total row: its figures in the body's colour, on its
    label's line, right-aligned with their column's figures, and ruled under
    every cell, not the label's alone."""
    for number, name in enumerate(("ann", "ben"), start=1):
        player = user_signup(username=name, password=PASSWORD)  # with its first chips
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=500)
    play_out(services.hand_start(table_id=table.pk), bet_and_call)
    page = admin_page(browser, live_server_url, DESKTOP)
    for path in ("/admin/rake-report/", "/admin/activity-report/"):
        page.goto(live_server_url + path)
        expect(page.locator(".report-grid tfoot").first).to_be_visible()
        skewed = page.evaluate(
            """() => [...document.querySelectorAll('.report-grid table:has(tfoot)')]
            .flatMap(table => {
                const [label, ...figures] = table.querySelectorAll('tfoot tr > *');
                const body = table.querySelector('tbody tr > td.num');
                const line = (cell) => getComputedStyle(cell).borderBottomWidth;
                const text = (cell) => {
                    const range = document.createRange();
                    range.selectNodeContents(cell);
                    return range.getBoundingClientRect();
                };
                const top = text(label).top;
                return figures.flatMap(cell => {
                    const problems = [];
                    if (Math.abs(text(cell).top - top) > 1) problems.push('not on the label line');
                    if (getComputedStyle(cell).color !== getComputedStyle(body).color)
                        problems.push('another colour');
                    if (line(cell) !== line(label)) problems.push('another rule');
                    const column = table.querySelector('tbody tr').cells[cell.cellIndex];
                    if (column && column.classList.contains('num')
                            && column.textContent.trim()
                            && Math.abs(text(cell).right - text(column).right) > 1)
                        problems.push('off its column');
                    return problems.map(p => `${table.id} column ${cell.cellIndex}: ${p}`);
                });
            })"""
        )
        assert skewed == [], path
