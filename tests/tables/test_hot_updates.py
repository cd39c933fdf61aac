"""The rows written again and again are rewritten in place: HOT updates.

On PostgreSQL an update that changes no indexed column may put the row's new
version on the old one's page and leave every index alone (a heap-only tuple).
A running hand's row is written by every move, and a connection's by every
heartbeat of its process: when an index covers a column they write, each write
adds an entry to every index of the table instead. PostgreSQL counts both
kinds of update in the transaction so far, which is each test's own.

Alice and Bob play a hand; Alice's tab is open on one process.
"""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.models import User
from tables import services
from tables.models import Table
from tests.tables.clock import T0, act, seconds, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("postgresql")]


def updates(table: str) -> tuple[int, int]:
    """The rows of ``table`` this transaction has updated: in all, and HOT."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated(%s::regclass),"
            " pg_stat_get_xact_tuples_hot_updated(%s::regclass)",
            [table, table],
        )
        total, hot = cursor.fetchone()
    return total, hot


def test_a_move_rewrites_its_hands_row_in_place(seated: Table) -> None:
    hand = start(seated)
    before = updates("tables_hand")
    act(hand, "complete", T0 + seconds(1), amount=5)
    act(hand, "call", T0 + seconds(2))
    total, hot = updates("tables_hand")
    assert total - before[0] == 2  # each move wrote the hand's row once
    assert hot - before[1] == 2


def test_a_heartbeat_rewrites_its_connections_rows_in_place(seated: Table, alice: User) -> None:
    services.connection_open(table_id=seated.pk, player_id=alice.pk, channel_name="tab", now=T0)
    before = updates("tables_tableconnection")
    for beat in (1, 2):
        services.connections_refresh(
            connections=[("tab", seated.pk, alice.pk)], now=T0 + seconds(10 * beat)
        )
    total, hot = updates("tables_tableconnection")
    assert total - before[0] == 2
    assert hot - before[1] == 2
