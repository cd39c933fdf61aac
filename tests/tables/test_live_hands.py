"""A move made through this process leaves its state here for the hand's next move
(:mod:`tables.services.live`), and that copy is used only while PostgreSQL
holds exactly it.

The moves commit for real (``transaction=True``): a state is kept only once
its move has committed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from tables import services
from tables.models import Hand, Table
from tables.rules import HandState, LegalAction
from tables.services.live import LIVE_HANDS

pytestmark = pytest.mark.django_db(transaction=True)

STATE = '"tables_hand"."state"'  # the column, as the reads name it


@pytest.fixture
def hand(table: Table, alice: User, bob: User) -> Iterator[Hand]:
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    dealt = services.hand_start(table_id=table.pk)
    assert dealt is not None
    yield dealt
    LIVE_HANDS.forget(dealt.pk)  # the next test's database numbers its hands afresh


def staying_in(hand: Hand) -> dict[str, Any]:
    """A move for the player to act that keeps the hand going, made at its version."""
    hand.refresh_from_db()
    state = HandState.from_dict(hand.state)
    assert state.to_act is not None
    option = next(o for o in state.legal_actions() if o.kind != "fold")
    player = hand.player_ids()[state.to_act]
    return {
        "player_id": player,
        "kind": option.kind,
        "amount": least(option),
        "version": hand.version,
    }


def least(option: LegalAction) -> int | None:
    """The smallest amount the option allows, where it takes one."""
    return option.min if option.kind in ("bet", "raise", "complete") else None


def recorded(hand: Hand, made: dict[str, Any]) -> tuple[int | None, str]:
    """A move as the hand's action list records it: the engine's player and the kind."""
    return hand.engine_player(made["player_id"]), made["kind"]


def move(hand: Hand, made: dict[str, Any]) -> Hand:
    return services.hand_act(hand_id=hand.pk, table_id=hand.table_id, **made)


def reads_of_the_state(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and STATE in q["sql"]]


def moves(hand: Hand) -> list[tuple[int | None, str]]:
    hand.refresh_from_db()
    return [(a["player"], a["kind"]) for a in HandState.from_dict(hand.state).actions]


def test_the_next_move_here_starts_from_the_state_the_last_one_left(hand: Hand) -> None:
    first = staying_in(hand)
    move(hand, first)
    second = staying_in(hand)
    with CaptureQueriesContext(connection) as queries:
        move(hand, second)
    # The row was locked and read, its state column neither read nor decoded...
    assert reads_of_the_state(queries.captured_queries) == []
    # ...and the move was made on the hand as stored, and stored.
    assert moves(hand)[-2:] == [recorded(hand, first), recorded(hand, second)]
    assert hand.version == 2


def test_a_state_kept_here_is_never_used_after_another_writer_changed_the_hand(
    hand: Hand,
) -> None:
    move(hand, staying_in(hand))  # kept here at version 1
    # Another process (with no copy) makes the next move and commits it.
    elsewhere = Hand.objects.get(pk=hand.pk)
    theirs = staying_in(elsewhere)
    state = HandState.from_dict(elsewhere.state)
    state.act(*recorded(elsewhere, theirs), theirs["amount"])
    Hand.objects.filter(pk=hand.pk).update(state=state.to_dict(), version=elsewhere.version + 1)
    ours = staying_in(hand)
    with CaptureQueriesContext(connection) as queries:
        move(hand, ours)
    assert len(reads_of_the_state(queries.captured_queries)) == 1  # read again, not the copy
    assert moves(hand)[-2:] == [recorded(hand, theirs), recorded(hand, ours)]
    assert hand.version == 3


def test_a_state_kept_here_is_not_used_for_another_hand_at_its_id_and_version(
    hand: Hand,
) -> None:
    dealt = HandState.from_dict(hand.state)
    first = staying_in(hand)
    move(hand, first)  # kept here at version 1
    # The database is put back and another hand gets this id: dealt alike,
    # then another first move, at version 1 too.
    other = next(o for o in dealt.legal_actions() if o.kind != first["kind"])
    assert dealt.to_act is not None
    dealt.act(dealt.to_act, other.kind, least(other))
    Hand.objects.filter(pk=hand.pk).update(state=dealt.to_dict(), deck_commitment="0" * 64)
    ours = staying_in(hand)
    move(hand, ours)
    assert [kind for _, kind in moves(hand)][-2:] == [other.kind, ours["kind"]]


def test_a_move_refused_or_rolled_back_leaves_no_state_behind(hand: Hand) -> None:
    move(hand, staying_in(hand))
    assert LIVE_HANDS.holds(hand.pk)
    before, made = moves(hand), staying_in(hand)
    with pytest.raises(services.IllegalMove):
        move(hand, {**made, "kind": "raise", "amount": 10**6})
    assert not LIVE_HANDS.holds(hand.pk)  # the refused move may have changed the copy
    move(hand, made)  # read from the row, and made once
    assert moves(hand) == [*before, recorded(hand, made)]
    assert hand.version == 2 and LIVE_HANDS.holds(hand.pk)


def test_a_hand_over_is_not_kept(hand: Hand) -> None:
    while not hand.is_finished:
        made = staying_in(hand)
        state = HandState.from_dict(hand.state)
        fold = any(o.kind == "fold" for o in state.legal_actions())
        hand = move(hand, {**made, "kind": "fold", "amount": None} if fold else made)
    assert not LIVE_HANDS.holds(hand.pk)
