"""Tables whose game changes hand by hand, in real browsers: dealer's choice,
where each dealer calls the next game from a panel on their page, and a
rotation, whose mix line counts down to the next game.

Personas:
- alice, on a desktop browser, sits in seat 1 and deals (and so calls) first;
- bob, on a phone, sits in seat 2 and calls the second hand's game by tapping it.

Each page is read as a person would read it: the stakes line, the "How this
game plays" panel, the wild-card line, the log and the felt's centre must
follow the hand being dealt. The hands are read from the database only to
know whose turn it is and which game was dealt.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Hand, Table, TableGame
from tables.rules.games import how_it_plays
from tests.browser.test_bet_size import engine_now
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

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# The pause between hands is 8 seconds (conftest): a next hand, or a call, comes within this.
NEXT_SECONDS = 30
SIZES = "5/10, ante 1, bring-in 2"  # the browser stakes' sizes, which every game of a list shares


# ------------------------------------------------------------------ helpers


def mixed_table(table: Table, name: str, policy: str, variants: list[str], **options: Any) -> Table:
    """The browser tests' table made a mixed one, dealing ``variants`` with its sizes."""
    table.name, table.policy = name, policy
    for option, value in options.items():
        setattr(table, option, value)
    table.save()
    for position, variant in enumerate(variants):
        TableGame.objects.create(table=table, position=position, variant=variant)
    return table


def sit_both(browser: Any, base: str, table: Table) -> dict[int, Page]:
    """Alice (seat 1, desktop) and bob (seat 2, phone) log in and sit down
    through their pages; their pages by seat."""
    pages = {}
    for seat, name, viewport in ((1, "alice", DESKTOP), (2, "bob", PHONE)):
        user_signup(username=name, password=PASSWORD)
        page = browser.new_context(**viewport).new_page()
        start_session(page, base, name)
        page.goto(f"{base}/tables/{table.pk}/")
        open_buy_in(page, seat)
        buy_in(page, 300)
        expect(page.locator("#buy-in")).to_be_hidden()
        pages[seat] = page
    return pages


def play_hand(table: Table, pages: dict[int, Page], *, showdown: bool) -> Hand:
    """The latest hand played to its end on the pages, by keys: everyone checks
    and calls (C) to the showdown, or the first to face a bet folds (F)."""
    while not (state := engine_now(table)).finished:
        seat, turn = seat_to_act(table), state.turn
        assert seat is not None, "a hand of these games waits on a decision"
        page = pages[seat]
        expect(page.locator("#actions .action").first).to_be_visible()
        fold = not showdown and page.locator("#actions .action-fold").count() > 0
        page.keyboard.press("f" if fold else "c")
        wait_until(
            lambda turn=turn: engine_now(table).turn > turn or engine_now(table).finished, "a move"
        )
    hand = latest_hand(table)
    assert hand is not None
    return hand


def game_words(table: Table, variant: str) -> tuple[str, list[str]]:
    """The game of the table's list dealing ``variant``: its words and how it plays."""
    config = table.games.get(variant=variant).game_config(table.stakes)
    return config.describe(), list(how_it_plays(config))


def expect_game(page: Page, table: Table, variant: str) -> None:
    """The page's stakes line and rules panel say the game ``variant`` of the table's list."""
    words, rules = game_words(table, variant)
    expect(page.locator("#game-words")).to_have_text(words)
    expect(page.locator("#how-it-plays p")).to_have_text(rules)


def calling(table: Table, seat: int) -> bool:
    table.refresh_from_db(fields=["call_seat"])
    return table.call_seat == seat


def dealt(table: Table, number: int) -> Hand:
    return wait_until(
        lambda: (hand := latest_hand(table)) is not None and hand.number == number and hand,
        f"hand #{number}",
    )


