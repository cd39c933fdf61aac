"""The floor's own tables, beside the real ones in the benchmark's database.

``floor_table`` holds a table's game and its seats (one JSON object, seat
number to player and stack), ``floor_hand`` each hand's whole state and the
version a move must name, and ``floor_move`` one row per move: the move and the
state it left are written by one statement (:data:`bench.floor.store.MOVE`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
import psycopg

DDL = """
DROP TABLE IF EXISTS floor_move, floor_hand, floor_table;
CREATE TABLE floor_table (
    id integer PRIMARY KEY,
    config jsonb NOT NULL,           -- tables.rules.GameConfig.to_dict()
    seat_count integer NOT NULL,
    action_seconds integer NOT NULL,
    min_buy_in integer NOT NULL,
    max_buy_in integer NOT NULL,
    seats jsonb NOT NULL DEFAULT '{}' -- {"3": {"player": 7, "name": "bob", "stack": 990}}
);
CREATE TABLE floor_hand (
    id bigserial PRIMARY KEY,
    table_id integer NOT NULL,
    number integer NOT NULL,
    dealer integer NOT NULL,
    seating jsonb NOT NULL,          -- [[seat, player id, name], ...] in engine order
    players integer[] NOT NULL,      -- the player ids, in engine order
    version integer NOT NULL,        -- = the state's turn: the turn a move must name
    state jsonb NOT NULL,            -- tables.rules.HandState.to_dict()
    expires_at timestamptz,          -- when the turn's clock runs out
    started_at timestamptz NOT NULL,
    ended_at timestamptz
);
-- The state is compressed as the real server's is (tables migration 0032).
DO $$ BEGIN
    IF 'lz4' = ANY (SELECT unnest(enumvals) FROM pg_settings
                    WHERE name = 'default_toast_compression') THEN
        ALTER TABLE floor_hand ALTER COLUMN state SET COMPRESSION lz4;
    END IF;
END $$;
-- One running hand per table, whichever process deals it.
CREATE UNIQUE INDEX floor_hand_running ON floor_hand (table_id) WHERE ended_at IS NULL;
CREATE INDEX floor_hand_latest ON floor_hand (table_id, id DESC);
CREATE TABLE floor_move (
    hand_id bigint NOT NULL,
    turn integer NOT NULL,           -- the version the move was made at
    action jsonb NOT NULL,
    timed_out boolean NOT NULL,
    at timestamptz NOT NULL,
    PRIMARY KEY (hand_id, turn)      -- a move is recorded once
);
"""


def install(url: str, tables: Iterable[int], terms: dict[str, Any]) -> None:
    """(Re)create the floor's tables in the database at ``url``, with ``tables``
    dealing ``terms``: ``config`` (a GameConfig as a dict), ``seats``,
    ``action_seconds``, ``min_buy_in`` and ``max_buy_in``."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(DDL)
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO floor_table (id, config, seat_count, action_seconds, min_buy_in,"
                " max_buy_in) VALUES (%s, %s::jsonb, %s, %s, %s, %s)",
                [
                    (
                        table_id,
                        orjson.dumps(terms["config"]).decode(),
                        terms["seats"],
                        terms["action_seconds"],
                        terms["min_buy_in"],
                        terms["max_buy_in"],
                    )
                    for table_id in tables
                ],
            )


def moves_between(url: str, since: Any, until: Any) -> dict[str, int]:
    """The moves the floor recorded from ``since`` to ``until`` (datetimes), the
    timed-out ones among them, and the hands that ended in that time."""
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT count(*), count(*) FILTER (WHERE timed_out) FROM floor_move"
            " WHERE at >= %s AND at < %s",
            (since, until),
        ).fetchone()
        ended = connection.execute(
            "SELECT count(*) FROM floor_hand WHERE ended_at >= %s AND ended_at < %s",
            (since, until),
        ).fetchone()
    assert row is not None and ended is not None
    return {"moves": row[0], "timed_out": row[1], "hands_ended": ended[0]}
