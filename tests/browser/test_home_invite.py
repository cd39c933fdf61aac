"""A home game night in real browsers, from the opening to the settle-up.

Alice (desktop) opens a dealer's-choice home game from the lobby, in which
she approves each seat, and copies its invite link. Carol, a stranger in a
third browser, finds it neither in the lobby, nor at its address, nor by a
forged link. Bob (a 390×844 phone) opens the link before logging in, logs in
and lands at the table. Alice sits and pauses the deal; bob asks for a seat
and she approves it; she adds a bot, which the house's bot process plays.
She resumes, and they play hands of two different games, each called by its
dealer. Then she closes the game, and both see the same final books: the
chip ledger's figures, who pays whom included.
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from accounts.services import user_signup
from tables.models import Hand, HomeBot, Seat, Table, TableMember
from tables.selectors.home_ledger import home_books
from tables.selectors.snapshots import books_payload
from tests.browser.test_bet_size import engine_now
from tests.browser.test_csp import refusals
from tests.browser.test_mixed_tables import calling, dealt
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    buy_in,
    fits_width,
    latest_hand,
    open_buy_in,
    seat_box,
    shot,
    start_session,
    wait_until,
)
from tests.tables.test_home_games import NOT_FOUND_SAID

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# Where the lead looks at this test's screenshots, besides the usual folder.
LOOK_HERE = Path("/tmp/shots-home-night")
GAMES = {"stud": "Seven-card stud", "baseball": "Baseball", "razz": "Razz"}
# Hands dealt before two different games have been: every dealer after the
# first calls a game unlike the last, and the bot (at random) calls at most
# one hand in two.
MOST_HANDS = 3


def open_home_game(page: Page, base: str, screenshots: Path) -> None:
    page.goto(base + "/tables/")
    page.get_by_role("link", name="Open a home game").click()
    shot(page, screenshots, "0-form-desktop")  # as it starts: seed 003's game
    page.fill("#id_name", "Friday stud")
    page.select_option("#id_policy", "dealers_choice")
    for box in page.locator("input[name=games]").all():
        box.uncheck()  # the form starts with seed 003's list
    for name in GAMES.values():
        page.get_by_label(name, exact=True).check()
    page.select_option("#id_structure", "spread")
    for field, value in (("ante", "1"), ("bring_in", "2"), ("small_bet", "5"), ("big_bet", "20")):
        page.fill(f"#id_{field}", value)
    page.fill("#id_seats", "7")
    page.fill("#id_min_buy_in", "100")
    page.fill("#id_max_buy_in", "1000")
    page.get_by_label("I approve each seat").check()
    page.get_by_role("button", name="Open the game").click()


def host_panel(page: Page) -> Any:
    return page.locator("#host-panel")


def play_hand(table: Table, pages: dict[int, Page]) -> Hand:
    """The latest hand played to its end: the friends check and call (C) on
    their pages until one faces a bet, and folds it (F); the bot plays itself."""
    while not (state := engine_now(table)).finished:
        seat, turn = seat_to_act(table), state.turn
        assert seat is not None, "a hand of these games waits on a decision"
        page = pages.get(seat)
        if page is not None:
            expect(page.locator("#actions .action").first).to_be_visible()
            fold = page.locator("#actions .action-fold").count() > 0
            page.keyboard.press("f" if fold else "c")
        wait_until(functools.partial(moved_on, table, turn), "a move", seconds=30)
    hand = latest_hand(table)
    assert hand is not None
    return hand


def moved_on(table: Table, turn: int) -> bool:
    state = engine_now(table)
    return state.turn > turn or state.finished


def call_seat(table: Table) -> int | None:
    table.refresh_from_db(fields=["call_seat"])
    return table.call_seat


def call_and_play(table: Table, pages: dict[int, Page], number: int, last: str | None) -> Hand:
    """Hand ``number``: its dealer calls a game (a friend one unlike ``last``,
    on their panel; the bot its own), and it is played to its end."""
    seat = wait_until(lambda: call_seat(table), "the dealer's call")
    page = pages.get(seat)
    if page is not None:
        choice = next(code for code in GAMES if code != last)
        panel = page.locator(".call-panel")
        expect(panel).to_be_visible()
        panel.get_by_role("button", name=GAMES[choice]).click()
    hand = dealt(table, number)
    if page is not None:
        assert hand.variant == choice
    for viewer in pages.values():
        expect(viewer.locator(".room-stakes")).to_contain_text(GAMES[hand.variant])
    return play_hand(table, pages)


def test_a_home_game_night_from_the_invite_to_the_settle_up(
    browser: Any, live_server_url: str, house_bots: None, screenshots: Path
) -> None:
    for name in ("alice", "bob", "carol"):
        user_signup(username=name, password=PASSWORD)
    alice = browser.new_context(**DESKTOP).new_page()
    seen = {"alice": refusals(alice)}
    start_session(alice, live_server_url, "alice")
    open_home_game(alice, live_server_url, screenshots)
    expect(alice.locator("h1")).to_have_text("Friday stud")
    link = alice.locator("#invite-link").input_value()
    table = Table.objects.get(name="Friday stud")
    assert table.seat_approval and link.endswith("/home/join/#" + table.invite_code)
    address = f"{live_server_url}/tables/{table.pk}/"

    # Carol, a stranger, finds it nowhere.
    carol = browser.new_context(**DESKTOP).new_page()
    start_session(carol, live_server_url, "carol")
    carol.goto(live_server_url + "/tables/")
    expect(carol.locator("#lobby")).not_to_contain_text("Friday stud")
    expect(carol.locator("#home-games")).not_to_contain_text("Friday stud")
    response = carol.goto(address)
    assert response is not None and response.status == 404
    # A forged link is told the same as a table that doesn't exist.
    carol.goto(live_server_url + "/home/join/#forged-code-0000000000000000000000000000000")
    expect(carol.locator("#home-join-status")).to_have_text(NOT_FOUND_SAID)
    assert not TableMember.objects.filter(player__username="carol").exists()

    # Bob opens the link on his phone, logs in, and comes back to the table.
    bob = browser.new_context(**PHONE).new_page()
    seen["bob"] = refusals(bob)
    bob.goto(link)
    expect(bob.locator("#home-join-status")).to_have_text("You are invited to a home game.")
    assert "#" not in bob.url  # the code left the address bar
    shot(bob, screenshots, "1-invited-phone")
    bob.locator("#home-join-login").get_by_role("link", name="log in").click()
    bob.fill("#id_username", "bob")
    bob.fill("#id_password", PASSWORD)
    bob.locator("form button[type=submit]").click()
    expect(bob.locator("h1")).to_have_text("Friday stud")
    expect(bob.locator("#invite")).to_have_count(0)  # the link is the host's to share

    # Alice sits (the host asks nobody) and pauses the deal.
    open_buy_in(alice, 1)
    buy_in(alice, 300)
    expect(seat_box(alice, 1)).to_contain_text("alice")
    host_panel(alice).get_by_role("button", name="Pause the deal").click()
    expect(alice.locator("#home-status")).to_contain_text("You paused the game")

    # Bob asks for seat 4; alice approves.
    seat_box(bob, 4).get_by_role("button", name="Ask for seat").click()
    expect(bob.locator("#seat-ask")).to_be_visible()
    bob.fill("#seat-ask-amount", "300")
    bob.locator("#seat-ask-submit").click()
    expect(bob.locator("#seat-request")).to_contain_text(
        "You asked for seat 4 with 300 chips: waiting for the host, alice, to approve it."
    )
    assert not Seat.objects.filter(table=table, player__username="bob").exists()
    request = alice.locator('#seat-requests .seat-request-row[data-player="bob"]')
    expect(request).to_contain_text("bob asks for seat 4 with 300 chips")
    shot(alice, screenshots, "2-host-sees-request-desktop")
    shot(bob, screenshots, "2-friend-asks-phone")
    request.get_by_role("button", name="Approve").click()
    expect(seat_box(bob, 4)).to_contain_text("bob")
    expect(bob.locator("#home-status")).to_contain_text("Paused by the host, alice")

    # She adds a bot: the house's bot process sits it down.
    alice.locator("#home-bots").get_by_role("button", name="Add a bot").click()
    bot = wait_until(lambda: HomeBot.objects.filter(table=table).first(), "the bot added")
    bot_seat = wait_until(
        lambda: Seat.objects.filter(table=table, player_id=bot.player_id).first(), "the bot seated"
    )
    for page in (alice, bob):
        expect(seat_box(page, bot_seat.number)).to_contain_text("bot")
    assert not Hand.objects.filter(table=table).exists()  # paused: nothing dealt
    assert fits_width(bob)
    shot(alice, screenshots, "3-host-with-a-bot-desktop")
    shot(bob, screenshots, "3-friend-paused-phone")

    # She resumes: hands of two games, each called by its dealer.
    host_panel(alice).get_by_role("button", name="Resume the deal").click()
    pages = {1: alice, 4: bob}
    variants: list[str] = []
    for number in range(1, MOST_HANDS + 1):
        hand = call_and_play(table, pages, number, variants[-1] if variants else None)
        variants.append(hand.variant)
        if len(set(variants)) == 2:
            break
    assert len(set(variants)) == 2, variants
    # Before the next deal (the table waits a few seconds), she pauses, then
    # closes: once her page shows the hand over, as she would, so that her
    # click doesn't land while the end of the hand moves the page under it.
    expect(alice.locator("#last-hand")).to_contain_text(f"Last hand #{hand.number}")
    host_panel(alice).get_by_role("button", name="Pause the deal").click()
    expect(alice.locator("#home-status")).to_contain_text("You paused the game")
    assert not calling(table, 1) and latest_hand(table).number == len(variants)  # type: ignore[union-attr]
    shot(bob, screenshots, "4-friend-after-the-hands-phone")
    # Her lobby, open in another tab, shows the game as it goes (lobby.js).
    lobby = browser.new_context(**DESKTOP).new_page()
    start_session(lobby, live_server_url, "alice")
    lobby.goto(live_server_url + "/tables/")
    expect(lobby.locator("#home-games")).to_contain_text("you host it")
    # It says the game last dealt, not the first of its list.
    last_game = GAMES[variants[-1]]
    expect(lobby.locator("#home-games")).to_contain_text(f"Dealer’s choice · {last_game}")
    host_panel(alice).get_by_role("button", name="Close the game…").click()
    host_panel(alice).get_by_role("button", name="Close the game", exact=True).click()
    wait_until(lambda: not Seat.objects.filter(table=table).exists(), "every seat cashed out")
    expect(alice.locator("#invite")).to_be_hidden()  # nobody new comes in now

    # Both see the same final books, which are the chip ledger's.
    books = books_payload(home_books(table.pk))
    transfers = [f"{t['payer']} pays {t['payee']} {t['amount']:,}" for t in books["transfers"]]
    assert transfers, "someone won: the friends folded to every bet"
    for page in (alice, bob):
        expect(page.locator("#ledger-heading")).to_have_text("The final books")
        expect(page.locator("#ledger-transfers li")).to_have_text(transfers)
        expect(page.locator("#ledger-rows th")).to_have_text([p["name"] for p in books["players"]])
        expect(page.locator("#ledger-totals")).to_contain_text(f"{books['totals']['bought_in']:,}")
    call_command("audit_chips")  # raises CommandError when a chip is unaccounted for
    alice.locator("#ledger").scroll_into_view_if_needed()
    bob.locator("#ledger").scroll_into_view_if_needed()
    assert fits_width(bob)
    shot(alice, screenshots, "5-final-books-desktop")
    shot(bob, screenshots, "5-final-books-phone")

    # The lobby keeps the closed game for its settle-up.
    bob.goto(live_server_url + "/tables/")
    expect(bob.locator("#home-games")).to_contain_text("Friday stud · closed: the settle-up")
    # So does its link; carol, who never came in, is told it has closed.
    bob.goto(link)
    expect(bob.locator("#ledger-heading")).to_have_text("The final books")
    carol.goto(link)
    expect(carol.locator("#home-join-status")).to_have_text(
        "This home game has closed; ask its host for the link to their next one."
    )
    assert not TableMember.objects.filter(player__username="carol").exists()

    # Next Friday alice deals it again, for the same friends: bob finds it
    # in his lobby with no new link; carol still can't.
    expect(host_panel(alice).get_by_role("link", name="Deal it again…")).to_be_visible()
    # Her lobby offers it too, drawn again live once the game closed.
    games = lobby.locator("#home-games")
    expect(games).to_contain_text("Friday stud · closed: the settle-up · deal it again")
    games.get_by_role("link", name="deal it again").click()
    expect(lobby.locator("h1")).to_have_text("Deal Friday stud again")
    expect(lobby.locator("#id_name")).to_have_value("Friday stud")
    shot(lobby, screenshots, "6-deal-again-desktop")
    lobby.locator("#home-new button[type=submit]").click()
    expect(lobby.locator("h1")).to_have_text("Friday stud (2)")
    expect(lobby.locator("#invite-link")).not_to_have_value(link)
    bob.goto(live_server_url + "/tables/")
    expect(bob.locator("#home-games")).to_contain_text("Friday stud (2)")
    bob.locator("#home-games").get_by_role("link", name="Friday stud (2)").click()
    expect(bob.locator("h1")).to_have_text("Friday stud (2)")
    carol.goto(live_server_url + "/tables/")
    expect(carol.locator("#home-games")).not_to_contain_text("Friday stud")
    assert seen == {"alice": [], "bob": []}

    LOOK_HERE.mkdir(parents=True, exist_ok=True)
    for picture in screenshots.glob("*.png"):
        shutil.copy(picture, LOOK_HERE / picture.name)
