"""Sitting out and back in: who is dealt the next hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import ChipTransfer, User
from tables import services
from tables.models import Hand, Seat, Stakes, Table
from tables.selectors.snapshots import build_snapshot, read_table
from tests.tables.conftest import bet_and_call, play_out, player_to_act


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


def seat_seen(table: Table, viewer: User | None, number: int) -> tuple[dict, dict | None]:
    """Seat ``number`` as ``viewer``'s snapshot shows it (None: an observer), and
    the snapshot's part for the viewer alone."""
    snapshot = build_snapshot(read_table(table.pk), viewer and viewer.pk, None, with_events=False)
    seat = next(s for s in snapshot.payload["table"]["seats"] if s["number"] == number)
    return seat, snapshot.payload["you"]


def test_sitting_out_mid_hand_shows_only_to_the_player_until_the_hand_ends(
    three_seated: Table, alice: User, bob: User, carol: User
) -> None:
    hand = services.hand_start(table_id=three_seated.pk)
    seat = services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    assert (seat.state, seat.sitting_out_next) == (Seat.State.PLAYING, True)
    # Bob and an observer see a seat in the hand like any other; alice is told.
    for viewer in (bob, None):
        seen, you = seat_seen(three_seated, viewer, 1)
        assert (seen["state"], seen["sat_out_for"]) == ("playing", None)
        assert you is None or you["sitting_out_next"] is False
    assert seat_seen(three_seated, alice, 1)[1]["sitting_out_next"] is True

    play_out(hand, bet_and_call)  # she plays it out, and sits out once it ends
    seat = Seat.objects.get(player=alice)
    assert (seat.state, seat.sitting_out_next) == (Seat.State.SITTING_OUT, False)
    assert seat.away_since == Hand.objects.get(pk=hand.pk).ended_at
    for viewer in (bob, None):
        assert seat_seen(three_seated, viewer, 1)[0]["state"] == "sitting_out"
    assert alice.pk not in dealt_in(three_seated)


def test_sitting_in_again_mid_hand_takes_back_the_sit_out(three_seated: Table, alice: User) -> None:
    hand = services.hand_start(table_id=three_seated.pk)
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    services.seat_sit_in(table_id=three_seated.pk, player_id=alice.pk)
    assert seat_seen(three_seated, alice, 1)[1]["sitting_out_next"] is False
    play_out(hand, bet_and_call)
    assert Seat.objects.get(player=alice).state == Seat.State.PLAYING
    assert alice.pk in dealt_in(three_seated)


def test_a_player_not_dealt_into_the_hand_sits_out_at_once(
    three_seated: Table, carol: User
) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=carol.pk)
    services.hand_start(table_id=three_seated.pk)  # without her
    services.seat_sit_in(table_id=three_seated.pk, player_id=carol.pk)
    seat = services.seat_sit_out(table_id=three_seated.pk, player_id=carol.pk)
    assert (seat.state, seat.sitting_out_next) == (Seat.State.SITTING_OUT, False)


def test_no_hand_starts_when_too_few_are_sitting_in(
    three_seated: Table, alice: User, bob: User
) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    services.seat_sit_out(table_id=three_seated.pk, player_id=bob.pk)
    with pytest.raises(services.ServiceError, match="needs two players"):
        services.hand_start(table_id=three_seated.pk)


@pytest.mark.parametrize("service", [services.seat_sit_out, services.seat_sit_in])
def test_a_player_without_a_seat_is_refused(service, table: Table, alice: User) -> None:
    with pytest.raises(services.ServiceError, match="you have no seat at Table 1"):
        service(table_id=table.pk, player_id=alice.pk)


# ------------------------------------------------ standing up after missed hands


def hands_played(table: Table, count: int) -> None:
    """Deal and play ``count`` hands to the end, passively."""
    for _ in range(count):
        play_out(services.hand_start(table_id=table.pk), bet_and_call)


