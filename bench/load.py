"""Load benchmark: N six-seat tables of bots against the whole stack on this machine.

    python bench/load.py [--tables 100] [--seconds 120] [--warmup S] [--interval 2]
                         [--daphnes N] [--floor | --compare [--rounds R]]

It recreates a PostgreSQL database of its own (``--database-url``, whose name
must contain "bench"), empties one Redis database (``--redis-url``, not db 0),
migrates, and makes the stakes, the tables and six bot players per table, each
signed up through ``accounts.services.user_signup`` so their chips come from
the ledger. Then it starts ``cardroom.web`` (``--daphnes`` Daphne processes
on one port; by default as many as ``make run`` starts), a Celery worker and
Celery beat, as docker-compose.yml runs them (``DEBUG`` off; logs at
WARNING), and the bots (``bench/load_bots.py``, one process of
:class:`tables.bots.Bot` over real websockets), which sit down through the
websocket and play, each table one move per ``--interval`` seconds on average.
The servers use ``cardroom.settings`` unless ``DJANGO_SETTINGS_MODULE`` names
another module, which is how an untried setting can be measured.

After ``--warmup`` seconds it measures for ``--seconds`` and prints:

- moves per second, as the bots sent them and as the database recorded them
  (timeouts included): the entries of the hands' action lists whose time
  (``"at"``) falls in the window, counted by PostgreSQL;
- p50 and p99 latency from a move leaving its bot to the moment the last bot
  at the table has a snapshot reflecting it;
- the p99 lateness of timeouts: a share of turns (``--timeout-share``) is
  left to the server's clock, and the lateness is when the last bot at the
  table has the snapshot showing the timeout, minus the turn's ``expires_at``;
- the CPU used by each group of processes, from ``/proc``, as a share of all
  the machine's cores. PostgreSQL and Redis are the machine's shared servers,
  so their figures include anyone else using them, as does the machine total.

Everything it starts is stopped when it ends, and ``manage.py audit_chips``
then checks that no chip appeared or vanished under load.

``--floor`` runs the floor (:mod:`bench.floor`, issue 31) instead of the site,
the worker and beat: the least this stack does for a move, served by as many
Daphne processes on the same port, to the same bots at the same tables, and
measured the same way (its moves are counted in its own ``floor_move`` rows).
It keeps no chip ledger, so the audit is skipped. ``--compare`` runs the real
server and then the floor, and prints both and the two side by side, with
the ratio real ÷ floor of the CPU per move. With ``--rounds R`` it does
that R times, real and floor taking turns, and ends with the whole
machine's ratio of each round and their median: the machine's own speed
drifts by a tenth or more within minutes, so one pair can land on either
side of a goal that another meets.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
SEATS = 6
BUY_IN = 1000
# A short clock: a turn left to it costs the table 5 seconds, not 30, and the
# bots' longest think (one interval) still leaves room for a slow server.
ACTION_SECONDS = 5
TIME_BANK_SECONDS = 0
GOAL_LATENCY_P99_MS = 100.0
GOAL_LATENESS_P99_MS = 1000.0
START_TIMEOUT = 60.0
STAKES_NAME = "Bench stud 5/10"
# One signing key for every run of an invocation: the bots' session cookies are
# signed in this process, whose settings load once (--compare runs twice).
SECRET_KEY = secrets.token_urlsafe(40)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MACHINE = "machine (all processes)"  # the CPU group of every process on the machine
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


# -------------------------------------------------------------- arguments


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Run bot tables against Daphne, Celery, PostgreSQL and Redis; "
        "print throughput, latency, timeout lateness and CPU use."
    )
    add = parser.add_argument
    add("--tables", type=int, default=100, help="six-seat tables of bots (100)")
    add("--seconds", type=float, default=120.0, help="length of the measurement (120)")
    add("--warmup", type=float, help="seconds of play before measuring (default: 30 + tables/2)")
    add("--interval", type=float, default=2.0, help="seconds between moves at a table (2)")
    add("--timeout-share", type=float, default=0.02, help="share of turns left to the clock")
    add(
        "--daphnes",
        type=int,
        help="Daphne processes behind the one port, as cardroom.web serves them "
        "(default: what make run ships)",
    )
    add("--concurrency", type=int, default=2, help="Celery worker processes (2)")
    add("--port", type=int, default=8700, help="the Daphnes' port (8700)")
    add(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/cardroom_bench",
        help="a PostgreSQL database to drop and recreate; its name must contain 'bench'",
    )
    add("--redis-url", default="redis://127.0.0.1:6379/9", help="a Redis database to empty")
    add("--seed", type=int, default=1, help="seed for the bots' choices")
    add("--json", type=Path, help="also write the figures to this file")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--floor", action="store_true", help="run the floor (bench/floor) instead of the site"
    )
    which.add_argument(
        "--compare", action="store_true", help="run the site, then the floor; print both"
    )
    add("--rounds", type=int, default=1, help="with --compare: pairs of runs, in turn (1)")
    add("--logs", type=Path, help="keep the processes' logs in this folder (default: discard)")
    args = parser.parse_args(argv)
    if args.warmup is None:
        args.warmup = 30 + args.tables / 2
    if args.daphnes is None:
        from cardroom.web import process_count

        args.daphnes = process_count(None)
    if args.tables < 1 or args.seconds <= 0 or args.interval <= 0 or args.daphnes < 1:
        parser.error("--tables, --seconds, --interval and --daphnes must be positive")
    if args.rounds < 1 or (args.rounds > 1 and not args.compare):
        parser.error("--rounds takes a positive number, and only with --compare")
    if not 0 <= args.timeout_share <= 1:
        parser.error("--timeout-share must be from 0 to 1")
    if "bench" not in urlsplit(args.database_url).path:
        parser.error("--database-url must name a database with 'bench' in it: it is dropped")
    if urlsplit(args.redis_url).path.strip("/") in ("", "0"):
        parser.error("--redis-url must name a Redis database other than 0: it is emptied")
    return args


def server_env(args: argparse.Namespace) -> dict[str, str]:
    """The environment of every process: production settings on the bench's own data."""
    return {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        # Publish/subscribe ignores Redis's database number: a name of its own
        # keeps a site on the same Redis (make run, a test) from hearing the bench.
        "CHANNEL_LAYER_PREFIX": "bench",
        "REQUIRE_SERVICES": "1",
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "cardroom.settings"),
    }


