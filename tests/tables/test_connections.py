"""Counting each player's open websockets, so a seat shows disconnected only when the last closes.

Alice (seat 1) has the table open in tabs, some on a Daphne process that was
killed: its rows were never deleted, and nobody refreshes them any more.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from tables import services
from tables.models import Seat, Table, TableConnection
from tables.tasks import expire_stale_connections

STALE = timedelta(seconds=services.CONNECTION_STALE_SECONDS)


@pytest.fixture
def seated(table: Table, alice: User) -> Table:
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    return table


def open_tab(table: Table, player: User, channel: str, now: datetime | None = None) -> bool:
    return services.connection_open(
        table_id=table.pk, player_id=player.pk, channel_name=channel, now=now
    )


def close_tab(table: Table, player: User, channel: str) -> bool:
    return services.connection_close(table_id=table.pk, player_id=player.pk, channel_name=channel)


def state(player: User) -> str:
    return Seat.objects.get(player=player).state


def test_closing_one_of_two_tabs_changes_nothing(seated: Table, alice: User) -> None:
    open_tab(seated, alice, "tab-1")
    open_tab(seated, alice, "tab-2")
    assert close_tab(seated, alice, "tab-1") is False
    assert state(alice) == Seat.State.PLAYING
    assert close_tab(seated, alice, "tab-2") is True
    assert state(alice) == Seat.State.DISCONNECTED
    assert not TableConnection.objects.exists()


def test_a_tab_at_another_table_does_not_keep_the_seat_connected(
    seated: Table, alice: User
) -> None:
    other = Table.objects.create(name="Table 2", stakes=seated.stakes)
    open_tab(other, alice, "elsewhere")
    open_tab(seated, alice, "here")
    assert close_tab(seated, alice, "here") is True


def test_a_tab_of_a_killed_process_does_not_keep_the_seat_connected(
    seated: Table, alice: User
) -> None:
    open_tab(seated, alice, "on-killed-process", now=timezone.now() - STALE - STALE)
    open_tab(seated, alice, "live")
    assert close_tab(seated, alice, "live") is True
    assert state(alice) == Seat.State.DISCONNECTED


def test_the_sweep_disconnects_a_seat_whose_only_tab_died_with_its_process(
    seated: Table, alice: User
) -> None:
    open_tab(seated, alice, "on-killed-process", now=timezone.now() - STALE - STALE)
    assert state(alice) == Seat.State.PLAYING  # nothing closed it
    changed: list[int] = []
    assert services.connections_expire_stale(on_changed=changed.append) == 1
    assert changed == [seated.pk]
    assert state(alice) == Seat.State.DISCONNECTED
    assert not TableConnection.objects.exists()
    assert services.connections_expire_stale() == 0


def test_the_sweep_keeps_a_seat_with_a_live_tab_left(seated: Table, alice: User) -> None:
    open_tab(seated, alice, "on-killed-process", now=timezone.now() - STALE - STALE)
    open_tab(seated, alice, "live")
    assert services.connections_expire_stale() == 0
    assert state(alice) == Seat.State.PLAYING
    assert list(TableConnection.objects.values_list("channel_name", flat=True)) == ["live"]


def test_a_refreshed_tab_is_not_stale(seated: Table, alice: User) -> None:
    long_ago = timezone.now() - STALE - STALE
    open_tab(seated, alice, "tab", now=long_ago)
    services.connections_refresh(connections=[("tab", seated.pk, alice.pk)])
    assert TableConnection.objects.get().seen_at > long_ago
    assert services.connections_expire_stale() == 0
    assert state(alice) == Seat.State.PLAYING


def test_a_refresh_writes_back_a_row_the_sweep_deleted(seated: Table, alice: User) -> None:
    """A process stalled past the stale time comes back: its sockets count again."""
    services.connections_refresh(connections=[("tab", seated.pk, alice.pk)])
    services.connections_refresh(connections=[("tab", seated.pk, alice.pk)])  # no duplicate
    assert TableConnection.objects.get().channel_name == "tab"
    assert close_tab(seated, alice, "tab") is True


def test_beat_runs_the_stale_connection_sweep(seated: Table, alice: User) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["expire-stale-connections"]
    assert entry["task"] == "tables.tasks.expire_stale_connections"
    assert entry["schedule"] < services.CONNECTION_STALE_SECONDS
    open_tab(seated, alice, "on-killed-process", now=timezone.now() - STALE - STALE)
    assert expire_stale_connections() == 1
