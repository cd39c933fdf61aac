"""A finished hand replayed in real browsers, step by step, with its deck check.

Personas:
- alice, on a desktop browser: won nothing here; she mucked at the showdown,
  and sees bob's shown aces full;
- bob, on a phone: sees his own hand and alice's upcards, never her mucked
  down cards, and is not given the deck (it holds her unshown cards);
- carol, logged in but never dealt in: the hand is not hers to see.

The hand is dealt from a stacked deck in this process and played through the
services; the server's pages read it from the same database. What each page
shows at each step is compared with the engine's own state at that step.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_signup
from tables import services
from tables.models import Hand, RakeRule, Stakes, Table
from tables.rules import HandState
from tables.rules.cards import card_str
from tables.services import hands as hand_services
from tests.browser.test_table_play import (
    DESKTOP,
    PASSWORD,
    PHONE,
    fits_width,
    label,
    shot,
    start_session,
)
from tests.tables.conftest import bet_and_call, engine, play_out, player_to_act
from tests.tables.test_history_access import MUCK_DECK

try:
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

ALICE, BOB = 1, 0  # engine players: bob sits after the dealer, alice deals


@pytest.fixture
def last_move(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Hand:
    """Heads-up stud one move from its end: alice (seat 1) to call bob's last bet.

    Played on, bob (seat 2) shows aces full and alice mucks jack high.
    """
    stakes = Stakes.objects.create(
        name="Replay stud 5/10",
        variant="stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=100,
        max_buy_in=1000,
        action_seconds=120,  # no timeouts while a browser looks on
        rake=RakeRule.objects.create(name="5% cap 3", percent=5, cap=3),
    )
    table = Table.objects.create(name="Replay table", stakes=stakes)
    for name, seat in (("alice", 1), ("bob", 2), ("carol", None)):
        user = user_signup(username=name, password=PASSWORD)
        if seat is not None:
            services.seat_take(table_id=table.pk, player_id=user.pk, seat_number=seat, buy_in=300)
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(MUCK_DECK))
    hand = services.hand_start(table_id=table.pk)
    while len(engine(hand).actions) < 9:
        state = engine(hand)
        kind, amount = bet_and_call(state)
        services.hand_act(
            hand_id=hand.pk,
            player_id=player_to_act(hand),
            kind=kind,
            amount=amount,
            version=hand.version,
        )
    state = engine(hand)
    assert state.to_act == ALICE and [o.kind for o in state.legal_actions()][:2] == ["fold", "call"]
    return hand


@pytest.fixture
def hand(last_move: Hand) -> Hand:
    """The same hand, played to its end: bob shows, alice mucks."""
    played = play_out(last_move, bet_and_call)
    assert played.state["shown"] == [True, False]
    return played


def states(hand: Hand) -> list[HandState]:
    """The engine's state at every step: after the deal, then after each action."""
    stored = HandState.from_dict(hand.state)
    state = HandState.new(stored.config, stored.starting_stacks, stored.deck)
    out = [HandState.from_dict(state.to_dict())]
    for action in stored.actions:
        state.apply(action)
        out.append(HandState.from_dict(state.to_dict()))
    return out


def seat_box(page: Page, seat: int) -> Any:
    return page.locator(f'#replay-felt .seat[data-seat="{seat}"]')


def expect_step(page: Page, state: HandState, viewer: int, seats: list[int]) -> None:
    """Every seat shows what the engine says this viewer saw at this point."""
    for p, seat in enumerate(seats):
        box = seat_box(page, seat)
        hole, up = state.downcards(p), state.upcards(p)
        if p == viewer or state.shown[p]:
            faces, backs = hole + up, 0  # down cards together, then the up cards
        else:
            faces, backs = up, len(hole)
        cards = box.locator(".card:not(.card-back)")
        expect(cards).to_have_count(len(faces))
        for i, card in enumerate(faces):
            expect(cards.nth(i)).to_have_attribute("aria-label", label(card))
        expect(box.locator(".card-back")).to_have_count(backs)
        expect(box.locator(".seat-stack")).to_have_text(f"{state.stacks[p]} chips")
        bet = page.locator(f'#replay-felt .seat-bet[data-seat="{seat}"]')
        if state.bets[p]:
            expect(bet).to_have_text(f"{state.bets[p]:,}")
        else:
            expect(bet).to_have_count(0)
    # Nor is a card still hidden at this step anywhere on the felt or in its lines
    # (the players' table below shows the end of the hand, shown cards included).
    for p in range(state.n):
        if p != viewer and not state.shown[p]:
            for card in state.downcards(p):
                expect(page.locator(f'#replay-felt [aria-label="{label(card)}"]')).to_have_count(0)
                expect(page.locator("#replay-lines")).not_to_contain_text(label(card))


