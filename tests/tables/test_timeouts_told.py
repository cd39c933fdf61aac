"""A turn the clock played, and a seat the clock sat out, are told as such.

The live log reads the engine's events: a move the turn clock made carries
``timed_out``. The seat says why it sits out, until the player sits in again.
"""

from __future__ import annotations

from accounts.models import User
from tables import services
from tables.models import Hand, Seat, Stakes, Table
from tables.rules import HandState
from tests.tables.clock import expire, start
from tests.tables.conftest import player_to_act


def moves(hand: Hand) -> list[dict]:
    hand.refresh_from_db()
    state = HandState.from_dict(hand.state)
    return [e for e in state.events if e["type"] in ("check", "fold", "call", "bet", "complete")]


def test_a_move_the_clock_makes_is_marked_and_a_players_own_is_not(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    first = player_to_act(hand)
    hand = expire(hand)
    services.hand_act(
        hand_id=hand.pk, player_id=player_to_act(hand), kind="check", version=hand.version
    )
    timed, own = moves(hand)
    assert (timed["type"], timed.get("timed_out")) == ("check", True)
    assert own["type"] == "check" and "timed_out" not in own
    first_move = hand.moves()[0]
    assert first_move.number == 1 and first_move.timed_out and first_move.player_id == first


def test_two_timeouts_sit_the_player_out_saying_why_until_they_sit_in(
    no_bring_in: Stakes, seated: Table, alice: User
) -> None:
    hand = start(seated)
    timeouts = 0
    while timeouts < 2:
        hand.refresh_from_db()
        if player_to_act(hand) == alice.pk:
            hand, timeouts = expire(hand), timeouts + 1
        else:
            services.hand_act(
                hand_id=hand.pk, player_id=player_to_act(hand), kind="check", version=hand.version
            )
    seat = Seat.objects.get(table=seated, player=alice)
    assert (seat.state, seat.sat_out_for) == (Seat.State.SITTING_OUT, Seat.SatOutFor.TIMEOUTS)
    services.seat_sit_in(table_id=seated.pk, player_id=alice.pk)
    seat.refresh_from_db()
    assert (seat.state, seat.sat_out_for) == (Seat.State.PLAYING, "")


def test_sitting_out_by_choice_gives_no_reason(seated: Table, alice: User) -> None:
    services.seat_sit_out(table_id=seated.pk, player_id=alice.pk)
    seat = Seat.objects.get(table=seated, player=alice)
    assert (seat.state, seat.sat_out_for) == (Seat.State.SITTING_OUT, "")