def expect_choosing(watcher: Page, dealer: Page, name: str, seat: int) -> None:
    """The call is under way: everyone sees who is choosing, on the clock; only
    the dealer has the panel."""
    expect(watcher.locator("#street")).to_have_text("Dealer’s choice")
    expect(watcher.locator("#turn")).to_have_text(f"{name} is choosing the game")
    expect(watcher.locator("#timer-text")).to_have_text(re.compile(rf"^{name}’s time: \d+s$"))
    expect(seat_box(watcher, seat).locator(".seat-timer")).to_have_count(1)
    expect(watcher.locator(".call-panel")).to_have_count(0)
    expect(dealer.locator("#turn")).to_have_text("Your call: choose the game")
    expect(dealer.locator("#timer-text")).to_have_text(re.compile(r"^Your time: \d+s$"))
    for page in (watcher, dealer):
        expect(page.locator("#log li").last).to_have_text(f"{name} is choosing the game")


# -------------------------------------------------------------------- tests


def test_two_dealers_call_two_games_and_the_felt_follows_each_hand(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    table = mixed_table(
        table, "Home game", Table.Policy.DEALERS_CHOICE, ["stud", "razz", "baseball"]
    )
    # Before anyone sits, the page says the list's first game and that the dealer calls.
    visitor = browser.new_context(**DESKTOP).new_page()
    visitor.goto(f"{live_server_url}/tables/{table.pk}/")
    expect_game(visitor, table, "stud")
    expect(visitor.locator("#mix")).to_have_text("Dealer’s choice")
    visitor.context.close()

    pages = sit_both(browser, live_server_url, table)
    alice, bob = pages[1], pages[2]

    # Hand #1: alice deals, so she calls, by key: 2 is Razz, the list's second.
    wait_until(lambda: calling(table, 1), "alice's call")
    expect_choosing(bob, alice, "alice", 1)
    panel = alice.locator(".call-panel")
    expect(panel.locator(".call-name")).to_have_text(["Seven-card stud", "Razz", "Baseball"])
    expect(panel.locator(".call-sizes")).to_have_text([SIZES] * 3)
    expect(panel.locator("kbd")).to_have_text(["1", "2", "3"])
    expect(alice.locator("#keys-call")).to_be_visible()
    shot(alice, screenshots, "1-alice-calls-desktop")
    shot(bob, screenshots, "1-bob-waits-phone")
    alice.keyboard.press("2")

    hand = dealt(table, 1)
    assert hand.variant == "razz" and hand.call == {"by": "alice", "how": "called"}
    razz, _ = game_words(table, "razz")
    for page in pages.values():
        expect(page.locator("#game-notice")).to_have_text("alice calls Razz")
        expect_game(page, table, "razz")
        expect(page.locator("#mix")).to_have_text("Dealer’s choice · Razz")
        expect(page.locator("#log .log-game")).to_contain_text([f"alice calls {razz}"])
        expect(page.locator("#wilds")).to_be_hidden()
        expect(page.locator(".call-panel")).to_have_count(0)
    shot(bob, screenshots, "2-razz-dealt-phone")
    play_hand(table, pages, showdown=True)
    for page in pages.values():
        expect(page.locator("#street")).to_have_text("Hand #1 · showdown")

    # Hand #2: bob deals; he taps Baseball on his phone, and its wild cards are said.
    wait_until(lambda: calling(table, 2), "bob's call", NEXT_SECONDS)
    expect_choosing(alice, bob, "bob", 2)
    # A visitor who comes in during the call sees it too, on the clock, with the
    # button already at the dealer's seat.
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(f"{live_server_url}/tables/{table.pk}/")
    expect_game(watcher, table, "razz")  # the last game dealt, until the call deals another
    expect(watcher.locator("#turn")).to_have_text("bob is choosing the game")
    expect(watcher.locator("#timer-text")).to_have_text(re.compile(r"^bob’s time: \d+s$"))
    expect(watcher.locator("#log li").last).to_have_text("bob is choosing the game")
    expect(watcher.locator(".call-panel")).to_have_count(0)
    for page in (alice, bob, watcher):
        expect(seat_box(page, 2).locator(".seat-tags")).to_contain_text("dealer")
        expect(seat_box(page, 1)).not_to_contain_text("dealer")
    expect(bob.locator(".call-game")).to_have_count(3)
    assert fits_width(bob), "the call panel pushes the phone's page sideways"
    bob.locator(".call-panel").scroll_into_view_if_needed()
    shot(bob, screenshots, "3-bob-calls-phone")
    shot(alice, screenshots, "3-alice-waits-desktop")
    bob.locator(".call-game", has_text="Baseball").tap()

    hand = dealt(table, 2)
    assert hand.variant == "baseball" and hand.call == {"by": "bob", "how": "called"}
    baseball, _ = game_words(table, "baseball")
    for page in pages.values():
        expect(page.locator("#game-notice")).to_have_text("bob calls Baseball")
        expect_game(page, table, "baseball")
        expect(page.locator("#mix")).to_have_text("Dealer’s choice · Baseball")
        expect(page.locator("#log .log-game")).to_contain_text([f"bob calls {baseball}"])
        expect(page.locator("#wilds")).to_have_text("Wild: threes and nines")
    shot(alice, screenshots, "4-baseball-dealt-desktop")
    play_hand(table, pages, showdown=True)
    for page in pages.values():
        expect(page.locator("#street")).to_have_text("Hand #2 · showdown")

    # Hand #3: alice's call again, but made meanwhile elsewhere (another tab,
    # say), so her page still offers the games. Her call by the keyboard is
    # refused, said in the banner, and the page catches up with the hand dealt.
    wait_until(lambda: calling(table, 1), "alice's second call", NEXT_SECONDS)
    expect(alice.locator(".call-panel")).to_be_visible()
    # Baseball's wild cards were the last hand's: the next may be any game.
    expect(alice.locator("#street")).to_have_text("Dealer’s choice")
    expect(alice.locator("#wilds")).to_be_hidden()
    services.game_call(table_id=table.pk, player_id=User.objects.get(username="alice").pk, game=0)
    alice.locator(".call-game").first.focus()
    alice.keyboard.press("Enter")
    expect(alice.locator("#banner-text")).to_have_text(
        "Hand #3 is already dealt; there is no game to call."
    )
    expect(alice.locator(".call-panel")).to_have_count(0)
    expect_game(alice, table, "stud")
    expect(alice.locator("#wilds")).to_be_hidden()
    stud, _ = game_words(table, "stud")
    expect(alice.locator("#log .log-game").last).to_have_text(f"alice calls {stud}")


def test_a_rotation_counts_down_its_hands_and_changes_game_on_the_felt(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    table = mixed_table(table, "Stud mix", Table.Policy.ROTATION, ["stud", "razz"], rotate_hands=2)
    pages = sit_both(browser, live_server_url, table)

    dealt(table, 1)
    for page in pages.values():
        expect_game(page, table, "stud")
        expect(page.locator("#mix")).to_have_text("Seven-card stud · 1 more hand, then Razz")
    play_hand(table, pages, showdown=False)

    dealt(table, 2)
    for page in pages.values():
        expect(page.locator("#street")).to_have_text(re.compile(r"^Hand #2 · "))
        expect(page.locator("#mix")).to_have_text("Seven-card stud · Razz next")
        expect_game(page, table, "stud")
        expect(page.locator("#game-notice")).to_be_hidden()
    shot(pages[1], screenshots, "1-last-stud-hand-desktop")
    play_hand(table, pages, showdown=False)

    hand = wait_until(
        lambda: (h := latest_hand(table)) is not None and h.number == 3 and h,
        "hand #3",
        NEXT_SECONDS,
    )
    assert hand.variant == "razz"
    razz, _ = game_words(table, "razz")
    stud, _ = game_words(table, "stud")
    for page in pages.values():
        expect(page.locator("#game-notice")).to_have_text("Now playing Razz")
        expect(page.locator(".room-stakes")).to_have_class(re.compile(r"\broom-stakes-new\b"))
        expect(page.locator("#mix")).to_have_text("Razz · 1 more hand, then Seven-card stud")
        expect_game(page, table, "razz")
        # The first hand the page logged said its game; the change is said once.
        expect(page.locator("#log .log-game")).to_have_text(
            [f"The game is {stud}", f"The game is now {razz}"]
        )
    shot(pages[1], screenshots, "2-razz-now-desktop")
    shot(pages[2], screenshots, "3-razz-now-phone")
    assert fits_width(pages[2])
    # The notice goes after a few seconds; the stakes line stays.
    for page in pages.values():
        expect(page.locator("#game-notice")).to_be_hidden(timeout=10_000)
        expect(page.locator("#game-words")).to_have_text(razz)
