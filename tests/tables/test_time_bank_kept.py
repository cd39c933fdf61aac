"""A time bank is the player's at the table, not the seat's.

With the time bank clock, a player who has spent their bank must not get a
whole one by standing up and sitting down again. Whichever way they leave the
seat (leaving between hands, leaving during a hand, being stood up after
sitting out too long), the bank and the progress towards its next refill are
kept, and they are theirs again when they sit down at the same table within
``CARDROOM_TIME_BANK_KEPT_SECONDS`` (two hours by default), in any seat.

Personas: alice and bob, heads up with 200 chips each (the ``seated``
table); ``spend`` has one of them take 6 of their 20 bank seconds, and that
player is the one who leaves and comes back. carol sits in when a test needs a
third player. The decks are shuffled, so every assertion holds whoever is to act.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db.models import F

from accounts.models import User
from tables import services
from tables.models import KeptTimeBank, Seat, Stakes, Table
from tests.tables.clock import ACTION, T0, act, seat_of, seconds, start
from tests.tables.conftest import player_to_act, session_of
from tests.tables.test_consumers import room, run, sit
from tests.tables.test_turn_clock import check_until_turn_of, extra_time, use_time_bank

pytestmark = pytest.mark.django_db

SPENT = seconds(6)  # what ``spend`` takes from the 20-second bank
TWO_HOURS = timedelta(hours=2)  # how long a bank is kept by default


def spend(table: Table, now: datetime = T0) -> int:
    """Play a hand dealt at ``now`` in which the first to act bets 6 seconds into
    their bank and the other folds at once; the spender's id.

    Both players have been dealt one hand towards their next refill.
    """
    hand = start(table, now)
    spender = player_to_act(hand)
    at = now + ACTION + SPENT
    act(hand, "bet", at, amount=5)
    act(hand, "fold", at)
    return spender


def sit_again(table: Table, player_id: int, seat_number: int = 3) -> Seat:
    services.seat_take(table_id=table.pk, player_id=player_id, seat_number=seat_number, buy_in=200)
    return seat_of(table, player_id)


def bank_of(seat: Seat) -> tuple[int | None, int]:
    return seat.time_bank_ms, seat.hands_since_refill


def left_earlier(by: timedelta) -> None:
    """Move every kept bank's stand-up ``by`` into the past: time away from the table."""
    KeptTimeBank.objects.update(left_at=F("left_at") - by)


@pytest.fixture
def banked(no_bring_in: Stakes, seated: Table) -> Table:
    """Alice and bob heads up with a time bank, refilled by 5 seconds every 2 hands."""
    use_time_bank(no_bring_in, refill_seconds=5, refill_hands=2)
    return seated


def test_a_player_back_in_a_seat_has_the_bank_they_stood_up_with(banked: Table) -> None:
    spender = spend(banked)
    assert services.seat_leave(table_id=banked.pk, player_id=spender)  # cashed out at once
    assert bank_of(sit_again(banked, spender)) == (14_000, 1)


def test_the_refill_counts_on_from_where_it_was_when_they_left(banked: Table) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    sit_again(banked, spender)
    # The second hand dealt to them since the bank was whole refills it: 14 + 5.
    at = T0 + seconds(60)
    hand = check_until_turn_of(start(banked, at), spender, at)
    assert extra_time(hand) == seconds(19)


def test_leaving_during_a_hand_keeps_the_bank_as_the_hand_left_it(banked: Table) -> None:
    hand = start(banked)
    spender = player_to_act(hand)
    at = T0 + ACTION + SPENT
    act(hand, "bet", at, amount=5)
    assert services.seat_leave(table_id=banked.pk, player_id=spender) is None  # after the hand
    act(hand, "fold", at)
    assert not Seat.objects.filter(table=banked, player_id=spender).exists()
    assert bank_of(sit_again(banked, spender)) == (14_000, 1)


def test_a_player_stood_up_for_sitting_out_keeps_their_bank(
    banked: Table, carol: User, no_bring_in: Stakes
) -> None:
    no_bring_in.sit_out_hands = 1
    no_bring_in.save(update_fields=["sit_out_hands"])
    services.seat_take(table_id=banked.pk, player_id=carol.pk, seat_number=4, buy_in=200)
    Seat.objects.filter(player=carol).update(time_bank_ms=2_500, hands_since_refill=1)
    services.seat_sit_out(table_id=banked.pk, player_id=carol.pk)
    start(banked)  # carol misses it, her limit: she is stood up
    assert not Seat.objects.filter(table=banked, player=carol).exists()
    assert bank_of(sit_again(banked, carol.pk, seat_number=4)) == (2_500, 1)


def test_sitting_out_and_back_in_keeps_the_bank_with_the_seat(banked: Table) -> None:
    spender = spend(banked)
    services.seat_sit_out(table_id=banked.pk, player_id=spender)
    services.seat_sit_in(table_id=banked.pk, player_id=spender)
    assert bank_of(seat_of(banked, spender)) == (14_000, 1)


