"""Two people sign up and play a hand of stud in real browsers while a third watches.

Personas:
- alice, on a desktop browser: sees her own down cards face up, bob's face down.
- bob, on a phone-sized browser: the same from his side.
- a watcher, not logged in: sees every upcard and no down card until the showdown.

What each page shows is checked against the hand as the server stored it (the
engine's state in the database), never against the page's own arithmetic.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables.bot_accounts import session_cookie
from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.cards import card_str
from tables.rules.state import OVER
from tests.browser.conftest import NEXT_HAND_DELAY_SECONDS, TAKING_SCREENSHOTS
from tests.rules.stacking import stack_deck

try:
    from playwright.sync_api import Locator, Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    # The server may lag the database by a broadcast; pages get this long to catch up.
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

PASSWORD = "green-felt-and-7-cards"
# Pages ask for reduced motion, as a player's device may. A table page
# watching a game costs Chromium about three times the CPU with its cards'
# flight, chips' slides and gliding turn clock (12% of a core against 4),
# and the browser tests took 283 s instead of 323 s on two processes. The
# tests of that movement, and of the sounds that follow it, open their pages MOVING.
STILL = {"reduced_motion": "reduce"}
MOVING = {"reduced_motion": "no-preference"}
DESKTOP = {"viewport": {"width": 1280, "height": 900}, **STILL}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, **STILL}
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
VERBS = {
    "fold": "Fold",
    "check": "Check",
    "call": "Call",
    "bring_in": "Bring in",
    "complete": "Complete to",
    "bet": "Bet",
    "raise": "Raise to",
}


# ------------------------------------------------------------------ helpers


def label(card: int | str) -> str:
    """How the page names a card in its aria-label: 10♦ for Td."""
    code = card if isinstance(card, str) else card_str(card)
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def code(card: int) -> str:
    """The card as the protocol sends it: "Td"."""
    return card_str(card)


def expected_buttons(state: HandState) -> list[str]:
    """The action buttons' labels, straight from the engine's legal actions."""
    labels = []
    for option in state.legal_actions():
        verb = VERBS[option.kind]
        if option.kind in ("call", "bring_in"):
            labels.append(f"{verb} {option.min}")
        elif option.amounts:
            labels += [f"{verb} {amount}" for amount in option.amounts]
        else:
            labels.append(verb)
    return labels


def wait_until(check: Callable[[], Any], what: str, seconds: float = 15) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := check()):
        assert time.monotonic() < deadline, f"waited {seconds}s for {what}"
        time.sleep(0.05)
    return value


def latest_hand(table: Table) -> Hand | None:
    return table.hands.order_by("-number").first()


def seat_numbers(hand: Hand) -> list[int]:
    """The seat of each engine player, in engine order."""
    return [entry["seat"] for entry in hand.seating["players"]]


def record_frames(page: Page) -> list[str]:
    """Every websocket frame the page receives from now on, as text."""
    frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", on_socket)
    return frames


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator(".message")).to_contain_text(f"Welcome, {username}!")
    expect(page.locator(".player-name")).to_have_text(username)


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("form button[type=submit]").click()
    expect(page.locator(".player-name")).to_have_text(username)


def start_session(page: Page, base: str, username: str) -> None:
    """Log ``username`` in for the page's browser, as the login form would,
    without its pages: a new session on the server's database, in a cookie.

    For the tests of something else: each login through the form costs two
    page loads and a password hash. The tests of logging in use ``log_in``.
    """
    name, _, key = session_cookie(User.objects.get(username=username)).partition("=")
    cookie = {"name": name, "value": key, "url": base, "httpOnly": True, "sameSite": "Lax"}
    page.context.add_cookies([cookie])


def lobby_row(page: Page, table: Table) -> Any:
    return page.locator(f'#lobby tr[data-table="{table.pk}"]')


def seat_box(page: Page, seat: int) -> Any:
    return page.locator(f'#felt .seat[data-seat="{seat}"]')


def open_buy_in(page: Page, seat: int) -> None:
    seat_box(page, seat).get_by_role("button", name="Sit here").click()
    expect(page.locator("#buy-in")).to_be_visible()
    expect(page.locator("#buy-in-seat")).to_have_text(str(seat))


def buy_in(page: Page, chips: int) -> None:
    page.fill("#buy-in-amount", str(chips))
    page.locator("#buy-in-submit").click()


def expect_cards(page: Page, seat: int, labels: list[str], backs: int) -> None:
    """The seat shows exactly these face-up cards, in order, and this many backs."""
    box = seat_box(page, seat)
    faces = box.locator(".card[aria-label]")
    expect(faces).to_have_count(len(labels))
    for i, name in enumerate(labels):
        expect(faces.nth(i)).to_have_attribute("aria-label", name)
    expect(box.locator(".card-back")).to_have_count(backs)


def expect_hidden(page: Page, cards: list[int]) -> None:
    """None of these cards is anywhere on the page."""
    for card in cards:
        expect(page.locator(f'[aria-label="{label(card)}"]')).to_have_count(0)


def assert_frames_hide(frames: list[str], cards: list[int], who: str) -> None:
    for frame in frames:
        for card in cards:
            assert f'"{code(card)}"' not in frame, f"{who} received {code(card)}: {frame}"


def shot(target: Page | Locator, folder: Path, name: str, **options: Any) -> None:
    """``folder/name.png``: the whole page, unless ``options`` say otherwise,
    or the element a locator finds. None at all with BROWSER_SCREENSHOTS=off."""
    if not TAKING_SCREENSHOTS:
        return
    if isinstance(target, Page):
        options = {"full_page": True, **options}
    target.screenshot(path=folder / f"{name}.png", **options)


def stakes_line(page: Page) -> str:
    """The stakes line as the page shows it (what CSS hides is left out)."""
    return " ".join(page.locator(".room-stakes").inner_text().split())


def fits_width(page: Page) -> bool:
    """Whether the page is no wider than the screen. Not ``innerWidth``: a
    phone zooms out to show a page wider than its screen, and ``innerWidth``
    grows with it."""
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


# -------------------------------------------------------------------- tests


def test_two_players_sign_up_sit_and_play_to_showdown_while_a_visitor_watches(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    base = live_server_url
    alice = browser.new_context(**DESKTOP).new_page()
    bob = browser.new_context(**PHONE).new_page()
    watcher = browser.new_context(**DESKTOP).new_page()
    frames = {name: record_frames(page) for name, page in (("alice", alice), ("bob", bob))}
    frames["watcher"] = record_frames(watcher)

    # The watcher opens the lobby first: the table is there, empty, and updates live.
    watcher.goto(base + "/tables/")
    expect(watcher.locator("#lobby-status")).to_contain_text("Live")
    expect(lobby_row(watcher, table).locator("td").nth(4)).to_have_text("0 / 8 · 8 free")

    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    for page in (alice, bob):
        page.get_by_role("link", name="Lobby").first.click()
        lobby_row(page, table).get_by_role("link", name="Join").click()
        expect(page).to_have_url(f"{base}/tables/{table.pk}/")
        expect(page.locator("#street")).to_have_text("Waiting for players")
    # The stakes line links back to the lobby on a desktop; a phone's header
    # does that, and its stakes line ends with the buy-in, not a stray dot.
    assert stakes_line(alice).endswith("buy-in 100–1,000 · Lobby"), stakes_line(alice)
    assert stakes_line(bob).endswith("buy-in 100–1,000"), stakes_line(bob)

    # Bob reaches for seat 1 but alice takes it first: the server's refusal shows
    # in bob's buy-in dialog, and bob picks seat 2.
    open_buy_in(bob, 1)
    open_buy_in(alice, 1)
    buy_in(alice, 50)
    expect(alice.locator("#buy-in-error")).to_have_text(
        "Enter a whole number of chips from 100 to 1,000."
    )
    buy_in(alice, 200)
    expect(alice.locator("#buy-in")).to_be_hidden()
    expect(seat_box(alice, 1).locator(".seat-name")).to_have_text("alice")
    buy_in(bob, 300)
    expect(bob.locator("#buy-in-error")).to_have_text("Seat 1 at Browser table is taken.")
    expect(bob.locator("#buy-in")).to_be_visible()
    shot(bob, screenshots, "bob-1-seat-taken")
    bob.get_by_role("button", name="Cancel").click()
    open_buy_in(bob, 2)
    buy_in(bob, 300)
    expect(bob.locator("#buy-in")).to_be_hidden()

    # Both seated: the first hand is dealt at once, and the lobby row says so.
    hand = wait_until(lambda: latest_hand(table), "the first hand")
    expect(lobby_row(watcher, table).locator("td").nth(4)).to_have_text("2 / 8 · 6 free")
    watcher.select_option("#id_variant", "razz")
    expect(lobby_row(watcher, table)).to_have_count(0)
    expect(watcher.locator(".lobby-empty")).to_have_text("No open tables match.")
    assert watcher.url.endswith("?variant=razz")
    watcher.select_option("#id_variant", "")
    lobby_row(watcher, table).get_by_role("link", name="Watch").click()
    expect(watcher).to_have_url(f"{base}/tables/{table.pk}/")
    expect(watcher.locator("#seat-controls")).to_contain_text("Log in to take a seat")

    players = {1: alice, 2: bob}
    names = {1: "alice", 2: "bob"}
    viewers = {"alice": (alice, 1), "bob": (bob, 2), "watcher": (watcher, None)}
    seats = seat_numbers(hand)
    moves = 0
    streets_seen = set()
    while True:
        hand.refresh_from_db()
        state = HandState.from_dict(hand.state)
        if state.phase == OVER:
            break
        # Each seat's cards by face, from the one list in dealing order.
        hole = {seats[p]: state.downcards(p) for p in range(state.n)}
        up = {seats[p]: state.upcards(p) for p in range(state.n)}
        for page, mine in viewers.values():
            for seat in (1, 2):
                if seat == mine:
                    own = hole[seat] + up[seat]  # the down cards together, then the up
                    expect_cards(page, seat, [label(c) for c in own], backs=0)
                    expect(seat_box(page, seat).locator(".card-hole")).to_have_count(
                        len(hole[seat])
                    )
                else:
                    expect_cards(page, seat, [label(c) for c in up[seat]], backs=len(hole[seat]))
                    expect_hidden(page, hole[seat])
            expect(page.locator(".card-hole")).to_have_count(len(hole[mine]) if mine else 0)
            expect(page.locator("#street")).to_have_text(f"Hand #1 · {state.street_name}")

        actor = seats[state.to_act]
        page, other = players[actor], players[3 - actor]
        expect(page.locator("#actions .action-label")).to_have_text(expected_buttons(state))
        expect(other.locator("#actions button")).to_have_count(0)
        expect(watcher.locator("#actions button")).to_have_count(0)
        expect(page.locator("#timer-text")).to_have_text(re.compile(r"^Your time: \d+s$"))
        for looker in (other, watcher):
            pattern = rf"^{names[actor]}’s time: \d+s$"
            expect(looker.locator("#timer-text")).to_have_text(re.compile(pattern))
        expect(seat_box(watcher, actor).locator(".seat-timer")).to_have_count(1)
        if state.street_name not in streets_seen:
            streets_seen.add(state.street_name)
            street = state.street_name.split()[0]
            for name, (viewer, _) in viewers.items():
                shot(viewer, screenshots, f"{name}-2-{street}")

        kinds = {option.kind for option in state.legal_actions()}
        kind = next(k for k in ("bring_in", "check", "call") if k in kinds)
        # Before the last move nobody may have seen a card that isn't theirs.
        for name, (_, mine) in viewers.items():
            secret = [c for seat, cards in hole.items() if seat != mine for c in cards]
            assert_frames_hide(frames[name], secret, name)
        if actor == 1 and state.street > 0:
            # Alice plays by keyboard after 3rd street; the key is shown on the button.
            expect(page.locator(f"#actions .action-{kind} kbd")).to_have_text("C")
            page.keyboard.press("c")
        else:
            page.locator(f"#actions .action-{kind}").click()
        moves += 1
        before = hand.version
        wait_until(lambda before=before: Hand.objects.get(pk=hand.pk).version > before, "the move")
    assert moves >= 5  # bring-in, call, and a check or more on each later street
    assert len(streets_seen) == 5

    # The showdown: every page shows both hands face up, named, and the winner.
    result = state.result
    assert result is not None and not result["uncontested"]
    words = {seats[int(p)]: hand_words["high"] for p, hand_words in result["hands"].items()}
    assert set(words) == {1, 2}
    winners = {seats[p] for pot in result["pots"] for p, _ in pot["shares"]}
    won = {seats[p]: chips for p, chips in enumerate(result["payouts"]) if chips}
    for name, (page, _) in viewers.items():
        expect(page.locator("#street")).to_have_text("Hand #1 · showdown")
        expect(page.locator("#actions button")).to_have_count(0)
        for seat in (1, 2):
            p = seats.index(seat)
            cards = state.downcards(p) + state.upcards(p)  # the felt's groups
            expect_cards(page, seat, [label(c) for c in cards], backs=0)
            box = seat_box(page, seat)
            expect(box.locator(".seat-hand")).to_have_text(words[seat])
            winner_class = re.compile(r"\bseat-winner\b")
            if seat in winners:
                expect(box).to_have_class(winner_class)
                expect(box.locator(".seat-tags")).to_contain_text(f"wins {won[seat]}")
            else:
                expect(box).not_to_have_class(winner_class)
        expect(page.locator("#last-hand-number")).to_have_text("#1")
        for seat in (1, 2):
            row = page.locator(".last-row").filter(has_text=names[seat])
            expect(row.locator(".last-words")).to_have_text(words[seat])
        expect(page.locator(".last-winner .last-name")).to_have_text(
            [names[seat] for seat in (1, 2) if seat in winners]
        )
        shot(page, screenshots, f"{name}-3-showdown")
    expect(watcher.locator("#log")).to_contain_text("Seat 1 (alice) shows")
    assert "wins" in watcher.locator("#log").inner_text()
    assert fits_width(bob), "bob's phone page scrolls sideways"

    # The worker deals the next hand after the pause; the last hand stays summed up.
    wait_until(
        lambda: table.hands.filter(number=2).exists(), "hand #2", NEXT_HAND_DELAY_SECONDS + 20
    )
    for name, (page, _) in viewers.items():
        expect(page.locator("#street")).to_have_text(re.compile(r"^Hand #2 · "))
        expect(page.locator("#last-hand-number")).to_have_text("#1")
        for seat in (1, 2):
            row = page.locator(".last-row").filter(has_text=names[seat])
            expect(row.locator(".last-words")).to_have_text(words[seat])
        shot(page, screenshots, f"{name}-4-next-hand")
    expect(watcher.locator(".card-hole")).to_have_count(0)


@pytest.mark.parametrize(("clock", "word"), [("per_turn", "countdown"), ("time_bank", "time bank")])
def test_the_turn_clock_runs_down_the_action_time_then_the_extra_time(
    browser: Any, live_server_url: str, table: Table, screenshots: Path, clock: str, word: str
) -> None:
    """Bob's computer clock is an hour fast; his page still counts the server's seconds.

    The extra time is named as the stakes have it: a countdown, or a time bank.
    """
    table.stakes.action_seconds, table.stakes.time_bank_seconds = 3, 40
    table.stakes.clock = clock
    table.stakes.save(update_fields=["action_seconds", "time_bank_seconds", "clock"])
    for name in ("alice", "bob"):
        user_signup(username=name, password=PASSWORD)
    alice = browser.new_context(**DESKTOP).new_page()
    bob_context = browser.new_context(**PHONE)
    bob_context.add_init_script("Date.now = ((now) => () => now() + 3600e3)(Date.now);")
    bob = bob_context.new_page()
    for page, name, seat in ((alice, "alice", 1), (bob, "bob", 2)):
        start_session(page, live_server_url, name)
        page.goto(f"{live_server_url}/tables/{table.pk}/")
        open_buy_in(page, seat)
        buy_in(page, 100)
        expect(page.locator("#buy-in")).to_be_hidden()
    hand = wait_until(lambda: latest_hand(table), "the first hand")
    actor = seat_numbers(hand)[HandState.from_dict(hand.state).to_act]
    whose = {1: "alice", 2: "bob"}[actor]
    pages = {1: alice, 2: bob}

    for seat, page in pages.items():
        prefix = "Your" if seat == actor else f"{whose}’s"
        expect(page.locator("#timer-text")).to_have_text(re.compile(rf"^{prefix} time: [1-3]s$"))
        expect(page.locator(".timer-centre")).not_to_have_class(re.compile("timer-bank"))
    shot(bob, screenshots, "bob-action-time")
    # Three seconds on, the extra time takes over in another colour, counting its own seconds.
    for seat, page in pages.items():
        prefix = "Your" if seat == actor else f"{whose}’s"
        expect(page.locator(".timer-centre")).to_have_class(re.compile(r"\btimer-bank\b"))
        text = page.locator("#timer-text").inner_text()
        match = re.fullmatch(rf"{prefix} {word}: (\d+)s", text)
        assert match and 30 <= int(match.group(1)) <= 40, text
    shares = []  # the bar's length, as clock.js shrinks it
    for _ in range(2):
        style = bob.locator(".timer-centre .timer-bar").get_attribute("style") or ""
        shares.append(float(re.search(r"scaleX\(([\d.e-]+)\)", style).group(1)))
        time.sleep(1.2)
    assert 0 < shares[1] < shares[0] <= 1, shares
    shot(bob, screenshots, "bob-extra-time")
    shot(alice, screenshots, "alice-extra-time")


# Bob (engine player 0, seat 2) brings in with the 2♣; alice's A♠ K♦ lead on
# 4th street, and bob's pair of deuces on 5th. The down cards are any.
KEYS_DECK = stack_deck(
    {0: "????2c", 1: "????As"},
    {0: "3h", 1: "Kd"},
    {0: "2d", 1: "4c"},
)

# Installed in a page: a list of what each animation frame showed, one entry
# per change, in window.cardroomFrames. `flying`: a card is in the air;
# `buttons`: a move button can be seen; `turn`: whose turn the centre says;
# `cards`: the cards at the viewer's own seat.
WATCH_FRAMES = """() => {
  const frames = (window.cardroomFrames = []);
  const seen = (node) => node.checkVisibility({ visibilityProperty: true });
  const look = () => {
    const turn = document.getElementById("turn");
    const frame = {
      flying: document.getAnimations().some((run) => run.playState === "running"
        && run.effect && run.effect.target && run.effect.target.closest(".card") !== null),
      buttons: [...document.querySelectorAll("#actions button")].some(seen),
      turn: seen(turn) ? turn.textContent : "",
      cards: document.querySelectorAll("#felt .seat-mine .card").length,
    };
    const last = frames[frames.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(frame)) frames.push(frame);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def made(table: Table) -> list[tuple[int, str]]:
    """The moves of the latest hand, as (seat, kind)."""
    return [(move.seat, move.kind) for move in latest_hand(table).moves()]


def test_keys_make_moves_after_chatting_and_the_turn_waits_for_the_cards_to_land(
    browser: Any,
    live_server_url: str,
    table: Table,
    server_channel_layer: None,
    monkeypatch: pytest.MonkeyPatch,
    screenshots: Path,
) -> None:
    """Bob chats, presses Enter, and brings in with C; alice starts a line,
    leaves the box with Escape, and calls with C. Alice's cards fly in, and her
    turn waits for them; bob asked his device for reduced motion, so nothing
    flies for him and his turn shows with his cards."""
    # That module imports this one: imported here, once both are loaded.
    from tests.browser.test_wild_cards import deal_stacked

    deal_stacked(table, "stud", KEYS_DECK, monkeypatch)
    alice = browser.new_context(**DESKTOP | MOVING).new_page()
    bob = browser.new_context(**DESKTOP).new_page()
    for page, name in ((alice, "alice"), (bob, "bob")):
        start_session(page, live_server_url, name)
        page.goto(f"{live_server_url}/tables/{table.pk}/")
    expect(bob.locator("#actions .action-bring_in")).to_be_visible()

    # A chat line sent with Enter gives the keys back: C brings in.
    bob.locator("#chat-text").click()
    bob.keyboard.type("good luck")
    bob.keyboard.press("Enter")
    expect(alice.locator("#chat")).to_contain_text("bob: good luck")
    bob.keyboard.press("c")
    wait_until(lambda: made(table) == [(2, "bring_in")], "bob's bring-in by key")
    expect(bob.locator("#chat-text")).to_have_value("")

    # Escape leaves a line half typed, and the keys are the table's: C calls.
    for page in (alice, bob):
        page.evaluate(WATCH_FRAMES)
    expect(alice.locator("#actions .action-call")).to_be_visible()
    alice.locator("#chat-text").click()
    alice.keyboard.type("nice")
    alice.keyboard.press("Escape")
    alice.keyboard.press("c")
    wait_until(lambda: made(table)[-1:] == [(1, "call")], "alice's call by key")
    expect(alice.locator("#chat-text")).to_have_value("nice")

    # 4th street: alice's A-K leads. Her buttons and "Your turn" come once
    # her cards have landed, never while one is in the air.
    expect(alice.locator("#actions .action-check")).to_be_visible()
    expect(alice.locator("#turn")).to_have_text("Your turn")
    shot(alice, screenshots, "alice-4th-street")
    frames = alice.evaluate("window.cardroomFrames")
    assert any(frame["flying"] for frame in frames), frames  # the cards did fly
    early = [f for f in frames if f["flying"] and (f["buttons"] or f["turn"])]
    assert not early, early

    # Alice checks by key, bob by click; on 5th street bob's pair leads, and
    # with reduced motion his buttons come with his fifth card, at once.
    alice.keyboard.press("c")
    wait_until(lambda: made(table)[-1:] == [(1, "check")], "alice's check")
    bob.locator("#actions .action-check").click()
    expect(bob.locator("#actions .action-bet")).to_be_visible()
    shot(bob, screenshots, "bob-5th-street")
    # The page may show the buttons before its next frame is looked at.
    bob.wait_for_function("() => window.cardroomFrames.some((frame) => frame.cards === 5)")
    frames = bob.evaluate("window.cardroomFrames")
    assert not any(frame["flying"] for frame in frames), frames
    fifth = next(frame for frame in frames if frame["cards"] == 5)
    assert fifth["buttons"] and fifth["turn"] == "Your turn", frames
    frames = alice.evaluate("window.cardroomFrames")
    assert not [f for f in frames if f["flying"] and f["turn"]], frames