def open_hand(page: Page, base: str, name: str, hand: Hand) -> None:
    start_session(page, base, name)
    page.goto(f"{base}/tables/")
    page.get_by_role("link", name="My hands").first.click()
    row = page.locator(f'#hands tr[data-hand="{hand.pk}"]')
    expect(row).to_have_count(1)
    row.locator("a.hand-link").click()
    expect(page).to_have_url(re.compile(rf"/hands/{hand.pk}/$"))
    # The URL changes when the page starts to arrive; its deferred scripts
    # (the replayer, the deck check's SHA-256) have run once it has loaded.
    page.wait_for_load_state("load")


def test_alice_steps_through_the_hand_with_keys_and_buttons(
    browser: Any, live_server_url: str, hand: Hand, screenshots: Path
) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    open_hand(page, live_server_url, "alice", hand)
    steps, seats = states(hand), [2, 1]
    position = page.locator("#replay-position")
    expect(position).to_have_text(f"Step 1 of {len(steps)}")
    expect(page.locator("#replay-prev")).to_be_disabled()
    for number, state in enumerate(steps):
        expect(position).to_have_text(f"Step {number + 1} of {len(steps)}")
        expect(page.locator("#replay-street")).to_have_text(
            f"Hand #1 · {'showdown' if state.finished else state.street_name}"
        )
        expect_step(page, state, ALICE, seats)
        # The step's lines of "the hand in words" are the ones lit up.
        lit = page.locator(".story-current")
        expect(lit.first).to_have_attribute("data-step", str(number))
        if number in (0, 4, len(steps) - 1):
            shot(page, screenshots, f"alice-step-{number + 1:02}")
        if number < len(steps) - 1:
            page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-next")).to_be_disabled()
    page.keyboard.press("ArrowRight")  # nothing past the end
    expect(position).to_have_text(f"Step {len(steps)} of {len(steps)}")

    # The showdown: bob's hand named, his win, the pot and its rake.
    bob = seat_box(page, 2)
    expect(bob.locator(".seat-hand")).to_have_text("full house, aces full of kings")
    expect(bob).to_have_class(re.compile(r"\bseat-winner\b"))
    expect(bob.locator(".seat-tags")).to_contain_text("wins 79")
    expect(page.locator("#replay-pots")).to_have_text("Pot: 82 (rake 3)")
    expect(page.locator("#replay-lines")).to_contain_text("alice mucks, unshown")

    # Back with the key and the button, to the start with Home, the end with End.
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Step {len(steps) - 1} of {len(steps)}")
    expect_step(page, steps[-2], ALICE, seats)
    page.get_by_role("button", name="Step back").click()
    expect_step(page, steps[-3], ALICE, seats)
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Step 1 of {len(steps)}")
    expect_step(page, steps[0], ALICE, seats)
    page.keyboard.press("End")
    expect_step(page, steps[-1], ALICE, seats)
    page.get_by_role("button", name="First step").click()
    page.get_by_role("button", name="Step forward").click()
    expect(position).to_have_text(f"Step 2 of {len(steps)}")
    # A line of the hand in words jumps to its step.
    page.get_by_role("link", name="bob bets 5").click()
    expect(position).to_have_text(f"Step 4 of {len(steps)}")
    expect_step(page, steps[3], ALICE, seats)
    shot(page, screenshots, "alice-jumped-to-4th-street")
    # The address names the step, so a reload (or a shared link) opens at it.
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"#step-5$"))
    page.reload()
    expect(position).to_have_text(f"Step 5 of {len(steps)}")
    expect_step(page, steps[4], ALICE, seats)


