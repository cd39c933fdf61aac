"""The floor's PostgreSQL: a few async psycopg connections per process, and its statements.

The connections run on Daphne's event loop (no thread hop), in autocommit, so
a move's one statement is its one transaction. psycopg prepares a statement
the fifth time it runs, and reads ``jsonb`` with orjson.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import orjson
import psycopg
from psycopg.types.json import set_json_loads

POOL_SIZE = 4

# A table and its latest hand, in one read: on connect, on a snapshot request,
# and when this process's copy can't answer a move (another process moved).
LOAD = """
SELECT t.config, t.seat_count, t.action_seconds, t.min_buy_in, t.max_buy_in, t.seats,
       h.id, h.number, h.dealer, h.seating, h.players, h.version, h.state, h.expires_at,
       h.ended_at
FROM floor_table AS t
LEFT JOIN LATERAL (
    SELECT * FROM floor_hand WHERE table_id = t.id ORDER BY id DESC LIMIT 1
) AS h ON true
WHERE t.id = %(table)s
"""

# One move, one statement: the new state, only if the hand is still at the
# version the move was made at; the move's row, only if that write happened;
# at the end of the hand the seats' stacks; and the table's seats as they are.
MOVE = """
WITH hand AS (
    UPDATE floor_hand
    SET version = %(version)s, state = %(state)s::jsonb, expires_at = %(expires_at)s,
        ended_at = %(ended_at)s
    WHERE id = %(hand)s AND version = %(old)s
    RETURNING id
), move AS (
    INSERT INTO floor_move (hand_id, turn, action, timed_out, at)
    SELECT id, %(old)s, %(action)s::jsonb, %(timed_out)s, %(at)s FROM hand
), stacks AS (
    UPDATE floor_table SET seats = seats || %(stacks)s::jsonb
    WHERE id = %(table)s AND %(ending)s AND EXISTS (SELECT FROM hand)
)
SELECT (SELECT count(*) FROM hand), seats FROM floor_table WHERE id = %(table)s
"""

# A seat taken: free, and the player seated nowhere else at the table.
SIT = """
UPDATE floor_table SET seats = seats || jsonb_build_object(%(seat)s::text, %(entry)s::jsonb)
WHERE id = %(table)s AND NOT seats ? %(seat)s::text
    AND NOT EXISTS (
        SELECT FROM jsonb_each(seats) AS s(number, entry)
        WHERE (s.entry->>'player')::integer = %(player)s
    )
RETURNING id
"""

# A seat left: not while its player is dealt into the running hand.
LEAVE = """
UPDATE floor_table AS t SET seats = t.seats - mine.number
FROM (
    SELECT s.number FROM floor_table, jsonb_each(seats) AS s(number, entry)
    WHERE id = %(table)s AND (s.entry->>'player')::integer = %(player)s
) AS mine
WHERE t.id = %(table)s AND NOT EXISTS (
    SELECT FROM floor_hand
    WHERE table_id = %(table)s AND ended_at IS NULL AND %(player)s = ANY(players)
)
RETURNING t.id
"""

# A deal locks the table's row first, then reads its latest hand: a second
# statement, so that a deal waiting on the lock sees the hand the first dealt.
DEAL_LOCK = "SELECT seats FROM floor_table WHERE id = %(table)s FOR UPDATE"
DEAL_LAST = """
SELECT number, dealer, ended_at FROM floor_hand
WHERE table_id = %(table)s ORDER BY id DESC LIMIT 1
"""

DEAL = """
INSERT INTO floor_hand (table_id, number, dealer, seating, players, version, state,
                        expires_at, started_at, ended_at)
VALUES (%(table)s, %(number)s, %(dealer)s, %(seating)s::jsonb, %(players)s, %(version)s,
        %(state)s::jsonb, %(expires_at)s, %(started_at)s, %(ended_at)s)
RETURNING id
"""

DEAL_STACKS = "UPDATE floor_table SET seats = seats || %(stacks)s::jsonb WHERE id = %(table)s"


def encode(value: object) -> str:
    """JSON text for a ``::jsonb`` parameter, written by orjson."""
    return orjson.dumps(value).decode()


class Pool:
    """A few connections, opened on first use, handed out one caller at a time."""

    def __init__(self, url: str | None = None, size: int = POOL_SIZE) -> None:
        self.url = url or os.environ["DATABASE_URL"]
        self.size = size
        self.opened = 0
        self.idle: asyncio.Queue[psycopg.AsyncConnection[Any]] | None = None

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        if self.idle is None:
            self.idle = asyncio.Queue()
        if self.idle.empty() and self.opened < self.size:
            self.opened += 1
            connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            set_json_loads(orjson.loads, connection)
        else:
            connection = await self.idle.get()
        try:
            yield connection
        finally:
            if connection.broken:
                self.opened -= 1  # the next caller opens another
            else:
                self.idle.put_nowait(connection)
