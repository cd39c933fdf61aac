"""Seats nobody uses are not held for good: players away from a table where no
hand is dealt are stood up after ``CARDROOM_IDLE_SEAT_SECONDS``, and a closed
table stands everyone up as soon as no hand runs there.

Personas: alice (seat 1) and bob (seat 2) play heads up. In the bust, alice
loses every chip to bob at pot limit; then both close their browsers, and
no hand can be dealt: one player has chips. carol is in line for a seat.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from tables import services, tasks
from tables.models import Hand, Seat, Table, WaitingPlayer
from tests.tables.conftest import bet_and_call, forbid_hand_read_back, play_out
from tests.tables.test_big_bet_hands import POT_LIMIT_HAND, STACK, big_bet_table, deal, play

pytestmark = pytest.mark.django_db

IDLE = timedelta(minutes=5)  # the setting's default


def away(table: Table, *players: User, now: datetime) -> None:
    """Each player's only tab at the table opens, then closes at ``now``."""
    for player in players:
        channel = f"tab-{player.pk}"
        services.connection_open(table_id=table.pk, player_id=player.pk, channel_name=channel)
        services.connection_close(
            table_id=table.pk, player_id=player.pk, channel_name=channel, now=now
        )


def seated_names(table: Table) -> list[str]:
    return sorted(Seat.objects.filter(table=table).values_list("player__username", flat=True))


def balance(player: User) -> int:
    return User.objects.values_list("balance", flat=True).get(pk=player.pk)


def assert_audit_balances() -> None:
    call_command("audit_chips")  # raises CommandError when a chip is unaccounted for


