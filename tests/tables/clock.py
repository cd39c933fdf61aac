"""Driving the turn clock by hand: the services take ``now``, so tests choose it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tables import services
from tables.models import Hand, Seat, Table
from tables.services.clock import timeout_due
from tests.tables.conftest import player_to_act

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ACTION = timedelta(seconds=10)  # the stakes' default action time
EXTRA = timedelta(seconds=20)  # and their countdown (or the time bank's size)


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


def start(table: Table, now: datetime = T0) -> Hand:
    return services.hand_start(table_id=table.pk, now=now)


def act(hand: Hand, kind: str, now: datetime, amount: int | None = None) -> Hand:
    """The move of whoever is to act, made at ``now``."""
    hand.refresh_from_db()
    return services.hand_act(
        hand_id=hand.pk,
        player_id=player_to_act(hand),
        kind=kind,
        amount=amount,
        version=hand.version,
        now=now,
    )


def expire(hand: Hand, now: datetime | None = None) -> Hand | None:
    """The timeout task for the hand's current turn, run at ``now`` (default: as
    it falls due, a moment after the turn expires)."""
    hand.refresh_from_db()
    assert hand.turn_expires_at is not None
    at = timeout_due(hand.turn_expires_at) if now is None else now
    return services.hand_timeout(hand_id=hand.pk, turn=hand.version, now=at)


def seat_of(table: Table, player_id: int) -> Seat:
    return Seat.objects.get(table=table, player_id=player_id)
