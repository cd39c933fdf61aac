"""What PostgreSQL spends storing a running hand's state, by the column's compression.

    python bench/compression.py [--hands 100] [--rounds 3] [--database-url URL]

Each move writes its hand's whole state again (``tables_hand.state``: JSON,
several kilobytes by the middle of a hand), and PostgreSQL compresses any
value past about 2 kB before it stores it. This script plays ``--hands``
random six-handed stud hands with our engine and keeps each state a move
leaves while the hand goes on. Then, in a scratch table laid out like the
hands' (one row per hand), it writes those states as the moves did, each
hand's in turn over its row, once for each compression method the server
has (pglz, and lz4 where it was built with it), the methods taking turns
for ``--rounds`` rounds. It prints, for each method, the server process's
CPU per write (from ``/proc``, so the server must run on this machine), the
wall time per write and the average size stored.

The scratch table ``bench_state_compression`` is made in the database of
``--database-url`` (by default the load benchmark's ``cardroom_bench``,
created if missing) and dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402
import psycopg  # noqa: E402

from bench.engine import choose  # noqa: E402  (the engine benchmark's random policy)
from tables.rules import GameConfig, HandState  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/cardroom_bench"
TABLE = "bench_state_compression"
STACKS = [1000, 800, 1200, 950, 1100, 700]


def played_states(hands: int, seed: int) -> list[list[str]]:
    """Each hand's states as JSON, one per move while the hand runs on: what
    the server writes. The moves are the engine benchmark's random ones, a second apart."""
    rng = random.Random(seed)
    config = GameConfig(
        variant="stud", structure="fixed", ante=1, bring_in=2, small_bet=5, big_bet=10
    )
    at = datetime(2026, 11, 30, tzinfo=UTC)
    every_hand = []
    for _ in range(hands):
        state = HandState.new(config, stacks=list(STACKS))
        states = []
        while not state.finished:
            kind, amount = choose(rng, state.legal_actions())
            at += timedelta(seconds=1)
            state.act(state.to_act, kind, amount, at=at.isoformat(timespec="milliseconds"))
            if not state.finished:
                states.append(orjson.dumps(state.to_dict()).decode())
        every_hand.append(states)
    return every_hand


def methods_here(connection: psycopg.Connection[Any]) -> list[str]:
    row = connection.execute(
        "SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'"
    ).fetchone()
    assert row is not None
    return list(row[0])


def server_cpu_seconds(pid: int) -> float:
    """User plus system time of the server process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def write_all(
    connection: psycopg.Connection[Any], method: str, hands: list[list[str]]
) -> dict[str, float]:
    """Write every hand's states over its row, with the column compressed by ``method``."""
    connection.execute(f"DROP TABLE IF EXISTS {TABLE}")
    connection.execute(
        f"CREATE TABLE {TABLE} (id integer PRIMARY KEY, deck jsonb NOT NULL,"
        " state jsonb NOT NULL, version integer NOT NULL)"
    )
    connection.execute(f"ALTER TABLE {TABLE} ALTER COLUMN state SET COMPRESSION {method}")
    deck = orjson.dumps(list(range(52))).decode()
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {TABLE} VALUES (%s, %s::jsonb, %s::jsonb, 0)",
            [(number, deck, states[0]) for number, states in enumerate(hands)],
        )
    row = connection.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    writes = [(number, state) for number, states in enumerate(hands) for state in states[1:]]
    cpu, wall = server_cpu_seconds(row[0]), time.perf_counter()
    for number, state in writes:
        connection.execute(
            f"UPDATE {TABLE} SET state = %s::jsonb, version = version + 1 WHERE id = %s",
            (state, number),
        )
    cpu, wall = server_cpu_seconds(row[0]) - cpu, time.perf_counter() - wall
    size = connection.execute(f"SELECT avg(pg_column_size(state)) FROM {TABLE}").fetchone()
    assert size is not None
    return {
        "cpu_ms": 1000 * cpu / len(writes),
        "wall_ms": 1000 * wall / len(writes),
        "stored_bytes": float(size[0]),
    }


def ensure_database(url: str) -> None:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if exists.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100, help="random hands to play (100)")
    parser.add_argument("--rounds", type=int, default=3, help="turns each method takes (3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    hands = played_states(args.hands, args.seed)
    sizes = [len(state) for states in hands for state in states]
    print(
        f"{args.hands} hands, {len(sizes)} states written; JSON"
        f" {statistics.mean(sizes) / 1000:.1f} kB on average, {max(sizes) / 1000:.1f} kB at most"
    )
    ensure_database(args.database_url)
    with psycopg.connect(args.database_url, autocommit=True) as connection:
        methods = methods_here(connection)
        rounds: dict[str, list[dict[str, float]]] = {method: [] for method in methods}
        try:
            for _ in range(args.rounds):
                for method in methods:
                    rounds[method].append(write_all(connection, method, hands))
        finally:
            connection.execute(f"DROP TABLE IF EXISTS {TABLE}")
    print(f"{'method':<8}{'server CPU per write':>22}{'wall per write':>16}{'stored':>10}")
    for method, figures in rounds.items():
        cpu = statistics.median(round["cpu_ms"] for round in figures)
        wall = statistics.median(round["wall_ms"] for round in figures)
        stored = statistics.mean(round["stored_bytes"] for round in figures)
        print(f"{method:<8}{cpu:>19.3f} ms{wall:>13.3f} ms{stored:>8.0f} B")


if __name__ == "__main__":
    main()
