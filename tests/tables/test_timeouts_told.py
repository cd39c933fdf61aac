"""A turn the clock played, and a seat the clock sat out, are told as such.

The live log reads the engine's events: a move the turn clock made carries
``timed_out``. The seat says why it sits out, until the player sits in again.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accounts.models import User
from tables import services
from tables.models import Hand, Seat, Stakes, Table
from tables.rules import HandState
from tests.tables.conftest import player_to_act

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def heads_up(stakes: Stakes, table: Table, alice: User, bob: User) -> Table:
    """Alice and bob with 200 chips each, and no bring-in: a timeout may check."""
    stakes.bring_in = 0
    stakes.save(update_fields=["bring_in"])
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    return table


def expire(hand: Hand) -> Hand:
    hand.refresh_from_db()
    timed_out = services.hand_timeout(hand_id=hand.pk, turn=hand.version, now=hand.turn_expires_at)
    assert timed_out is not None
    return timed_out


def moves(hand: Hand) -> list[dict]:
    hand.refresh_from_db()
    state = HandState.from_dict(hand.state)
    return [e for e in state.events if e["type"] in ("check", "fold", "call", "bet", "complete")]


def test_a_move_the_clock_makes_is_marked_and_a_players_own_is_not(heads_up: Table) -> None:
    hand = services.hand_start(table_id=heads_up.pk, now=T0)
    first = player_to_act(hand)
    hand = expire(hand)
    services.hand_act(
        hand_id=hand.pk, player_id=player_to_act(hand), kind="check", version=hand.version
    )
    timed, own = moves(hand)
    assert (timed["type"], timed.get("timed_out")) == ("check", True)
    assert own["type"] == "check" and "timed_out" not in own
    assert hand.actions.get(seq=1).timed_out and hand.actions.get(seq=1).player_id == first


def test_two_timeouts_sit_the_player_out_saying_why_until_they_sit_in(
    heads_up: Table, alice: User
) -> None:
    hand = services.hand_start(table_id=heads_up.pk, now=T0)
    timeouts = 0
    while timeouts < 2:
        hand.refresh_from_db()
        if player_to_act(hand) == alice.pk:
            hand, timeouts = expire(hand), timeouts + 1
        else:
            services.hand_act(
                hand_id=hand.pk, player_id=player_to_act(hand), kind="check", version=hand.version
            )
    seat = Seat.objects.get(table=heads_up, player=alice)
    assert (seat.state, seat.sat_out_for) == (Seat.State.SITTING_OUT, Seat.SatOutFor.TIMEOUTS)
    services.seat_sit_in(table_id=heads_up.pk, player_id=alice.pk)
    seat.refresh_from_db()
    assert (seat.state, seat.sat_out_for) == (Seat.State.PLAYING, "")


def test_sitting_out_by_choice_gives_no_reason(heads_up: Table, alice: User) -> None:
    services.seat_sit_out(table_id=heads_up.pk, player_id=alice.pk)
    seat = Seat.objects.get(table=heads_up, player=alice)
    assert (seat.state, seat.sat_out_for) == (Seat.State.SITTING_OUT, "")
