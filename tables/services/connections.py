"""Players' open websockets at a table, and the seats they show connected or not."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from tables.models import Seat, Table, TableConnection
from tables.services.clock import hand_reconnect
from tables.services.common import SWEEP_BATCH, _lock_table, _unfinished_hand

# Each Daphne process vouches for its players' open websockets (TableConnection
# rows) this often; a row not vouched for in CONNECTION_STALE_SECONDS belongs to
# a process that is gone, and counts for nothing. Three beats, so one slow beat
# never makes a live socket look gone.
CONNECTION_HEARTBEAT_SECONDS = 10
CONNECTION_STALE_SECONDS = 30


@transaction.atomic
def connection_open(
    *, table_id: int, player_id: int, channel_name: str, now: datetime | None = None
) -> bool:
    """Count a player's new websocket at the table; whether their seat changed.

    A seat shown disconnected is playing again, and if the hand in progress is
    waiting on them with time left, they also get :func:`hand_reconnect`'s
    extension, once per hand. A seat sitting out stays so.
    """
    now = now or timezone.now()
    table = _lock_table(table_id)
    TableConnection.objects.create(
        channel_name=channel_name, table=table, player_id=player_id, seen_at=now
    )
    seats = Seat.objects.filter(table=table, player_id=player_id, state=Seat.State.DISCONNECTED)
    if not seats.update(state=Seat.State.PLAYING, away_since=None):
        return False
    hand = _unfinished_hand(table)
    if hand is not None:
        hand_reconnect(hand_id=hand.pk, player_id=player_id, now=now)
    return True


@transaction.atomic
def connection_close(
    *, table_id: int, player_id: int, channel_name: str, now: datetime | None = None
) -> bool:
    """Forget a closed websocket; whether the player's seat changed.

    The seat shows the player disconnected only when this was their last live
    connection to the table: closing one of two tabs changes nothing. Only a
    playing seat changes; one sitting out stays so. A disconnected player is
    still dealt in (see :func:`tables.services.hands.hand_start`).
    """
    table = _lock_table(table_id)
    TableConnection.objects.filter(channel_name=channel_name).delete()
    return _seat_disconnect_if_gone(table, player_id, now or timezone.now())


def _seat_disconnect_if_gone(table: Table, player_id: int, now: datetime) -> bool:
    """Mark the player's playing seat disconnected unless a live connection is left."""
    live = now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    if TableConnection.objects.filter(table=table, player_id=player_id, seen_at__gte=live).exists():
        return False
    seats = Seat.objects.filter(table=table, player_id=player_id, state=Seat.State.PLAYING)
    return seats.update(state=Seat.State.DISCONNECTED, away_since=now) > 0


@transaction.atomic
def connections_refresh(
    *, connections: Sequence[tuple[str, int, int]], now: datetime | None = None
) -> None:
    """A process vouches for its open websockets, as ``(channel name, table id, player id)``.

    One statement however many there are. A row the sweep deleted while this
    process was stalled is written again, so it counts once more.
    """
    now = now or timezone.now()
    TableConnection.objects.bulk_create(
        [
            TableConnection(channel_name=channel, table_id=table, player_id=player, seen_at=now)
            for channel, table, player in connections
        ],
        update_conflicts=True,
        unique_fields=["channel_name"],
        update_fields=["seen_at"],
    )


def connections_expire_stale(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Delete the connections no process has vouched for lately; seats changed.

    The sockets of a Daphne process that was killed never closed, so their
    players' seats still show them playing: each such player with no live
    connection left is shown disconnected, one transaction per table and
    player, and ``on_changed`` is called with the table's id after it.
    """
    now = now or timezone.now()
    stale = TableConnection.objects.filter(
        seen_at__lt=now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    )
    changed = 0
    for table_id, player_id in set(stale.values_list("table_id", "player_id")[:SWEEP_BATCH]):
        if _connections_expire(table_id, player_id, now):
            changed += 1
            if on_changed is not None:
                on_changed(table_id)
    return changed


@transaction.atomic
def _connections_expire(table_id: int, player_id: int, now: datetime) -> bool:
    table = _lock_table(table_id)
    cutoff = now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    mine = TableConnection.objects.filter(table=table, player_id=player_id)
    mine.filter(seen_at__lt=cutoff).delete()
    return _seat_disconnect_if_gone(table, player_id, now)
