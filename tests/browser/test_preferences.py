"""Card preferences in a real browser: alice picks a four-colour deck and large cards.

Bob keeps the usual two colours at the same table, so the preference is hers
alone; the colours are read from the page as the browser draws them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import Table
from tables.rules.cards import FULL_DECK, card_str
from tables.services import hands as hand_services
from tests.browser.test_table_play import DESKTOP, PASSWORD, seat_box, shot, start_session

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

BLUE, GREEN, RED = "rgb(21, 101, 192)", "rgb(46, 125, 50)", "rgb(198, 40, 40)"


def colour(page: Any, selector: str) -> str:
    return page.locator(selector).first.evaluate("node => getComputedStyle(node).color")


def test_a_four_colour_deck_and_large_cards_are_one_players_choice(
    browser: Any,
    live_server_url: str,
    table: Table,
    screenshots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    players = {name: user_signup(username=name, password=PASSWORD) for name in ("alice", "bob")}
    for number, name in ((1, "alice"), (2, "bob")):
        services.seat_take(
            table_id=table.pk, player_id=players[name].pk, seat_number=number, buy_in=200
        )
    # Diamonds and clubs dealt first, in turn: one player gets diamonds, the
    # other clubs, and alice sees both suits (her cards and bob's upcard).
    suits = {s: [c for c in FULL_DECK if card_str(c)[1] == s] for s in "dchs"}
    deck = [c for pair in zip(suits["d"], suits["c"], strict=True) for c in pair]
    deck += suits["h"] + suits["s"]
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(deck))
    services.hand_start(table_id=table.pk)

    alice = browser.new_context(**DESKTOP).new_page()
    start_session(alice, live_server_url, "alice")
    alice.goto(live_server_url + "/accounts/profile/")
    form = alice.locator("#card-preferences")
    form.get_by_label("four-colour deck").check()
    form.get_by_label("Card size").select_option("large")
    form.get_by_role("button", name="Save").click()
    expect(alice.locator(".message")).to_contain_text("Your table preferences are saved.")

    bob = browser.new_context(**DESKTOP).new_page()
    start_session(bob, live_server_url, "bob")
    for page in (alice, bob):
        page.goto(f"{live_server_url}/tables/{table.pk}/")
        expect(seat_box(page, 1).locator('.card[data-card$="d"]').first).to_be_visible()
    assert colour(alice, '#felt .card[data-card$="d"]') == BLUE
    assert colour(alice, '#felt .card[data-card$="c"]') == GREEN
    assert colour(bob, '#felt .card[data-card$="d"]') == RED
    # Each one's own up card, drawn the same way but for the preference.
    widths = [
        seat_box(page, seat).locator(".hand-up .card").first.bounding_box()["width"]
        for page, seat in ((alice, 1), (bob, 2))
    ]
    assert widths[0] > widths[1] * 1.2, widths  # alice's cards are the large ones
    shot(alice, screenshots, "alice-four-colour-large")
    shot(bob, screenshots, "bob-two-colour")
