"""The waiting list of a full table: joining, leaving, seats held for the first
in line, and offers that run out passing to the next.

Personas: alice (seat 1) and bob (seat 2) fill a two-seat table; carol is first
in line and dave second; erin is not on the list and must not jump it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.bots import Bot
from tables.models import Seat, Stakes, Table, WaitingPlayer
from tables.services import ServiceError
from tables.tasks import SAFETY_NETS, pass_expired_seat_offers
from tests.tables.conftest import play_out
from tests.tables.test_bots import snapshot
from tests.tables.test_seat_chips import raise_everything

pytestmark = pytest.mark.django_db

OFFER_SECONDS = 30


@pytest.fixture(autouse=True)
def offer_seconds(settings: Any) -> None:
    settings.CARDROOM_SEAT_OFFER_SECONDS = OFFER_SECONDS


@pytest.fixture
def erin(db: None, quick_passwords: None) -> User:
    """Not on the list: a seat held for someone else is not hers to take."""
    return user_signup(username="erin", password="erin-pw-1234")


@pytest.fixture
def full(stakes: Stakes, table: Table, alice: User, bob: User) -> Table:
    """A two-seat table with alice in seat 1 and bob in seat 2."""
    stakes.seats = 2
    stakes.save(update_fields=["seats"])
    for player, number in ((alice, 1), (bob, 2)):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    return table


def line(table: Table) -> list[tuple[str, int | None]]:
    """Who waits, in order, and the seat each is offered."""
    rows = WaitingPlayer.objects.filter(table=table).order_by("joined_at", "pk")
    return list(rows.values_list("player__username", "offered_seat"))


def join(table: Table, *players: User) -> None:
    for player in players:
        services.waiting_join(table_id=table.pk, player_id=player.pk)


def leave_seat(table: Table, player: User) -> None:
    services.seat_leave(table_id=table.pk, player_id=player.pk)


# ----------------------------------------------------------------- joining


def test_players_join_a_full_table_in_the_order_they_came(
    full: Table, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    assert line(full) == [("carol", None), ("dave", None)]


def test_joining_when_a_seat_is_free_is_refused(table: Table, alice: User, carol: User) -> None:
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    with pytest.raises(ServiceError, match="seat 2 at Table 1 is free: sit there instead"):
        join(table, carol)
    assert line(table) == []


def test_joining_a_list_you_are_already_on_is_refused(full: Table, carol: User) -> None:
    join(full, carol)
    with pytest.raises(ServiceError, match="you are already on the waiting list at Table 1"):
        join(full, carol)
    assert line(full) == [("carol", None)]


def test_joining_the_list_of_a_table_you_sit_at_is_refused(full: Table, alice: User) -> None:
    with pytest.raises(ServiceError, match="you already have a seat at Table 1"):
        join(full, alice)
    assert line(full) == []


def test_joining_the_list_of_a_closed_table_is_refused(full: Table, carol: User) -> None:
    services.table_close(table_id=full.pk)
    with pytest.raises(ServiceError, match="Table 1 is closed"):
        join(full, carol)


def test_joining_when_the_only_free_seat_is_held_is_allowed(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol)
    leave_seat(full, alice)
    join(full, dave)
    assert line(full) == [("carol", 1), ("dave", None)]


# ----------------------------------------------------------------- leaving


def test_a_player_leaves_the_list(full: Table, carol: User, dave: User) -> None:
    join(full, carol, dave)
    services.waiting_leave(table_id=full.pk, player_id=carol.pk)
    assert line(full) == [("dave", None)]


def test_leaving_a_list_you_are_not_on_is_refused(full: Table, carol: User) -> None:
    with pytest.raises(ServiceError, match="you are not on the waiting list at Table 1"):
        services.waiting_leave(table_id=full.pk, player_id=carol.pk)


def test_declining_an_offer_passes_the_seat_to_the_next_in_line(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    services.waiting_leave(table_id=full.pk, player_id=carol.pk)
    assert line(full) == [("dave", 1)]


# ------------------------------------------------------------------ offers


def test_a_freed_seat_is_offered_to_the_first_in_line_for_a_while(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    before = timezone.now()
    leave_seat(full, alice)
    assert line(full) == [("carol", 1), ("dave", None)]
    expires = WaitingPlayer.objects.get(player=carol).offer_expires_at
    assert before + timedelta(seconds=OFFER_SECONDS) <= expires
    assert expires <= timezone.now() + timedelta(seconds=OFFER_SECONDS)


def test_a_seat_freed_after_a_hand_is_offered_when_its_player_stands_up(
    full: Table, alice: User, carol: User
) -> None:
    join(full, carol)
    hand = services.hand_start(table_id=full.pk)
    leave_seat(full, alice)  # dealt in: she leaves when the hand ends
    assert line(full) == [("carol", None)]
    play_out(hand, raise_everything)
    assert line(full) == [("carol", 1)]


def test_a_held_seat_is_refused_to_another_player_on_the_list(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    with pytest.raises(
        ServiceError, match="seat 1 is held for the next player on the waiting list"
    ):
        services.seat_take(table_id=full.pk, player_id=dave.pk, seat_number=1, buy_in=200)
    assert not Seat.objects.filter(table=full, number=1).exists()


def test_a_held_seat_is_refused_to_a_player_not_on_the_list(
    full: Table, alice: User, carol: User, erin: User
) -> None:
    join(full, carol)
    leave_seat(full, alice)
    erin_balance = User.objects.get(pk=erin.pk).balance
    with pytest.raises(ServiceError, match="seat 1 is held for the next player"):
        services.seat_take(table_id=full.pk, player_id=erin.pk, seat_number=1, buy_in=200)
    assert User.objects.get(pk=erin.pk).balance == erin_balance


def test_the_offered_player_sits_and_leaves_the_list(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    services.seat_take(table_id=full.pk, player_id=carol.pk, seat_number=1, buy_in=200)
    assert Seat.objects.get(table=full, number=1).player_id == carol.pk
    assert line(full) == [("dave", None)]


def test_two_freed_seats_go_to_the_first_two_in_line(
    full: Table, alice: User, bob: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, bob)
    leave_seat(full, alice)
    assert line(full) == [("carol", 2), ("dave", 1)]


def test_an_expired_offer_passes_to_the_next_in_line(
    full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    changed: list[int] = []
    later = timezone.now() + timedelta(seconds=OFFER_SECONDS + 1)
    assert services.waiting_offers_expire(now=later, on_changed=changed.append) == 1
    assert changed == [full.pk]
    assert line(full) == [("dave", 1)]
    dave_offer = WaitingPlayer.objects.get(player=dave).offer_expires_at
    assert dave_offer == later + timedelta(seconds=OFFER_SECONDS)
    services.seat_take(table_id=full.pk, player_id=dave.pk, seat_number=1, buy_in=200)
    with pytest.raises(ServiceError, match="seat 1 at Table 1 is taken"):
        services.seat_take(table_id=full.pk, player_id=carol.pk, seat_number=1, buy_in=200)


def test_an_offer_still_running_is_left_alone(full: Table, alice: User, carol: User) -> None:
    join(full, carol)
    leave_seat(full, alice)
    changed: list[int] = []
    soon = timezone.now() + timedelta(seconds=OFFER_SECONDS - 5)
    assert services.waiting_offers_expire(now=soon, on_changed=changed.append) == 0
    assert changed == [] and line(full) == [("carol", 1)]


def test_an_expired_offer_with_nobody_next_frees_the_seat(
    full: Table, alice: User, carol: User, erin: User
) -> None:
    join(full, carol)
    leave_seat(full, alice)
    later = timezone.now() + timedelta(seconds=OFFER_SECONDS + 1)
    assert services.waiting_offers_expire(now=later) == 1
    assert line(full) == []
    services.seat_take(table_id=full.pk, player_id=erin.pk, seat_number=1, buy_in=200)


def test_the_sweep_that_passes_offers_runs_on_the_beat_schedule(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-safety-nets"]
    assert entry["task"] == "tables.tasks.sweep_safety_nets"
    assert entry["schedule"] == float(settings.CARDROOM_TURN_SWEEP_SECONDS)
    assert pass_expired_seat_offers in SAFETY_NETS


def test_the_sweep_task_passes_offers(full: Table, alice: User, carol: User, dave: User) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    WaitingPlayer.objects.filter(player=carol).update(
        offer_expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert pass_expired_seat_offers() == 1
    assert line(full) == [("dave", 1)]


def test_staff_see_the_waiting_list_and_offers_on_the_table_page(
    admin_client: Client, full: Table, alice: User, carol: User, dave: User
) -> None:
    join(full, carol, dave)
    leave_seat(full, alice)
    page = admin_client.get(reverse("admin:tables_table_change", args=[full.pk])).content.decode()
    assert "Waiting players" in page
    assert page.index("carol") < page.index("dave")
    assert "Offered seat" in page


def test_a_bot_does_not_try_a_seat_held_for_the_waiting_list() -> None:
    held = snapshot(None)  # seat 3 is bob's; 1 and 2 look free
    held["table"]["held_seats"] = [1]
    bot = Bot(name="bot-1", cookie="", url="ws://x", table_id=1, buy_in=100, seats=3)
    for _ in range(20):
        bot.asked = None
        reply = bot.answer(held)
        assert reply is not None and reply["seat"] == 2