@pytest.fixture
def bust(alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> Table:
    """Alice lost her whole stack to bob; the table can't deal: only bob has chips."""
    dealt = deal(big_bet_table("pot"), alice, bob, monkeypatch)
    hand = play(dealt, POT_LIMIT_HAND, {"alice": alice, "bob": bob})
    assert hand.is_finished
    assert dict(Seat.objects.values_list("player__username", "stack")) == {
        "alice": 0,
        "bob": 2 * STACK,
    }
    return hand.table


def test_players_who_left_a_table_that_cant_deal_are_stood_up_after_the_set_time(
    bust: Table, alice: User, bob: User, grant: int
) -> None:
    gone = timezone.now()
    away(bust, alice, bob, now=gone)
    assert services.seats_stand_up_idle(now=gone + IDLE - timedelta(seconds=1)) == 0
    assert seated_names(bust) == ["alice", "bob"]

    assert services.seats_stand_up_idle(now=gone + IDLE) == 2
    assert seated_names(bust) == []
    assert (balance(alice), balance(bob)) == (grant - STACK, grant + STACK)
    assert_audit_balances()


def test_the_time_away_counts_from_going_away_not_from_sitting_down(
    bust: Table, alice: User, bob: User
) -> None:
    Seat.objects.update(joined_at=timezone.now() - timedelta(hours=3))
    Hand.objects.update(ended_at=timezone.now() - timedelta(hours=2))
    gone = timezone.now()
    away(bust, alice, bob, now=gone)
    assert services.seats_stand_up_idle(now=gone + timedelta(minutes=1)) == 0
    assert seated_names(bust) == ["alice", "bob"]


def test_the_time_counts_from_the_last_hand_if_it_ended_later(
    seated: Table, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = timezone.now() - timedelta(hours=1)
    hand = services.hand_start(table_id=seated.pk)
    away(seated, alice, now=gone)  # she left during the hand, which played on without her
    ended = timezone.now()
    play_out(hand, bet_and_call, now=ended)
    forbid_hand_read_back(monkeypatch)  # the sweep reads the last hand in one query
    assert services.seats_stand_up_idle(now=ended + IDLE - timedelta(seconds=1)) == 0
    assert services.seats_stand_up_idle(now=ended + IDLE) == 1
    assert seated_names(seated) == ["bob"]  # still there: his page is open


def test_a_player_sitting_out_is_stood_up_and_one_playing_is_not(
    seated: Table, alice: User, bob: User, grant: int
) -> None:
    sat_out = timezone.now()
    services.seat_sit_out(table_id=seated.pk, player_id=alice.pk, now=sat_out)
    assert services.seats_stand_up_idle(now=sat_out + IDLE) == 1
    assert seated_names(seated) == ["bob"]
    assert balance(alice) == grant  # her 200 chips are back
    # Sitting in again forgets the time away: bob sits out, in, and out again.
    services.seat_sit_out(table_id=seated.pk, player_id=bob.pk, now=sat_out)
    services.seat_sit_in(table_id=seated.pk, player_id=bob.pk)
    services.seat_sit_out(table_id=seated.pk, player_id=bob.pk, now=sat_out + IDLE)
    assert services.seats_stand_up_idle(now=sat_out + IDLE + timedelta(minutes=4)) == 0
    assert seated_names(seated) == ["bob"]


def test_a_player_back_before_the_time_keeps_the_seat(bust: Table, alice: User) -> None:
    gone = timezone.now()
    away(bust, alice, now=gone)
    services.connection_open(table_id=bust.pk, player_id=alice.pk, channel_name="back")
    assert services.seats_stand_up_idle(now=gone + IDLE) == 0
    assert Seat.objects.get(player=alice).state == Seat.State.PLAYING


def test_no_seat_is_stood_up_while_a_hand_runs(seated: Table, alice: User, bob: User) -> None:
    services.hand_start(table_id=seated.pk)
    away(seated, alice, bob, now=timezone.now() - timedelta(hours=1))
    assert services.seats_stand_up_idle(now=timezone.now() + timedelta(hours=1)) == 0
    assert seated_names(seated) == ["alice", "bob"]


def test_the_time_is_a_setting(bust: Table, alice: User, bob: User, settings: Any) -> None:
    settings.CARDROOM_IDLE_SEAT_SECONDS = 60
    gone = timezone.now()
    away(bust, alice, bob, now=gone)
    assert services.seats_stand_up_idle(now=gone + timedelta(seconds=60)) == 2


def test_a_seat_freed_this_way_is_offered_to_the_waiting_list(
    seated: Table, alice: User, carol: User
) -> None:
    seated.stakes.seats = 2
    seated.stakes.save(update_fields=["seats"])
    services.waiting_join(table_id=seated.pk, player_id=carol.pk)
    gone = timezone.now()
    away(seated, alice, now=gone)
    assert services.seats_stand_up_idle(now=gone + IDLE) == 1
    assert WaitingPlayer.objects.get(player=carol).offered_seat == 1


@pytest.mark.django_db(transaction=True)
def test_beat_runs_the_sweep_task_and_the_table_is_told(
    bust: Table, alice: User, bob: User, settings: Any
) -> None:
    """The task stands them up through the service, and a page open on the
    table (an observer's) sees the seats empty."""
    from tests.tables.test_consumers import room, run

    schedule = settings.CELERY_BEAT_SCHEDULE["stand-up-idle-seats"]
    assert schedule["task"] == tasks.stand_up_idle_seats.name
    Hand.objects.update(ended_at=timezone.now() - 2 * IDLE)  # the bust, long ago
    away(bust, alice, bob, now=timezone.now() - IDLE)

    async def scenario() -> None:
        async with room() as join:
            observer = await join(bust.pk)
            assert len(observer.last_snapshot["table"]["seats"]) == 2
            assert await database_sync_to_async(tasks.stand_up_idle_seats)() == 2
            assert (await observer.receive_snapshot())["table"]["seats"] == []

    run(scenario)
    assert_audit_balances()


# ------------------------------------------------------------ closed tables


def test_closing_a_table_between_hands_stands_everyone_up_at_once(
    seated: Table, alice: User, bob: User, grant: int
) -> None:
    play_out(services.hand_start(table_id=seated.pk), bet_and_call)
    stacks = dict(Seat.objects.values_list("player_id", "stack"))
    services.table_close(table_id=seated.pk)
    assert seated_names(seated) == []
    # Each stack, as the hand left it, is back in its player's balance.
    assert balance(alice) == grant - 200 + stacks[alice.pk]
    assert balance(bob) == grant - 200 + stacks[bob.pk]
    assert_audit_balances()


def test_closing_a_full_table_empties_its_waiting_list(
    seated: Table, alice: User, carol: User
) -> None:
    seated.stakes.seats = 2
    seated.stakes.save(update_fields=["seats"])
    services.waiting_join(table_id=seated.pk, player_id=carol.pk)
    services.table_close(table_id=seated.pk)
    assert not WaitingPlayer.objects.exists()  # no seat is offered at a closed table
    assert seated_names(seated) == []


def test_closing_during_a_hand_stands_everyone_up_as_it_ends(
    seated: Table, alice: User, bob: User
) -> None:
    hand = services.hand_start(table_id=seated.pk)
    away(seated, alice, now=timezone.now())  # disconnected players too
    services.table_close(table_id=seated.pk)
    assert seated_names(seated) == ["alice", "bob"]  # the hand plays on
    play_out(hand, bet_and_call)
    assert seated_names(seated) == []
    assert_audit_balances()


@pytest.mark.parametrize(
    ("service", "fields"),
    [
        (services.seat_top_up, {"amount": 10}),
        (services.seat_auto_rebuy_set, {"amount": 300}),
        (services.seat_auto_rebuy_set, {"amount": None}),
    ],
)
def test_a_closed_table_refuses_chips_while_its_last_hand_plays(
    seated: Table, alice: User, service: Any, fields: dict[str, Any]
) -> None:
    services.hand_start(table_id=seated.pk)
    services.table_close(table_id=seated.pk)
    before = list(Seat.objects.values_list("stack", "auto_rebuy_to"))
    with pytest.raises(services.ServiceError, match="Table 1 is closed, so you can't"):
        service(table_id=seated.pk, player_id=alice.pk, **fields)
    assert list(Seat.objects.values_list("stack", "auto_rebuy_to")) == before


def test_a_closed_table_refuses_a_rebuy(bust: Table, alice: User) -> None:
    Table.objects.filter(pk=bust.pk).update(is_open=False)  # closed before this was done
    with pytest.raises(services.ServiceError, match="is closed, so you can't rebuy"):
        services.seat_rebuy(table_id=bust.pk, player_id=alice.pk, amount=500)
    assert Seat.objects.get(player=alice).stack == 0


def test_the_sweep_stands_up_seats_left_at_a_closed_table(
    seated: Table, alice: User, bob: User
) -> None:
    Table.objects.filter(pk=seated.pk).update(is_open=False)  # closed before this was done
    assert services.seats_stand_up_idle() == 2
    assert seated_names(seated) == []
    assert_audit_balances()
