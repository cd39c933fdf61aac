"""A move's service alone, as a socket calls it: CPU per move here and in PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_bench_moves \\
    REDIS_URL=redis://127.0.0.1:6379/6 python bench/moves.py [--moves 3000]

The load benchmark (``bench/load.py``) measures a move with everything around
it, on a machine whose speed drifts by a tenth between runs. This measures
one part, the move's transaction, in one thread with nothing else running:
what the service costs and where (run it under a profiler). The machine's
drift still shows between its rounds (bench/README.md, "A move's service
alone"), so two commits are compared by taking turns, several runs each.

It recreates the database (its name must contain "bench"), empties the Redis
database (not db 0), migrates, and seats six players at a fixed-limit stud
table. Then it plays hands through ``tables.services.hand_play`` as the table's
socket does (``tables.consumers.table.serve``, the player's login checked in
the move's first round trip, the rows the move left packed for the other
processes), each player calling, checking or bringing in; a hand that ends
is followed by the next at once. Its Celery tasks and change notices go to
Redis as the site's do, and nobody reads them.

It prints, per move, this process's CPU time (user and system), the CPU time
of the PostgreSQL backend serving it, and the wall time, for each of
``--rounds`` rounds of ``--moves`` moves, and their medians; the first round
(``--warmup`` moves) warms the caches and is left out.
"""

from __future__ import annotations

import argparse
import gc
import os
import secrets
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

from bench.load import empty_redis, recreate_database  # noqa: E402

SEATS = 6
PASSIVE = ("call", "check", "bring_in")


@dataclass
class Player:
    id: int
    session_key: str


@dataclass
class Round:
    moves: int
    cpu_us: float
    postgres_us: float
    wall_us: float


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(argv)
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or "bench" not in url.rsplit("/", 1)[-1]:
        print("bench/moves.py: DATABASE_URL must name a PostgreSQL database named *bench*")
        return 2
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url or redis_url.rstrip("/").endswith("/0"):
        print("bench/moves.py: REDIS_URL must name a Redis database other than 0")
        return 2
    recreate_database(url)
    empty_redis(redis_url)
    setup_django()
    mover = Mover(*seat_players())
    mover.play(options.warmup)
    # What start-up and the warm-up left is old: the collector's full passes
    # would walk it again and again, as in a server without collect_on_a_clock.
    gc.collect()
    gc.freeze()
    rounds = [mover.play(options.moves) for _ in range(options.rounds)]
    report(rounds)
    return 0


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=3000, help="moves per round (3000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds measured (5)")
    parser.add_argument("--warmup", type=int, default=500, help="moves before measuring (500)")
    return parser.parse_args(argv)


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    os.environ.setdefault("DEBUG", "false")  # as a server runs, which needs a key
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def seat_players() -> tuple[int, list[Player]]:
    """A stud 5/10 table with a long clock (no timeout fires meanwhile) and
    six players seated with their chips from the ledger."""
    from django.test import override_settings

    from accounts.services import user_signup
    from tables import services
    from tables.management.commands.run_bots import session_cookie
    from tables.models import Stakes, Table

    stakes = Stakes.objects.create(
        name="Bench stud 5/10", variant="stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
        min_buy_in=100, max_buy_in=100_000, action_seconds=3600,
    )  # fmt: skip
    table = Table.objects.create(name="Bench moves", stakes=stakes)
    players = []
    fast_hashes = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(PASSWORD_HASHERS=fast_hashes):
        for number in range(1, SEATS + 1):
            user = user_signup(username=f"mover-{number}", password="bench-moves-pw-1")
            services.seat_take(
                table_id=table.pk, player_id=user.pk, seat_number=number, buy_in=stakes.min_buy_in
            )
            cookie = session_cookie(user)
            players.append(Player(user.pk, cookie.split("=", 1)[1]))
    return table.pk, players


class Mover:
    """The bench table's players, moving in turn through the socket's path."""

    def __init__(self, table_id: int, players: list[Player]) -> None:
        from django.db import connection

        self.table_id = table_id
        self.players = {player.id: player for player in players}
        connection.ensure_connection()
        self.backend = connection.cursor().connection.info.backend_pid
        self.state, self.hand = deal(table_id)

    def play(self, moves: int) -> Round:
        """``moves`` moves, timed around each call alone; a hand that ends is
        followed by the next, dealt outside the timing."""
        from tables import services
        from tables.consumers.table import serve

        cpu = wall = postgres_between = 0.0
        postgres_before = postgres_cpu(self.backend)
        for _ in range(moves):
            state, hand = self.state, self.hand
            player = self.players[hand.player_ids()[state.to_act]]
            kind = next(a.kind for a in state.legal_actions() if a.kind in PASSIVE)
            started, started_wall = time.process_time(), time.perf_counter()
            result = serve(
                services.hand_play,
                self.table_id,
                player.id,
                player.session_key,
                kind=kind,
                version=hand.version,
                hand_id=hand.pk,
            )
            cpu += time.process_time() - started
            wall += time.perf_counter() - started_wall
            if result is None:  # the hand ended
                at = postgres_cpu(self.backend)
                self.state, self.hand = deal(self.table_id)
                postgres_between += postgres_cpu(self.backend) - at
            else:
                self.state, self.hand = result[0].state, result[0].hand
        postgres = postgres_cpu(self.backend) - postgres_before - postgres_between
        scale = 1e6 / moves
        return Round(moves, cpu * scale, postgres * scale, wall * scale)


def deal(table_id: int) -> tuple[Any, Any]:
    from tables import services
    from tables.rules import HandState

    hand = services.hand_start(table_id=table_id)
    assert hand is not None, "the bench table did not deal"
    return HandState.from_dict(hand.state), hand


def postgres_cpu(pid: int) -> float:
    """Seconds of CPU the PostgreSQL backend ``pid`` has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(rounds: list[Round]) -> None:
    print("| round | moves | this process, µs CPU | PostgreSQL backend, µs CPU | wall, µs |")
    print("|---|---|---|---|---|")
    for number, r in enumerate(rounds, start=1):
        print(f"| {number} | {r.moves} | {r.cpu_us:.0f} | {r.postgres_us:.0f} | {r.wall_us:.0f} |")
    median = statistics.median
    print(
        f"| median | | {median(r.cpu_us for r in rounds):.0f} "
        f"| {median(r.postgres_us for r in rounds):.0f} | {median(r.wall_us for r in rounds):.0f} |"
    )


if __name__ == "__main__":
    sys.exit(main())