# ---------------------------------------------------------- data and setup


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def empty_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def create_players(tables: int) -> list[dict[str, Any]]:
    """The stakes, the tables and their bots; per table its id and (name, cookie) pairs."""
    from django.test import override_settings

    from accounts.services import user_signup
    from tables.management.commands.run_bots import session_cookie
    from tables.models import Stakes, Table

    stakes = Stakes(
        name=STAKES_NAME,
        variant="stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=100,
        max_buy_in=BUY_IN,
        seats=SEATS,
        action_seconds=ACTION_SECONDS,
        time_bank_seconds=TIME_BANK_SECONDS,
    )
    stakes.full_clean()
    stakes.save()
    result = []
    # Nobody logs in with these random passwords: MD5 makes 600 sign-ups take
    # seconds instead of minutes of PBKDF2.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for number in range(1, tables + 1):
            table = Table.objects.create(name=f"Bench {number}", stakes=stakes)
            bots = []
            for seat in range(1, SEATS + 1):
                name = f"bench-{number}-{seat}"
                user = user_signup(username=name, password=secrets.token_urlsafe(16))
                bots.append((name, session_cookie(user)))
            result.append({"id": table.pk, "bots": bots})
    return result


def install_floor(args: argparse.Namespace, tables: list[dict[str, Any]]) -> None:
    """The floor's own tables beside the site's, dealing the bench stakes' game."""
    from tables.models import Stakes

    schema = _floor_module("schema")
    stakes = Stakes.objects.get(name=STAKES_NAME)
    terms = {
        "config": stakes.game_config().to_dict(),
        "seats": stakes.seats,
        "action_seconds": stakes.action_seconds,
        "min_buy_in": stakes.min_buy_in,
        "max_buy_in": stakes.max_buy_in,
    }
    schema.install(args.database_url, [table["id"] for table in tables], terms)


def _floor_module(name: str) -> Any:
    """``bench.floor.<name>``: this script runs from bench/, the package is under the root."""
    import importlib

    if str(BASE_DIR) not in sys.path:
        sys.path.insert(0, str(BASE_DIR))
    return importlib.import_module(f"bench.floor.{name}")


