"""Who sees what of a past hand: the list, the hand's page and its replayer.

Personas (tests/tables/conftest.py):
- alice (seat 1) and bob (seat 2) play; each sees their own down cards, the
  other's only if shown at the showdown;
- carol (seat 4) plays in some hands and is the logged-in observer in others:
  not dealt in, she may see nothing of the hand at all (404);
- staff (a staff user with ``tables.view_hand``) sees every card;
- an anonymous visitor is sent to log in.

Every check of a hidden card looks for it in every form a page can carry it:
the code ("Kd") standing alone, the rendered face ("K♦", and the JSON-escaped
"K\\u2666" of the replayer's data) and the card's two spans, and the
replayer's data is also parsed and searched string by string.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.cards import card_str
from tables.rules.narration import card_text
from tables.services import hands as hand_services
from tests.rules.stacking import stack_deck
from tests.tables.conftest import bet_and_call, play_out

pytestmark = pytest.mark.django_db

BUY_IN = 200
REPLAY_DATA = re.compile(r'<script id="replay-data" type="application/json">(.*?)</script>', re.S)


# ------------------------------------------------------------------ helpers


# Heads-up with alice in seat 1 and bob in seat 2, alice deals the first hand, so
# bob is engine player 0 and alice 1. Alice's deuce brings in; bob's aces full
# bet every street and show first; alice's jack-high can't win, so she mucks.
MUCK_DECK = stack_deck(
    {0: "AcAdAh", 1: "3d4h2c"},
    {0: "Kc", 1: "7s"},
    {0: "Kd", 1: "9h"},
    {0: "Qs", 1: "Jd"},
    {0: "5c", 1: "8c"},
)


def deal_next(monkeypatch: pytest.MonkeyPatch, deck: list[int]) -> None:
    """Make the services shuffle ``deck`` for the hands dealt from now on."""
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(deck))


def seat(table: Table, *players: tuple[User, int]) -> None:
    for player, number in players:
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=BUY_IN
        )


def play_hand(table: Table, choose: Callable[[Hand, HandState], tuple[str, int | None]]) -> Hand:
    """Deal a hand and play it out, each move picked by ``choose(hand, state)``."""
    hand = services.hand_start(table_id=table.pk)
    return play_out(hand, lambda state: choose(hand, state))


def user_to_act(hand: Hand, state: HandState) -> int:
    return hand.seating["players"][state.to_act]["player"]


def folds(*quitters: User) -> Callable[[Hand, HandState], tuple[str, int | None]]:
    """Bet and call, except that ``quitters`` fold as soon as they may.

    A quitter due to bring in does just that (never completing), so someone
    completes behind them and they fold: every quitter loses on 3rd street.
    """
    ids = {user.pk for user in quitters}

    def choose(hand: Hand, state: HandState) -> tuple[str, int | None]:
        kinds = {option.kind for option in state.legal_actions()}
        if user_to_act(hand, state) in ids:
            for kind in ("fold", "bring_in"):
                if kind in kinds:
                    return kind, None
        return bet_and_call(state)

    return choose


def showdown(hand: Hand, state: HandState) -> tuple[str, int | None]:
    return bet_and_call(state)


def hidden_from(hand: Hand, user: User | None) -> list[str]:
    """The down cards of ``hand`` that ``user`` (None: anyone not in it) never
    saw: unshown hands, and down cards exchanged away (English stud)."""
    state = HandState.from_dict(hand.state)
    others = [
        p
        for p, entry in enumerate(hand.seating["players"])
        if user is None or entry["player"] != user.pk
    ]
    unshown = [card_str(c) for p in others if not state.shown[p] for c in state.downcards(p)]
    swapped = [
        card_str(e["card"])
        for e in state.events
        if e["type"] == "exchange" and not e["up"] and e["player"] in others
    ]
    return unshown + swapped


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(value), *map(strings_in, value.values()))
    if isinstance(value, list):
        return set().union(*map(strings_in, value)) if value else set()
    return set()


def card_forms(code: str) -> list[str]:
    """Every way a page may write one card, besides the bare code."""
    face = card_text(code)
    rank, suit = face[:-1], face[-1]
    return [
        face,
        json.dumps(face)[1:-1],  # "K\u2666", as json_script writes it
        f'<span class="card-rank">{rank}</span><span class="card-suit">{suit}</span>',
        f'data-card="{code}"',
        f'"{code}"',
    ]


def assert_hides(html: str, codes: list[str]) -> None:
    assert codes, "the test should have hidden cards to look for"
    for code in codes:
        assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), code
        for form in card_forms(code):
            assert form not in html, form
    match = REPLAY_DATA.search(html)
    if match:
        data = json.loads(match.group(1))
        seen = " ".join(strings_in(data))
        for code in codes:
            assert code not in strings_in(data)
            assert card_text(code) not in seen


def replay_data(html: str) -> dict[str, Any]:
    match = REPLAY_DATA.search(html)
    assert match, "the page has no replayer data"
    return json.loads(match.group(1))


def page(client: Client, user: User | None, url: str) -> Any:
    client.logout()
    if user is not None:
        client.force_login(user)
    return client.get(url)


def detail_url(hand: Hand) -> str:
    return reverse("hand_detail", args=[hand.pk])


@pytest.fixture
def staff(db: None, quick_passwords: None) -> User:
    """sam, a staff member allowed to read hands (not a superuser): sees every card."""
    return make_staff()


def make_staff() -> User:
    user = user_signup(username="sam", password="sam-pw-1234")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(Permission.objects.get(codename="view_hand"))
    return User.objects.get(pk=user.pk)  # a fresh object: no cached permissions


@pytest.fixture
def heads_up(table: Table, alice: User, bob: User) -> Table:
    seat(table, (alice, 1), (bob, 2))
    return table


# ---------------------------------------------------------- the hand's page


def test_a_player_never_sees_the_unshown_cards_of_a_player_who_folded(heads_up, alice, bob):
    hand = play_hand(heads_up, folds(bob))
    secret = hidden_from(hand, alice)
    assert len(secret) == 2  # bob folded on 3rd street, his two down cards unseen
    html = page(Client(), alice, detail_url(hand)).content.decode()
    assert_hides(html, secret)
    # ...while her own down cards are on the page, and in the replayer.
    me = [entry["player"] for entry in hand.seating["players"]].index(alice.pk)
    for code in map(card_str, HandState.from_dict(hand.state).downcards(me)):
        assert f'data-card="{code}"' in html
        assert f'"{code}"' in html


def test_a_hand_mucked_at_the_showdown_stays_hidden_from_the_winner(
    heads_up, alice, bob, monkeypatch
):
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(heads_up, showdown)
    state = HandState.from_dict(hand.state)
    assert state.shown == [True, False]  # bob showed aces full; alice mucked
    html = page(Client(), bob, detail_url(hand)).content.decode()
    assert_hides(html, ["3d", "4h", "8c"])
    assert "alice mucks, unshown" in html
    # alice sees bob's shown hand, named, and her own cards.
    html = page(Client(), alice, detail_url(hand)).content.decode()
    assert "bob shows A♣ A♦ A♥ K♣ K♦ Q♠ 5♣: full house, aces full of kings" in html
    for code in ("3d", "4h", "8c"):
        assert f'data-card="{code}"' in html


def test_no_player_sees_the_cards_of_another_who_folded(table, alice, bob, carol):
    seat(table, (alice, 1), (bob, 2), (carol, 4))
    hand = play_hand(table, folds(carol))
    for user in (alice, bob):
        html = page(Client(), user, detail_url(hand)).content.decode()
        assert_hides(html, hidden_from(hand, user))
    html = page(Client(), carol, detail_url(hand)).content.decode()
    hidden = hidden_from(hand, carol)
    if hidden:  # alice or bob mucked at the showdown
        assert_hides(html, hidden)


def test_each_step_of_the_replayer_is_the_engines_view_for_that_player(heads_up, alice, bob):
    hand = play_hand(heads_up, showdown)
    data = replay_data(page(Client(), alice, detail_url(hand)).content.decode())
    stored = HandState.from_dict(hand.state)
    me = data["viewer"]
    assert hand.seating["players"][me]["player"] == alice.pk
    state = HandState.new(stored.config, stored.starting_stacks, stored.deck)
    for number, step in enumerate(data["steps"]):
        if number:
            state.apply(stored.actions[number - 1])
        for p, seen in enumerate(step["view"]["players"]):
            open_ = p == me or state.shown[p]
            assert seen["cards"] == [
                {"card": card_str(card) if up or open_ else None, "up": up}
                for card, up in state.cards[p]
            ]
            assert (seen["stack"], seen["bet"]) == (state.stacks[p], state.bets[p])
    assert len(data["steps"]) == len(stored.actions) + 1


def test_an_observer_who_was_not_dealt_in_gets_404_everywhere(heads_up, alice, bob, carol):
    hand = play_hand(heads_up, folds(bob))  # nobody showed: every down card is secret
    response = page(Client(), carol, detail_url(hand))
    assert response.status_code == 404
    assert_hides(response.content.decode(), hidden_from(hand, None))
    listing = page(Client(), carol, reverse("my_hands")).content.decode()
    assert f'data-hand="{hand.pk}"' not in listing


def test_an_anonymous_visitor_is_sent_to_log_in(heads_up):
    hand = play_hand(heads_up, showdown)
    for url in (detail_url(hand), reverse("my_hands")):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('accounts:login')}?next={url}"


def test_a_tampered_or_unknown_hand_id_is_404(heads_up, alice):
    hand = play_hand(heads_up, showdown)
    for hand_id in (hand.pk + 1, 0, 10**9):
        assert page(Client(), alice, f"/hands/{hand_id}/").status_code == 404
    assert page(Client(), alice, "/hands/abc/").status_code == 404


def test_a_hand_still_being_played_is_not_in_the_history(heads_up, alice, staff):
    hand = services.hand_start(table_id=heads_up.pk)
    for user in (alice, staff):
        assert page(Client(), user, detail_url(hand)).status_code == 404
        listing = page(Client(), user, reverse("my_hands")).content.decode()
        assert f'data-hand="{hand.pk}"' not in listing


def test_staff_see_every_card_burns_included(table, alice, bob, carol, staff):
    seat(table, (alice, 1), (bob, 2), (carol, 4))
    hand = play_hand(table, folds(carol))
    html = page(Client(), staff, detail_url(hand)).content.decode()
    data = replay_data(html)
    assert data["everything"] is True and data["viewer"] is None
    stored = HandState.from_dict(hand.state)
    last = data["steps"][-1]["view"]["players"]
    for p in range(stored.n):
        assert last[p]["cards"] == [{"card": card_str(c), "up": up} for c, up in stored.cards[p]]
        for code in map(card_str, stored.downcards(p)):
            assert f'data-card="{code}"' in html  # in the players' table too
    lines = " ".join(line for step in data["steps"] for line in step["lines"])
    for burn in stored.burns:
        assert f"Burned: {card_text(card_str(burn))}" in lines


def test_a_staff_member_without_the_permission_is_just_a_visitor(heads_up, alice, staff):
    staff.user_permissions.clear()
    hand = play_hand(heads_up, showdown)
    assert page(Client(), User.objects.get(pk=staff.pk), detail_url(hand)).status_code == 404


# ------------------------------------------------------------------ the list


def test_my_hands_shows_my_cards_and_never_an_opponents_unshown_ones(heads_up, alice, bob):
    hands = [play_hand(heads_up, folds(bob)), play_hand(heads_up, folds(alice))]
    html = page(Client(), alice, reverse("my_hands")).content.decode()
    mine = set()
    for hand in hands:
        p = [e["player"] for e in hand.seating["players"]].index(alice.pk)
        mine |= {card_str(card) for card in HandState.from_dict(hand.state).cards_of(p)}
    for code in mine:
        assert f'data-card="{code}"' in html
    # A card bob hid in one hand may be one of alice's own in the other.
    assert_hides(html, sorted({c for hand in hands for c in hidden_from(hand, alice)} - mine))
