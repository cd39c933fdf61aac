"""The waiting list of a full table, and the seats offered to it in turn."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.models import Seat, Table, WaitingPlayer
from tables.services.common import SWEEP_BATCH, ServiceError, _lock_table, _tables_sweep


@transaction.atomic
def waiting_join(*, table_id: int, player_id: int) -> WaitingPlayer:
    """Put the player at the end of the table's waiting list.

    Only at a full table: every seat taken or held for someone on the list;
    never at a home game whose host approves each seat.
    """
    table = _lock_table(table_id)
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed")
    if Seat.objects.filter(table=table, player_id=player_id).exists():
        raise ServiceError(f"you already have a seat at {table.name}")
    if WaitingPlayer.objects.filter(table=table, player_id=player_id).exists():
        raise ServiceError(f"you are already on the waiting list at {table.name}")
    if table.seat_approval:
        raise ServiceError(
            f"{table.name}'s host approves each seat, so it keeps no waiting list: "
            "ask them for a seat when one frees"
        )
    free = _seats_free(table)
    if free:
        raise ServiceError(f"seat {free[0]} at {table.name} is free: sit there instead")
    return WaitingPlayer.objects.create(table=table, player_id=player_id)


@transaction.atomic
def waiting_leave(*, table_id: int, player_id: int) -> None:
    """Take the player off the table's waiting list; a seat held for them passes on."""
    table = _lock_table(table_id)
    mine = WaitingPlayer.objects.filter(table=table, player_id=player_id)
    if not mine.delete()[0]:
        raise ServiceError(f"you are not on the waiting list at {table.name}")
    _seats_offer(table, timezone.now())


def waiting_offers_expire(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Pass every seat offer that ran out to the next in line; how many ran out.

    Run by beat's sweep every few seconds. A player whose offer ran out leaves
    the list. Each table is its own transaction, and ``on_changed`` is called
    with the table's id after it.
    """
    now = now or timezone.now()
    expired = WaitingPlayer.objects.filter(offer_expires_at__lte=now)
    tables = expired.order_by("table_id").values_list("table_id", flat=True).distinct()
    return _tables_sweep(
        list(tables[:SWEEP_BATCH]),
        lambda table_id: _waiting_offers_expire_at(table_id, now),
        on_changed,
    )


@transaction.atomic
def _waiting_offers_expire_at(table_id: int, now: datetime) -> int:
    table = _lock_table(table_id)
    # Read again under the lock: the player may have sat down meanwhile.
    count, _ = WaitingPlayer.objects.filter(table=table, offer_expires_at__lte=now).delete()
    _seats_offer(table, now)
    return count


def _seats_offer(table: Table, now: datetime) -> None:
    """Offer each free seat not yet held to the next player in line with no offer.

    Called whenever a seat may have freed or an offer ended; with nobody
    waiting (as at most tables) it costs one query and changes nothing.
    """
    if not table.is_open:  # nobody new sits at a closed table
        return
    line = WaitingPlayer.objects.filter(table=table, offered_seat__isnull=True)
    waiting = list(line.order_by("joined_at", "pk")[: table.stakes.seats])
    if not waiting:
        return
    expires = now + timedelta(seconds=settings.CARDROOM_SEAT_OFFER_SECONDS)
    for number, player in zip(_seats_free(table), waiting, strict=False):
        player.offered_seat, player.offer_expires_at = number, expires
        player.save(update_fields=["offered_seat", "offer_expires_at"])


def _seats_free(table: Table) -> list[int]:
    """The table's seat numbers that nobody sits in and no offer holds, lowest first."""
    # Of int | None, as offered_seat is nullable, though no held offer's is null.
    taken: set[int | None] = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    held = WaitingPlayer.objects.filter(table=table, offered_seat__isnull=False)
    taken.update(held.values_list("offered_seat", flat=True))
    return [n for n in range(1, table.stakes.seats + 1) if n not in taken]
