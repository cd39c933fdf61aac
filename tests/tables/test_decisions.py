"""Decisions that are not bets, through the services and the websocket's
message checks: a roll or a declaration everyone makes at once, with one
clock for all, and an exchange in turn.

Personas: alice (seat 1) and bob (seat 2), heads up with 200 chips each, at
a table whose stakes deal the game under test; the decks are shuffled, so
every assertion holds whatever the cards.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from accounts.models import User
from tables import services
from tables.consumers.messages import BadMessage, _check_act
from tables.models import Hand, Stakes, Table
from tables.rules.cards import parse_card
from tables.rules.state import DECIDING
from tables.selectors.snapshots import build_snapshot, read_table
from tests.tables.clock import ACTION, EXTRA, T0, act, expire, seconds
from tests.tables.conftest import engine, player_to_act

pytestmark = pytest.mark.django_db


def deal(stakes: Stakes, table: Table, variant: str, **options: object) -> Hand:
    stakes.variant = variant
    for name, value in options.items():
        setattr(stakes, name, value)
    stakes.seats = 6  # roll your own and English stud seat six
    stakes.save()
    return services.hand_start(table_id=table.pk, now=T0)


def to_decision(hand: Hand, now: datetime = T0) -> Hand:
    """Bring in, check and call (at ``now``) until a decision is awaited."""
    while engine(hand).phase != DECIDING:
        options = {option.kind for option in engine(hand).legal_actions()}
        kind = next(k for k in ("bring_in", "check", "call") if k in options)
        hand = act(hand, kind, now)
    hand.refresh_from_db()
    return hand


def user_of(hand: Hand, player: int) -> int:
    return hand.seating["players"][player]["player"]


def decide(hand: Hand, player: int, kind: str, *, version: int, now: datetime = T0, **more):
    return services.hand_act(
        hand_id=hand.pk, player_id=user_of(hand, player), kind=kind, version=version,
        now=now, **more,
    )  # fmt: skip


def test_declarations_made_at_once_are_taken_at_the_version_each_player_saw(
    stakes: Stakes, seated: Table
) -> None:
    hand = to_decision(deal(stakes, seated, "declare"))
    seen = hand.version  # both players' views show this version
    state = engine(hand)
    assert state.deciding() == [0, 1] and state.to_act is None
    decide(hand, 0, "declare_high", version=seen)
    assert not engine(hand).finished
    # Bob chose on the same view: his move is not stale, though the version moved.
    hand = decide(hand, 1, "declare_low", version=seen)
    state = engine(hand)
    assert state.finished
    assert [state.declared[p] for p in (0, 1)] == ["high", "low"]
    kinds = [move.kind for move in hand.moves()]
    assert kinds[-2:] == ["declare_high", "declare_low"]


def test_a_player_who_has_declared_cannot_declare_again(stakes: Stakes, seated: Table) -> None:
    hand = to_decision(deal(stakes, seated, "declare"))
    seen = hand.version
    hand = decide(hand, 0, "declare_high", version=seen)
    before = engine(hand).to_dict()
    with pytest.raises(services.StaleMove):
        decide(hand, 0, "declare_low", version=seen)
    with pytest.raises(services.IllegalMove, match="nothing to decide"):
        decide(hand, 0, "declare_low", version=hand.version)
    assert engine(hand).to_dict() == before


def test_a_choice_made_at_once_has_one_clock_that_times_out_everyone_still_choosing(
    stakes: Stakes, seated: Table
) -> None:
    hand = to_decision(deal(stakes, seated, "declare"), T0)
    started = hand.turn_expires_at
    assert started == T0 + ACTION + EXTRA
    # Alice declares later; bob's clock keeps running from the same start.
    hand = decide(hand, 0, "declare_high", version=hand.version, now=T0 + seconds(5))
    assert hand.turn_expires_at == started
    assert expire(hand, started - seconds(1)) is None  # not yet
    expected, _ = engine(hand).default_decision(1)
    hand = expire(hand)
    assert hand is not None and hand.is_finished
    state = engine(hand)
    bob = state.actions[-1]
    assert (bob["player"], bob["kind"], bob["timed_out"]) == (1, expected, True)
    assert len([move for move in hand.moves() if move.timed_out]) == 1


def test_rolls_are_timed_out_for_every_player_still_choosing(stakes: Stakes, seated: Table) -> None:
    hand = deal(stakes, seated, "roll_your_own")
    state = engine(hand)
    assert state.decision_name == "roll" and state.deciding() == [0, 1]
    hand = expire(hand)
    assert hand is not None
    state = engine(hand)
    rolled = [a for a in state.actions if a["kind"] == "roll"]
    assert [a["player"] for a in rolled] == [0, 1]
    assert all(a["timed_out"] for a in rolled)
    # Each rolled the down card dealt last: the second of their first two.
    assert [a["cards"][0] for a in rolled] == [state.cards[p][1].card for p in (0, 1)]
    assert [state.cards[p][1].up for p in (0, 1)] == [True, True]


def test_an_exchange_is_made_in_turn_and_refused_out_of_turn(
    stakes: Stakes, seated: Table, alice: User, bob: User
) -> None:
    hand = to_decision(deal(stakes, seated, "english", exchange_price=True))
    state = engine(hand)
    assert state.decision_name == "exchange" and state.to_act == 0
    with pytest.raises(services.IllegalMove):
        decide(hand, 1, "stand_pat", version=hand.version)
    exchange = state.legal_actions(0)[0]
    assert exchange.kind == "exchange" and exchange.min == stakes.big_bet
    card = exchange.cards[-1]
    hand = decide(hand, 0, "exchange", version=hand.version, cards=[card])
    state = engine(hand)
    assert card in state.discards and state.to_act == 1
    assert player_to_act(hand) == user_of(hand, 1)
    paid = [e for e in state.events if e["type"] == "pay"]
    assert [(e["player"], e["amount"]) for e in paid] == [(0, stakes.big_bet)]


def test_the_act_message_takes_one_named_card() -> None:
    message = {"action": "roll", "cards": ["Kd"], "turn": 3}
    assert _check_act(message)["cards"] == [parse_card("Kd")]
    assert _check_act({"action": "stand_pat", "turn": 3})["cards"] is None
    for bad in (["Kd", "2c"], [], "Kd", ["K"], [5], ["Zz"]):
        with pytest.raises(BadMessage, match="'cards'"):
            _check_act({"action": "exchange", "cards": bad, "turn": 3})
    with pytest.raises(BadMessage, match="'action'"):
        _check_act({"action": "declare_sideways", "turn": 3})


def test_the_snapshots_timer_names_every_seat_still_choosing(stakes: Stakes, seated: Table) -> None:
    hand = to_decision(deal(stakes, seated, "declare"))
    seats = [entry["seat"] for entry in hand.seating["players"]]
    timer = build_snapshot(read_table(seated.pk), None, None, with_events=False).payload[
        "hand_info"
    ]["timer"]
    assert timer["seat"] is None and timer["seats"] == seats
    assert timer["expires_at"] == hand.turn_expires_at.isoformat()
    hand = decide(hand, 0, "declare_high", version=hand.version)
    timer = build_snapshot(read_table(seated.pk), None, None, with_events=False).payload[
        "hand_info"
    ]["timer"]
    assert timer["seats"] == seats[1:]