# ------------------------------------------------------------- processes


@dataclass
class Stack:
    """The processes the benchmark starts, each in its own session, logging to a file."""

    env: dict[str, str]
    logs: Path
    children: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        with (self.logs / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                argv,
                cwd=BASE_DIR,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        self.children[name] = process
        return process

    def check(self) -> None:
        for name, process in self.children.items():
            if process.poll() is not None and name != "bots":
                raise RuntimeError(f"{name} exited with {process.returncode}: {self.tail(name)}")

    def tail(self, name: str, lines: int = 20) -> str:
        text = (self.logs / f"{name}.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM each, newest first; SIGKILL whatever is left of its session."""
        for process in reversed(self.children.values()):
            if process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(10)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _die_with_parent() -> None:
    """In the child, before it execs: have the kernel SIGTERM it if the benchmark dies."""
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


_LIBC = ctypes.CDLL(None)  # loaded here, so the forked child only makes the call


def start_servers(stack: Stack, args: argparse.Namespace) -> None:
    """The Daphnes on one port, the worker and beat, as docker-compose.yml runs them;
    with ``--floor``, the floor's Daphnes on the same port, and nothing else."""
    if args.floor:
        floor = [sys.executable, "-m", "bench.floor.web", "--host", "127.0.0.1"]
        stack.start("daphne", [*floor, "--port", str(args.port), "--processes", str(args.daphnes)])
        _wait_until(lambda: _listening(args.port), stack, f"the floor on port {args.port}")
        return
    celery = [sys.executable, "-m", "celery", "-A", "cardroom"]
    stack.start("worker", [*celery, "worker", "-l", "WARNING", "-c", str(args.concurrency)])
    stack.start("beat", [*celery, "beat", "-l", "WARNING", "-s", str(stack.logs / "beat")])
    web = [sys.executable, "-m", "cardroom.web", "--host", "127.0.0.1", "--port", str(args.port)]
    stack.start("daphne", [*web, "--processes", str(args.daphnes)])
    _wait_until(lambda: _listening(args.port), stack, f"Daphne on port {args.port}")
    _wait_until(_worker_answers, stack, "the Celery worker")


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def _worker_answers() -> bool:
    from cardroom.celery import app

    return bool(app.control.ping(timeout=1.0))


def _wait_until(ready: Callable[[], bool], stack: Stack, what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not ready():
        stack.check()
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start in {START_TIMEOUT:.0f} s")
        time.sleep(0.2)


# -------------------------------------------------------------------- CPU


@dataclass(frozen=True)
class Proc:
    pid: int
    parent: int
    name: str
    ticks: int  # user + system time, its own and that of the children it has reaped


def processes() -> dict[int, Proc]:
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue  # gone already
        # The name is in parentheses and may hold spaces; the fields follow it.
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text[text.rindex(")") + 2 :].split()
        ticks = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        found[int(entry.name)] = Proc(int(entry.name), int(fields[1]), name, ticks)
    return found


def tree_ticks(procs: dict[int, Proc], roots: set[int]) -> int:
    """CPU ticks of ``roots`` and all their descendants, living or reaped."""
    total, frontier = 0, set(roots)
    while frontier:
        total += sum(procs[pid].ticks for pid in frontier if pid in procs)
        frontier = {proc.pid for proc in procs.values() if proc.parent in frontier}
    return total


def machine_ticks() -> tuple[int, int]:
    """(busy, total) ticks of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:9]]
    idle = values[3] + values[4]  # idle + iowait
    total = sum(values)
    return total - idle, total


def group_roots(stack: Stack, redis_pid: int | None) -> dict[str, set[int]]:
    procs = processes()
    roots = {
        "daphne": {stack.children["daphne"].pid},  # cardroom.web (or the floor's) and its Daphnes
        **{
            f"celery {name}": {stack.children[name].pid}
            for name in ("worker", "beat")
            if name in stack.children  # not for the floor
        },
        "bots": {stack.children["bots"].pid},
        "postgres (whole server)": {
            proc.pid
            for proc in procs.values()
            if proc.name == "postgres"
            and procs.get(proc.parent, Proc(0, 0, "", 0)).name != "postgres"
        },
    }
    if redis_pid is not None:
        roots["redis (whole server)"] = {redis_pid}
    return roots


@dataclass
class CpuSample:
    at: float
    groups: dict[str, int]
    machine: tuple[int, int]


def cpu_sample(roots: dict[str, set[int]]) -> CpuSample:
    procs = processes()
    groups = {name: tree_ticks(procs, pids) for name, pids in roots.items()}
    return CpuSample(time.monotonic(), groups, machine_ticks())


def cpu_shares(first: CpuSample, last: CpuSample) -> dict[str, float]:
    """Each group's CPU between two samples, as a percentage of all the machine's cores."""
    cores = os.cpu_count() or 1
    seconds = last.at - first.at
    shares = {
        name: 100 * (last.groups[name] - first.groups[name]) / CLOCK_TICKS / seconds / cores
        for name in first.groups
    }
    busy = last.machine[0] - first.machine[0]
    shares[MACHINE] = 100 * busy / (last.machine[1] - first.machine[1])
    shares["everything else"] = shares[MACHINE] - sum(
        value for name, value in shares.items() if name != MACHINE
    )
    return shares


def redis_pid(url: str) -> int | None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        pid = int(client.info("server")["process_id"])
    finally:
        client.close()
    return pid if Path(f"/proc/{pid}").exists() else None  # None: not on this machine


# ----------------------------------------------------------------- figures


def percentile(values: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (``share`` from 0 to 1); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil without floats drifting
    return ordered[int(rank) - 1]


def database_moves(start: float, end: float) -> dict[str, int]:
    """The moves the database recorded from ``start`` to ``end`` (Unix times), the
    timed-out ones among them, and the hands that ended in that time.

    A move is an entry of its hand's action list, timed by its ``"at"``, so
    PostgreSQL unpacks the action lists with ``jsonb_array_elements``: only
    those of the hands in play at some point of the window (started before
    its end, not ended before its start), a few hundred, not the whole table.
    """
    from django.db import connection

    from tables.models import Hand

    since, until = (datetime.fromtimestamp(t, UTC) for t in (start, end))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(*), count(*) FILTER (WHERE move->>'timed_out' = 'true')
            FROM {Hand._meta.db_table} AS hand,
                jsonb_array_elements(hand.state->'actions') AS move
            WHERE hand.started_at < %(until)s
                AND (hand.ended_at IS NULL OR hand.ended_at >= %(since)s)
                AND (move->>'at')::timestamptz >= %(since)s
                AND (move->>'at')::timestamptz < %(until)s
            """,
            {"since": since, "until": until},
        )
        moves, timed_out = cursor.fetchone()
    return {
        "moves": moves,
        "timed_out": timed_out,
        "hands_ended": Hand.objects.filter(ended_at__gte=since, ended_at__lt=until).count(),
    }


# The tables whose rows each server writes again and again: a running hand's
# and its seats' by every move, a socket's by every heartbeat.
REWRITTEN = {
    "real": ("tables_hand", "tables_seat", "tables_tableconnection"),
    "floor": ("floor_hand", "floor_table"),
}


def row_updates(server: str) -> dict[str, tuple[int, int]]:
    """Each of ``server``'s rewritten tables' row updates so far, and how many
    of them were HOT: the new row version put beside the old, no index touched."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
            " WHERE relname = ANY(%s)",
            [list(REWRITTEN[server])],
        )
        return {name: (updated, hot) for name, updated, hot in cursor.fetchall()}


def updates_between(
    first: dict[str, tuple[int, int]], last: dict[str, tuple[int, int]]
) -> dict[str, dict[str, int]]:
    """The row updates, and the HOT ones, of each table from ``first`` to ``last``."""
    return {
        name: {"updates": updated - first[name][0], "hot": hot - first[name][1]}
        for name, (updated, hot) in last.items()
        if name in first
    }


def in_place_line(updates: dict[str, dict[str, int]]) -> str:
    shares = [
        f"{name} {100 * counts['hot'] / counts['updates']:.0f}% of {counts['updates']:,}"
        for name, counts in updates.items()
        if counts["updates"] > 0
    ]
    return ", ".join(shares) or "none"


def summarize(
    args: argparse.Namespace,
    bots: dict[str, Any],
    moves: dict[str, int],
    cpu: dict[str, float],
    updates: dict[str, dict[str, int]],
) -> dict[str, Any]:
    seconds = args.seconds
    return {
        "server": "floor" if args.floor else "real",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "tables": args.tables,
        "seconds": seconds,
        "interval": args.interval,
        "daphnes": args.daphnes,
        "moves_sent_per_second": bots["moves_sent"] / seconds,
        "moves_recorded_per_second": moves["moves"] / seconds,
        "timeouts_recorded": moves["timed_out"],
        "hands_ended": moves["hands_ended"],
        "latency_samples": len(bots["latency_ms"]),
        "latency_p50_ms": percentile(bots["latency_ms"], 0.50),
        "latency_p99_ms": percentile(bots["latency_ms"], 0.99),
        "latency_max_ms": max(bots["latency_ms"], default=None),
        **slowest_each_second(bots["slowest_by_second"]),
        "lateness_samples": len(bots["lateness_ms"]),
        "lateness_p50_ms": percentile(bots["lateness_ms"], 0.50),
        "lateness_p99_ms": percentile(bots["lateness_ms"], 0.99),
        "lateness_max_ms": max(bots["lateness_ms"], default=None),
        "unresolved_moves": bots["unresolved_moves"],
        "unresolved_timeouts": bots["unresolved_timeouts"],
        "errors": bots["errors"],
        "error_examples": bots["error_examples"],
        "disconnects": bots["disconnects"],
        "bots_loop_lag_p99_ms": percentile(bots["loop_lag_ms"], 0.99),
        "cpu_percent_of_all_cores": cpu,
        "row_updates": updates,
    }


def slowest_each_second(slowest: dict[str, float]) -> dict[str, Any]:
    """The slowest move of each second (the bots' ``slowest_by_second``, its keys
    as JSON left them): their median, and how many seconds had one past the
    latency goal. A tail in a few seconds is a stall; in most, moves queue."""
    worst = list(slowest.values())
    return {
        "seconds_timed": len(worst),
        "slowest_p50_ms": percentile(worst, 0.50),
        "seconds_over_goal": sum(1 for latency in worst if latency > GOAL_LATENCY_P99_MS),
    }


def report(figures: dict[str, Any], audit: str, out: TextIO = sys.stdout) -> None:
    def ms(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.0f} ms"

    cores = os.cpu_count() or 1

    def per_move(share: float) -> float:
        return cpu_ms_per_move(figures, share)

    lines = [
        f"Load benchmark ({figures['server']}), {figures['date']}: "
        f"{figures['tables']} tables of {SEATS} bots, "
        f"one move per {figures['interval']:g} s per table, {figures['seconds']:g} s measured, "
        f"{figures['daphnes']} Daphne process(es)",
        f"moves per second: {figures['moves_sent_per_second']:.1f} sent by bots, "
        f"{figures['moves_recorded_per_second']:.1f} recorded "
        f"({figures['timeouts_recorded']} timeouts); {figures['hands_ended']} hands ended",
        f"move to last player's snapshot: p50 {ms(figures['latency_p50_ms'])}, "
        f"p99 {ms(figures['latency_p99_ms'])}, max {ms(figures['latency_max_ms'])} "
        f"({figures['latency_samples']} moves; {figures['unresolved_moves']} never reached all)",
        f"slowest move of each second: median {ms(figures['slowest_p50_ms'])}, "
        f"{figures['seconds_over_goal']} of {figures['seconds_timed']} seconds over "
        f"{GOAL_LATENCY_P99_MS:g} ms",
        f"timeout lateness (last player's snapshot - expires_at): "
        f"p50 {ms(figures['lateness_p50_ms'])}, p99 {ms(figures['lateness_p99_ms'])}, "
        f"max {ms(figures['lateness_max_ms'])} ({figures['lateness_samples']} timeouts; "
        f"{figures['unresolved_timeouts']} never reached all)",
        f"errors sent to bots: {figures['errors'] or 'none'}; disconnects: "
        f"{figures['disconnects']}; bots' event-loop lag p99 "
        f"{ms(figures['bots_loop_lag_p99_ms'])}",
        f"CPU, % of all {cores} cores (and CPU ms per recorded move):",
        *(
            f"  {name:<26} {share:6.1f}%  {per_move(share):6.1f} ms"
            for name, share in figures["cpu_percent_of_all_cores"].items()
        ),
        f"row updates written in place (HOT): {in_place_line(figures['row_updates'])}",
        f"chip audit after the run: {audit}",
        "goals: p99 latency <= 100 ms: "
        + _verdict(figures["latency_p99_ms"], GOAL_LATENCY_P99_MS)
        + "; p99 timeout lateness <= 1 s: "
        + _verdict(figures["lateness_p99_ms"], GOAL_LATENESS_P99_MS),
    ]
    print("\n".join(lines), file=out, flush=True)


def cpu_ms_per_move(figures: dict[str, Any], share: float) -> float:
    """CPU milliseconds per recorded move of a group using ``share`` % of all cores."""
    cores = os.cpu_count() or 1
    moves: float = figures["moves_recorded_per_second"] * figures["seconds"]
    seconds: float = figures["seconds"]
    return share / 100 * cores * seconds * 1000 / max(1, moves)


def report_side_by_side(
    real: dict[str, Any], floor: dict[str, Any], out: TextIO = sys.stdout
) -> None:
    """The two runs' figures in columns, with real ÷ floor for the CPU per move."""

    def ms(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.0f}"

    def pair(figures: dict[str, Any], first: str, second: str) -> str:
        return f"{ms(figures[first])} / {ms(figures[second])} ms"

    rows = [
        ("moves/s recorded", *(f"{f['moves_recorded_per_second']:.1f}" for f in (real, floor)), ""),
        ("latency p50 / p99", pair(real, *LATENCY), pair(floor, *LATENCY), ""),
        ("timeout lateness p50 / p99", pair(real, *LATENESS), pair(floor, *LATENESS), ""),
    ]
    for name in real["cpu_percent_of_all_cores"]:
        if name not in floor["cpu_percent_of_all_cores"] and not name.startswith("celery"):
            continue
        here = cpu_ms_per_move(real, real["cpu_percent_of_all_cores"][name])
        there = cpu_ms_per_move(floor, floor["cpu_percent_of_all_cores"].get(name, 0.0))
        ratio = f"{here / there:.1f}x" if there > 0.05 else ""
        rows.append((f"CPU ms/move: {name}", f"{here:.1f}", f"{there:.1f}", ratio))
    lines = [
        f"Side by side, {real['tables']} tables, {real['daphnes']} Daphne process(es) each:",
        f"  {'':<36} {'real':>14} {'floor':>14} {'real / floor':>13}",
        *(f"  {a:<36} {b:>14} {c:>14} {d:>13}" for a, b, c, d in rows),
    ]
    print("\n".join(lines), file=out, flush=True)


LATENCY = ("latency_p50_ms", "latency_p99_ms")
LATENESS = ("lateness_p50_ms", "lateness_p99_ms")


def _verdict(value: float | None, goal: float) -> str:
    if value is None:
        return "not measured"
    return "met" if value <= goal else "NOT met"


# -------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> dict[str, Any]:
    env = server_env(args)
    os.environ.update(env)
    if "django.db" in sys.modules:  # a second run in one invocation (--compare)
        from django.db import connections

        connections.close_all()  # the database they were open to is dropped
    say(f"recreating {urlsplit(args.database_url).path.lstrip('/')} and emptying Redis")
    recreate_database(args.database_url)
    empty_redis(args.redis_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=BASE_DIR,
        env=env,
        check=True,
    )
    import django

    django.setup()
    say(f"signing up {args.tables * SEATS} bots")
    tables = create_players(args.tables)
    if args.floor:
        install_floor(args, tables)
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as workdir:
        logs = args.logs or Path(workdir)
        logs.mkdir(parents=True, exist_ok=True)
        stack = Stack(env, logs)
        try:
            return measure(args, stack, tables)
        finally:
            stack.stop()


def measure(args: argparse.Namespace, stack: Stack, tables: list[dict[str, Any]]) -> dict[str, Any]:
    start_servers(stack, args)
    say(f"servers up; bots join over {args.tables / tables_per_second(args):.0f} s")
    start = time.time() + args.warmup
    end = start + args.seconds
    spec = {
        "tables": [{**table, "url": f"ws://127.0.0.1:{args.port}"} for table in tables],
        "seats": SEATS,
        "buy_in": BUY_IN,
        "interval": args.interval,
        "min_think": args.interval / 4,
        "timeout_share": args.timeout_share,
        "seed": args.seed,
        "tables_per_second": tables_per_second(args),
        "window_start": start,
        "window_end": end,
        "drain": ACTION_SECONDS + 5,
    }
    spec_path, results_path = stack.logs / "spec.json", stack.logs / "results.json"
    spec_path.write_text(json.dumps(spec))
    argv = [sys.executable, "bench/load_bots.py", str(spec_path), str(results_path)]
    bots = stack.start("bots", argv)
    roots = group_roots(stack, redis_pid(args.redis_url))
    _sleep_until(start, stack)
    server = "floor" if args.floor else "real"
    first, updated_first = cpu_sample(roots), row_updates(server)
    say(f"measuring for {args.seconds:g} s")
    _sleep_until(end, stack)
    last, updated_last = cpu_sample(roots), row_updates(server)
    bots.wait(timeout=spec["drain"] + 60)
    if bots.returncode != 0:
        raise RuntimeError(f"the bots failed: {stack.tail('bots')}")
    results = json.loads(results_path.read_text())
    if args.floor:
        since, until = (datetime.fromtimestamp(t, UTC) for t in (start, end))
        moves = _floor_module("schema").moves_between(args.database_url, since, until)
    else:
        moves = database_moves(start, end)
    updates = updates_between(updated_first, updated_last)
    figures = summarize(args, results, moves, cpu_shares(first, last), updates)
    return figures


def tables_per_second(args: argparse.Namespace) -> float:
    """How fast tables' bots join: fast enough to be seated well before the warmup ends."""
    tables: int = args.tables
    warmup: float = args.warmup
    return max(2.0, tables / (warmup / 2))


def _sleep_until(moment: float, stack: Stack) -> None:
    while time.time() < moment:
        stack.check()
        time.sleep(min(1.0, max(0.0, moment - time.time())))


def audit_chips(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "audit_chips"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    return "passed" if done.returncode == 0 else f"FAILED\n{done.stdout}{done.stderr}"


def say(text: str) -> None:
    print(f"bench/load.py: {text}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _terminate_on_sigterm() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt, so the finally blocks stop every child."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.compare:
        figures = run_and_report(args)
        if args.json is not None:
            args.json.write_text(json.dumps(figures, indent=2))
        return 0
    rounds = []
    for _ in range(args.rounds):
        real = run_and_report(argparse.Namespace(**{**vars(args), "floor": False}))
        floor = run_and_report(argparse.Namespace(**{**vars(args), "floor": True}))
        report_side_by_side(real, floor)
        rounds.append({"real": real, "floor": floor})
    if args.rounds > 1:
        report_rounds(rounds)
    if args.json is not None:
        kept: Any = rounds[0] if args.rounds == 1 else {"rounds": rounds}
        args.json.write_text(json.dumps(kept, indent=2))
    return 0


def machine_ratio(pair: dict[str, Any]) -> float:
    """Real ÷ floor of the whole machine's CPU per move in one pair of runs."""
    real, floor = (
        cpu_ms_per_move(figures, figures["cpu_percent_of_all_cores"][MACHINE])
        for figures in (pair["real"], pair["floor"])
    )
    return real / floor


def report_rounds(rounds: list[dict[str, Any]], out: TextIO = sys.stdout) -> None:
    """Each round's whole-machine ratio, in order, and their median."""
    ratios = [machine_ratio(pair) for pair in rounds]
    each = ", ".join(f"{ratio:.2f}x" for ratio in ratios)
    print(
        f"Machine CPU per move, real ÷ floor, by round: {each}; "
        f"median {statistics.median(ratios):.2f}x",
        file=out,
        flush=True,
    )


def run_and_report(args: argparse.Namespace) -> dict[str, Any]:
    """One run, real or floor, reported; its figures with the audit's verdict."""
    with _terminate_on_sigterm():
        figures = run(args)
    if args.floor:
        audit = "skipped (the floor keeps no chip ledger)"
    else:
        audit = audit_chips(server_env(args))
    report(figures, audit)
    return {**figures, "chip_audit": audit}


if __name__ == "__main__":
    sys.exit(main())
