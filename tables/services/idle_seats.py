"""Standing up the seats of players long away from tables that deal no hand."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from tables.models import Hand, Seat
from tables.services.common import SWEEP_BATCH, _last_hand, _lock_table, _tables_sweep
from tables.services.seats import _seat_stand_up, _seats_stand_up_all

# A seat whose player has gone: disconnected, or sitting out.
AWAY_STATES = (Seat.State.DISCONNECTED, Seat.State.SITTING_OUT)


def idle_seat_time() -> timedelta:
    """How long a player away from a table that deals no hand keeps their seat:
    ``CARDROOM_IDLE_SEAT_SECONDS``, read now (five minutes by default)."""
    return timedelta(seconds=settings.CARDROOM_IDLE_SEAT_SECONDS)


def seats_stand_up_idle(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Stand up the seats held by nobody at tables where no hand is dealt; how many.

    Run by beat's sweep. A player away (disconnected or sitting out) is stood
    up, chips back in their balance, once :func:`idle_seat_time` has passed
    both since they went away and since the table's last hand ended, with no
    hand running: so a table that can't deal (one player left with chips, or
    nobody there) holds no seat for good, while a short break between hands
    costs nobody theirs. Where hands are dealt the stakes' ``sit_out_hands``
    stands up a seat sitting out instead, and a disconnected player is dealt
    in and sat out by the clock. At a closed table with no hand running every
    seat is stood up, as :func:`tables.services.tables.table_close` and the
    end of its last hand do. Each table is its own transaction, and
    ``on_changed`` is called with the table's id after it.
    """
    now = now or timezone.now()
    tables = list(_tables_with_idle_seats(now)[:SWEEP_BATCH])
    return _tables_sweep(
        tables, lambda table_id: _seats_stand_up_idle_at(table_id, now), on_changed
    )


def _tables_with_idle_seats(now: datetime) -> QuerySet[Seat, int]:
    """The tables with a seat for :func:`seats_stand_up_idle` to stand up, by id.

    Each table's latest hand, the one that may be running, is found through
    its unique (table, number) index.
    """
    cutoff = now - idle_seat_time()
    latest = Hand.objects.filter(table=OuterRef("table_id")).order_by("-number")
    seats = Seat.objects.annotate(
        dealt=Exists(latest),
        last_ended=Subquery(latest.values("ended_at")[:1]),
        away_from=Coalesce("away_since", "joined_at"),  # no time kept: since it sat down
    )
    idle = Q(dealt=False) | Q(last_ended__lte=cutoff)
    no_hand_running = Q(dealt=False) | Q(last_ended__isnull=False)
    away = Q(state__in=AWAY_STATES, away_from__lte=cutoff) & idle
    closed = Q(table__is_open=False) & no_hand_running
    wanted = seats.filter(away | closed).order_by("table_id")
    return wanted.values_list("table_id", flat=True).distinct()


@transaction.atomic
def _seats_stand_up_idle_at(table_id: int, now: datetime) -> int:
    """Stand up the table's idle seats, checked again under its lock; how many."""
    table = _lock_table(table_id)
    last = _last_hand(table, "ended_at")
    if last is not None and last.ended_at is None:
        return 0  # a hand was dealt meanwhile
    if not table.is_open:
        return _seats_stand_up_all(table)
    cutoff = now - idle_seat_time()
    if last is not None and last.ended_at is not None and last.ended_at > cutoff:
        return 0
    away = Seat.objects.filter(table=table, state__in=AWAY_STATES)
    seats = list(
        away.annotate(away_from=Coalesce("away_since", "joined_at")).filter(away_from__lte=cutoff)
    )
    for seat in seats:
        _seat_stand_up(table, seat)
    return len(seats)