def test_a_player_sitting_out_for_the_stakes_limit_is_stood_up_with_their_chips(
    three_seated: Table, alice: User
) -> None:
    Stakes.objects.filter(pk=three_seated.stakes_id).update(sit_out_hands=3)
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    balance = User.objects.get(pk=alice.pk).balance

    hands_played(three_seated, 2)
    assert Seat.objects.get(player=alice).hands_missed == 2
    hands_played(three_seated, 1)

    assert not Seat.objects.filter(player=alice).exists()
    cash_out = ChipTransfer.objects.filter(user=alice, kind=ChipTransfer.Kind.CASH_OUT).get()
    assert cash_out.amount == 200
    assert User.objects.get(pk=alice.pk).balance == balance + 200


def test_sitting_in_before_the_limit_resets_the_count(three_seated: Table, alice: User) -> None:
    Stakes.objects.filter(pk=three_seated.stakes_id).update(sit_out_hands=3)
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    hands_played(three_seated, 2)
    services.seat_sit_in(table_id=three_seated.pk, player_id=alice.pk)
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    hands_played(three_seated, 2)
    assert Seat.objects.get(player=alice).hands_missed == 2


def test_a_seat_dealt_in_has_missed_no_hands(three_seated: Table, alice: User) -> None:
    Seat.objects.filter(player=alice).update(hands_missed=4)
    hands_played(three_seated, 1)
    assert Seat.objects.get(player=alice).hands_missed == 0


# ------------------------------------------------------ disconnecting and back


def drop(table: Table, player_id: int) -> bool:
    """The player's only socket at the table closes; whether their seat changed."""
    return services.connection_close(table_id=table.pk, player_id=player_id, channel_name="tab")


def back(table: Table, player_id: int) -> bool:
    """The player opens the table again; whether their seat changed."""
    return services.connection_open(table_id=table.pk, player_id=player_id, channel_name="tab")


def test_a_disconnected_player_is_still_dealt_in(three_seated: Table, alice: User) -> None:
    assert drop(three_seated, alice.pk)
    assert Seat.objects.get(player=alice).state == Seat.State.DISCONNECTED
    assert alice.pk in dealt_in(three_seated)


def test_a_player_sitting_out_stays_so_when_their_socket_closes(
    three_seated: Table, alice: User
) -> None:
    services.seat_sit_out(table_id=three_seated.pk, player_id=alice.pk)
    assert not drop(three_seated, alice.pk)
    assert not back(three_seated, alice.pk)
    assert Seat.objects.get(player=alice).state == Seat.State.SITTING_OUT


def test_reconnecting_on_your_turn_extends_it_once_per_hand(
    three_seated: Table, settings: Any
) -> None:
    settings.CARDROOM_RECONNECT_EXTENSION_SECONDS = 20
    hand = services.hand_start(table_id=three_seated.pk)
    player = player_to_act(hand)
    expires = Hand.objects.get(pk=hand.pk).turn_expires_at

    drop(three_seated, player)
    assert back(three_seated, player)
    assert Hand.objects.get(pk=hand.pk).turn_expires_at == expires + timedelta(seconds=20)
    assert Seat.objects.get(player_id=player).state == Seat.State.PLAYING

    drop(three_seated, player)
    assert back(three_seated, player)
    assert Hand.objects.get(pk=hand.pk).turn_expires_at == expires + timedelta(seconds=20)


def test_reconnecting_when_it_is_not_your_turn_adds_no_time(three_seated: Table) -> None:
    hand = services.hand_start(table_id=three_seated.pk)
    waiting = next(
        entry["player"]
        for entry in hand.seating["players"]
        if entry["player"] != player_to_act(hand)
    )
    expires = Hand.objects.get(pk=hand.pk).turn_expires_at
    drop(three_seated, waiting)
    assert back(three_seated, waiting)
    assert Hand.objects.get(pk=hand.pk).turn_expires_at == expires