def test_the_deck_check_recomputes_the_hash_in_the_browser(
    browser: Any, live_server_url: str, hand: Hand, screenshots: Path
) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    open_hand(page, live_server_url, "alice", hand)
    # Our SHA-256 agrees with Python's, across the padding's edge cases.
    for text in ("", "abc", "a" * 55, "a" * 56, "a" * 64, "K♦ 10♥", "x" * 1000):
        assert page.evaluate("t => window.cardroomSha256(t)", text) == (
            hashlib.sha256(text.encode()).hexdigest()
        )
    deck = " ".join(map(card_str, hand.deck))
    expect(page.locator("#deck-cards")).to_have_text(deck)
    page.get_by_role("button", name="Check it now").click()
    result = page.locator("#deck-check-result")
    expect(result).to_contain_text("It matches.")
    expect(result.locator("code")).to_have_text(hand.deck_commitment)
    page.locator("#deck").scroll_into_view_if_needed()
    shot(page, screenshots, "alice-deck-matches")
    # Swap two cards on the page: the same button now finds another hash.
    page.evaluate(
        """() => {
          const node = document.getElementById("deck-cards");
          const cards = node.textContent.trim().split(" ");
          [cards[0], cards[1]] = [cards[1], cards[0]];
          node.textContent = cards.join(" ");
        }"""
    )
    page.get_by_role("button", name="Check it now").click()
    expect(result).to_contain_text("It does not match!")
    swapped = deck.split(" ")
    swapped[0], swapped[1] = swapped[1], swapped[0]
    digest = hashlib.sha256(f"{hand.deck_salt}:{' '.join(swapped)}".encode()).hexdigest()
    expect(result.locator("code")).to_have_text(digest)
    shot(page, screenshots, "alice-deck-tampered")


def test_bob_on_a_phone_never_sees_alices_mucked_cards_nor_the_deck(
    browser: Any, live_server_url: str, hand: Hand, screenshots: Path
) -> None:
    page = browser.new_context(**PHONE).new_page()
    open_hand(page, live_server_url, "bob", hand)
    steps = states(hand)
    page.keyboard.press("End")
    expect_step(page, steps[-1], BOB, [2, 1])
    html = page.content()
    for card in ("3d", "4h", "8c"):
        assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", html), card
    expect(page.locator("#deck-withheld")).to_contain_text("the down cards of alice")
    expect(page.locator("#deck-cards")).to_have_count(0)
    assert fits_width(page), "bob's phone page scrolls sideways"
    shot(page, screenshots, "bob-phone-showdown")
    page.goto(f"{live_server_url}/hands/")
    shot(page, screenshots, "bob-phone-my-hands")


def test_the_table_page_links_its_players_to_the_hand_just_played(
    browser: Any, live_server_url: str, last_move: Hand, screenshots: Path
) -> None:
    hand = last_move
    alice = browser.new_context(**DESKTOP).new_page()
    start_session(alice, live_server_url, "alice")
    carol = browser.new_context(**DESKTOP).new_page()
    start_session(carol, live_server_url, "carol")
    for page in (alice, carol):
        page.goto(f"{live_server_url}/tables/{hand.table_id}/")
        expect(page.locator("#street")).to_have_text("Hand #1 · 7th street")
    # alice makes the last move at the table; the hand ends and its log links to it.
    alice.locator("#actions .action-call").click()
    review = alice.locator("#log .log-review")
    expect(review).to_have_attribute("href", f"/hands/{hand.pk}/")
    expect(alice.locator("#last-hand-number")).to_have_text("#1")
    expect(alice.locator("#last-hand-link")).to_have_attribute("href", f"/hands/{hand.pk}/")
    shot(alice, screenshots, "alice-table-links")
    # carol watched without being dealt in: no link, and the page would be a 404.
    expect(carol.locator("#last-hand-number")).to_have_text("#1")
    expect(carol.locator("#last-hand-link")).to_be_hidden()
    expect(carol.locator("#log .log-result")).to_have_count(1)
    expect(carol.locator("#log .log-review")).to_have_count(0)
    response = carol.goto(f"{live_server_url}/hands/{hand.pk}/")
    assert response is not None and response.status == 404
    review.click()
    expect(alice.locator("h1")).to_have_text("Hand #1 at Replay table")