@pytest.mark.parametrize(
    ("away", "bank"),
    [
        (TWO_HOURS - timedelta(minutes=1), (14_000, 1)),
        (TWO_HOURS + timedelta(seconds=1), (None, 0)),
    ],
    ids=["just within the window", "past it"],
)
def test_a_bank_is_kept_for_two_hours_then_whole_again(
    banked: Table, away: timedelta, bank: tuple[int | None, int]
) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    left_earlier(away)
    assert bank_of(sit_again(banked, spender)) == bank
    assert not KeptTimeBank.objects.exists()  # used, or forgotten


@pytest.mark.parametrize(
    ("kept_for", "away", "bank"),
    [
        (timedelta(minutes=10), timedelta(minutes=11), (None, 0)),
        (timedelta(hours=3), timedelta(hours=2, minutes=30), (14_000, 1)),
    ],
    ids=["a shorter window", "a longer window"],
)
def test_the_window_is_the_setting_read_when_the_player_returns(
    banked: Table,
    settings: Any,
    kept_for: timedelta,
    away: timedelta,
    bank: tuple[int | None, int],
) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    settings.CARDROOM_TIME_BANK_KEPT_SECONDS = int(kept_for.total_seconds())
    left_earlier(away)
    assert bank_of(sit_again(banked, spender)) == bank


def test_a_kept_bank_serves_one_return_and_the_next_stand_up_keeps_the_bank_then(
    banked: Table,
) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    sit_again(banked, spender)
    assert not KeptTimeBank.objects.exists()
    Seat.objects.filter(player_id=spender).update(time_bank_ms=1_000)  # spent some more
    services.seat_leave(table_id=banked.pk, player_id=spender)
    assert bank_of(sit_again(banked, spender, seat_number=5)) == (1_000, 1)


def test_a_bank_is_kept_at_its_own_table_only(banked: Table, no_bring_in: Stakes) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    elsewhere = Table.objects.create(name="Table 2", stakes=no_bring_in)
    assert bank_of(sit_again(elsewhere, spender)) == (None, 0)
    assert bank_of(sit_again(banked, spender)) == (14_000, 1)


def test_banks_kept_past_the_window_are_forgotten_when_someone_else_leaves(
    banked: Table, carol: User
) -> None:
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    left_earlier(TWO_HOURS + seconds(1))
    services.seat_take(table_id=banked.pk, player_id=carol.pk, seat_number=4, buy_in=200)
    Seat.objects.filter(player=carol).update(time_bank_ms=9_000)
    services.seat_leave(table_id=banked.pk, player_id=carol.pk)
    assert list(KeptTimeBank.objects.values_list("player_id", "time_bank_ms")) == [
        (carol.pk, 9_000)
    ]


def test_a_shorter_window_set_forgets_banks_when_someone_else_leaves(
    banked: Table, carol: User, settings: Any
) -> None:
    settings.CARDROOM_TIME_BANK_KEPT_SECONDS = 600
    spender = spend(banked)
    services.seat_leave(table_id=banked.pk, player_id=spender)
    left_earlier(timedelta(minutes=11))
    services.seat_take(table_id=banked.pk, player_id=carol.pk, seat_number=4, buy_in=200)
    Seat.objects.filter(player=carol).update(time_bank_ms=9_000)  # a bank worth keeping
    services.seat_leave(table_id=banked.pk, player_id=carol.pk)
    assert list(KeptTimeBank.objects.values_list("player_id", flat=True)) == [carol.pk]


def test_with_the_countdown_clock_standing_up_keeps_nothing(seated: Table) -> None:
    hand = start(seated)
    slow = player_to_act(hand)
    act(hand, "bring_in", T0 + ACTION + SPENT)  # into the countdown, which is stored nowhere
    act(hand, "fold", T0 + ACTION + SPENT)
    services.seat_leave(table_id=seated.pk, player_id=slow)
    assert not KeptTimeBank.objects.exists()
    assert bank_of(sit_again(seated, slow)) == (None, 0)


# ------------------------------------------------------------ the websocket


@pytest.mark.django_db(transaction=True)
def test_leaving_and_sitting_again_over_the_websocket_keeps_the_bank(
    stakes: Stakes, table: Table, alice: User
) -> None:
    use_time_bank(stakes)
    cookie = session_of(alice)

    async def scenario() -> None:
        async with room() as join:
            socket = await join(table.pk, cookie)
            await sit(socket, 1)
            await database_sync_to_async(Seat.objects.filter(player=alice).update)(
                time_bank_ms=4_000, hands_since_refill=3
            )
            await socket.send({"type": "leave"})
            assert (await socket.receive_snapshot())["table"]["seats"] == []
            await sit(socket, 2)
            seat = await database_sync_to_async(Seat.objects.get)(player=alice)
            assert (seat.number, bank_of(seat)) == (2, (4_000, 3))

    run(scenario)
