"""Sitting out and back in: who is dealt the next hand."""

from __future__ import annotations

import pytest

from accounts.models import User
from tables import services
from tables.models import Seat, Table


@pytest.fixture
def three_seated(table: Table, alice: User, bob: User, carol: User) -> Table:
    """Alice (seat 1), bob (seat 2) and carol (seat 4), 200 chips each."""
    for seat_number, player in ((1, alice), (2, bob), (4, carol)):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=seat_number, buy_in=200
        )
    return table


def dealt_in(table: Table) -> list[int]:
    hand = services.hand_start(table_id=table.pk)
    return sorted(entry["player"] for entry in hand.seating["players"])


def test_a_player_sitting_out_is_dealt_out(
    three_seated: Table, alice: User, bob: User, carol: User
) -> None:
    seat = services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    assert seat.state == Seat.State.SITTING_OUT
    assert dealt_in(three_seated) == sorted([bob.pk, carol.pk])


def test_a_player_sitting_in_again_is_dealt_in(three_seated: Table, alice: User) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    seat = services.seat_sit_in(table_id=three_seated.pk, player_id=alice.pk)
    assert seat.state == Seat.State.PLAYING
    assert alice.pk in dealt_in(three_seated)


def test_sitting_in_forgives_earlier_timeouts(three_seated: Table, alice: User) -> None:
    Seat.objects.filter(player=alice).update(state=Seat.State.SITTING_OUT, timeouts_in_a_row=2)
    seat = services.seat_sit_in(table_id=three_seated.pk, player_id=alice.pk)
    assert seat.timeouts_in_a_row == 0
    seat.refresh_from_db()
    assert (seat.state, seat.timeouts_in_a_row) == (Seat.State.PLAYING, 0)


def test_sitting_out_twice_changes_nothing(three_seated: Table, alice: User) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    seat = services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    assert seat.state == Seat.State.SITTING_OUT


def test_sitting_out_mid_hand_keeps_the_player_in_that_hand(
    three_seated: Table, alice: User
) -> None:
    hand = services.hand_start(table_id=three_seated.pk)
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    hand.refresh_from_db()
    assert alice.pk in [entry["player"] for entry in hand.seating["players"]]
    assert not hand.is_finished


def test_no_hand_starts_when_too_few_are_sitting_in(
    three_seated: Table, alice: User, bob: User
) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    services.seat_sit_out(table_id=three_seated.pk, player_id=bob.pk)
    with pytest.raises(services.ServiceError, match="needs two players"):
        services.hand_start(table_id=three_seated.pk)


@pytest.mark.parametrize("service", [services.seat_sit_out, services.seat_sit_in])
def test_a_player_without_a_seat_is_refused(service, table: Table, alice: User) -> None:
    with pytest.raises(services.ServiceError, match="has no seat"):
        service(table_id=table.pk, player_id=alice.pk)
