"""Players, stakes and a table for the table services' tests.

Every persona signs up through ``accounts.services.user_signup``, so each starts
with the configured grant recorded in the ledger, like a real player.
"""

from __future__ import annotations

import ast
import datetime
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.services import user_signup
from cardroom.runner import free_port
from tables import services
from tables.models import Hand, HandResult, PlayerDay, RakeRule, Stakes, Table
from tables.rules import HandState
from tables.tasks import ping
from tests.conftest import (
    live_database_url,
    own_channel_layer,
    start_process,
    stop_process_group,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def grant() -> int:
    """The chips each persona starts with."""
    return settings.CARDROOM_SIGNUP_GRANT


@pytest.fixture
def quick_passwords(settings: Any) -> None:
    """MD5 instead of PBKDF2 for the personas: these tests are about chips, not logins."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db: None, quick_passwords: None) -> User:
    """Sits first (seat 1); the player most tests move and refuse."""
    return user_signup(username="alice", password="alice-pw-1234")


@pytest.fixture
def bob(db: None, quick_passwords: None) -> User:
    """Sits beside alice (seat 2); the usual other player in a heads-up hand."""
    return user_signup(username="bob", password="bob-pw-1234")


@pytest.fixture
def carol(db: None, quick_passwords: None) -> User:
    """The third player (seat 4, leaving seat 3 empty), or the one not dealt in."""
    return user_signup(username="carol", password="carol-pw-1234")


@pytest.fixture
def dave(db: None, quick_passwords: None) -> User:
    """A fourth player, each test's own role for him: second in a waiting
    line, a watcher never dealt in, a stranger to a home game."""
    return user_signup(username="dave", password="dave-pw-1234")


@pytest.fixture
def cookies_all(alice: User, bob: User, carol: User) -> dict[str, str]:
    """Alice's, bob's and carol's session cookies, by name."""
    return {user.username: session_of(user) for user in (alice, bob, carol)}


def session_of(user: User) -> str:
    """A real session cookie for ``user``, made by logging in through Django."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def cookies(alice: User, bob: User, carol: User) -> dict[str, str]:
    """Alice's, bob's and carol's session cookies, by username."""
    return {user.username: session_of(user) for user in (alice, bob, carol)}


@pytest.fixture
def stakes(db: None) -> Stakes:
    """Stud 5/10, ante 1, bring-in 2, buy-in 50 to 500, rake 5% capped at 3."""
    rake = RakeRule.objects.create(name="5% cap 3", percent=5, cap=3)
    return Stakes.objects.create(
        name="Stud 5/10",
        variant="stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=50,
        max_buy_in=500,
        rake=rake,
    )


@pytest.fixture
def table(stakes: Stakes) -> Table:
    return Table.objects.create(name="Table 1", stakes=stakes)


@pytest.fixture
def seated(table: Table, alice: User, bob: User) -> Table:
    """Alice in seat 1 and bob in seat 2, heads up with 200 chips each."""
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    return table


@pytest.fixture
def no_bring_in(stakes: Stakes) -> Stakes:
    """No bring-in, so the first player to act may check: a timeout then checks."""
    stakes.bring_in = 0
    stakes.save(update_fields=["bring_in"])
    return stakes


def engine(hand: Hand) -> HandState:
    """The hand's engine state as stored now."""
    hand.refresh_from_db()
    return HandState.from_dict(hand.state)


def player_to_act(hand: Hand) -> int:
    """The user id of the player whose turn it is."""
    state = engine(hand)
    return hand.seating["players"][state.to_act]["player"]


Strategy = Callable[[HandState], tuple[str, int | None]]
Decide = Callable[[HandState, int], tuple[str, list[int] | None]]


def clock_decides(state: HandState, player: int) -> tuple[str, list[int] | None]:
    """The decision the turn clock would make for ``player``."""
    return state.default_decision(player)


def play_out(
    hand: Hand,
    choose: Strategy,
    now: datetime.datetime | None = None,
    decide: Decide = clock_decides,
) -> Hand:
    """Drive a hand to its end through ``hand_act``, the move picked by ``choose``
    (a roll, an exchange or a declaration by ``decide``, for each player
    still to make it, in seat order).

    Every move is made at ``now`` (default: the current time), so the hand ends then.
    """
    while not (state := engine(hand)).finished:
        if state.decision is not None:
            player = state.deciding()[0]
            kind, cards = decide(state, player)
            services.hand_act(
                hand_id=hand.pk,
                player_id=hand.seating["players"][player]["player"],
                kind=kind,
                cards=cards,
                version=hand.version,
                now=now,
            )
            continue
        kind, amount = choose(state)
        services.hand_act(
            hand_id=hand.pk,
            player_id=player_to_act(hand),
            kind=kind,
            amount=amount,
            version=hand.version,
            now=now,
        )
    hand.refresh_from_db()
    return hand


def bet_and_call(state: HandState) -> tuple[str, int | None]:
    """Open every street with the smallest full wager, never raise, never fold."""
    options = {option.kind: option for option in state.legal_actions()}
    for kind in ("complete", "bet"):
        if kind in options:
            return kind, options[kind].min
    for kind in ("call", "check", "bring_in"):
        if kind in options:
            return kind, None
    raise AssertionError(f"no passive move among {list(options)}")


# ------------------------------------------------- a real Celery worker


@dataclass
class Worker:
    """A real Celery worker started for one test: its queue, its log and its process."""

    queue: str
    log: Path
    process: subprocess.Popen[bytes]

    def results(self, task: str) -> list[str]:
        """What each finished ``task`` returned, in order, as the worker logged it."""
        pattern = rf"Task {re.escape(task)}\[[^\]]+\] succeeded in [^:]+: (\S+)"
        return re.findall(pattern, self.log.read_text(errors="replace"))

    def swept(self, net: str) -> list[int | None]:
        """What the safety net ``net`` (its task's name) did in each of beat's
        sweeps that finished (``tables.tasks.sweep_safety_nets``), in order."""
        pattern = r"Task tables\.tasks\.sweep_safety_nets\[[^\]]+\] succeeded in [^:]+: (\{.*\})"
        found = re.findall(pattern, self.log.read_text(errors="replace"))
        return [ast.literal_eval(done)[net] for done in found]

    def wait_results(self, task: str, count: int) -> list[str]:
        """The first ``count`` results of ``task``, once the worker has logged them.

        The worker logs a result just after its transaction commits, so a test
        that saw the change in the database may still have to wait for it.
        """
        wait_until(lambda: len(self.results(task)) >= count, f"{count} results of {task}")
        return self.results(task)[:count]

    def kill(self) -> None:
        """SIGKILL the worker and everything it started (an embedded beat): a crash."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def wait_until(check: Callable[[], Any], what: str, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := check()):
        assert time.monotonic() < deadline, f"waited {seconds}s for {what}"
        time.sleep(0.05)
    return value


def forbid_hand_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, a field of a hand left unread (``only``, ``defer``) may not
    be read back in a query of its own, one per hand: the test fails where it
    would be."""

    def read_back(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a field of a hand left unread was read back in a query of its own")

    monkeypatch.setattr(Hand, "refresh_from_db", read_back)


@pytest.fixture
def start_worker(
    redis_url: str, require_services: bool, settings: Any, tmp_path: Path
) -> Iterator[Callable[..., Worker]]:
    """Start a Celery worker on a queue of its own, on the test database.

    With ``beat`` it also runs beat, whose sweeps go to that queue. The test
    process sends its turn tasks to the same queue, unless it is told to lose
    them (``settings.CARDROOM_TURN_QUEUE`` changed after the start). ``queue``
    starts another worker on an earlier one's queue (after a crash, say),
    ``env`` adds settings the worker needs to share with the test, and
    ``pool`` is Celery's: the tests' ``solo`` runs tasks in the worker's own
    process, and ``prefork`` in one it forks, as ``make run``'s worker does.
    """
    if connection.vendor == "sqlite":
        assert not require_services, "REQUIRE_SERVICES=1 but the database is SQLite"
        pytest.skip("the worker is another process: it needs PostgreSQL (DATABASE_URL)")
    started: list[Worker] = []

    def start(
        *,
        beat: bool = False,
        queue: str | None = None,
        env: dict[str, str] | None = None,
        pool: str = "solo",
    ) -> Worker:
        queue = queue or f"test-timers-{uuid4().hex}"
        log = tmp_path / f"worker-{len(started) + 1}.log"
        settings.CARDROOM_TURN_TASKS, settings.CARDROOM_TURN_QUEUE = True, queue
        environment = {**os.environ, "REDIS_URL": redis_url, "DATABASE_URL": live_database_url()}
        environment.update(own_channel_layer())
        environment.update(CARDROOM_TURN_TASKS="true", CARDROOM_TURN_QUEUE=queue, **(env or {}))
        argv = [sys.executable, "-m", "celery", "-A", "cardroom", "worker", f"--pool={pool}"]
        if pool == "prefork":  # one process forked to run the tasks, as make run's two are
            argv += ["--concurrency", "1"]
        argv += ["-Q", queue, "-n", f"{queue}-{len(started)}@%h", "-l", "INFO"]
        argv += ["--without-mingle", "--without-gossip"]
        if beat:
            argv += ["--beat", "--schedule", str(tmp_path / f"beat-schedule-{len(started)}")]
        process = start_process(argv, environment, log)  # a kill reaches its beat too
        started.append(Worker(queue, log, process))
        # Ready when it answers: the clock tests below must not race its start-up.
        assert ping.apply_async(queue=queue).get(timeout=60) == "pong"
        return started[-1]

    try:
        yield start
    finally:
        for worker in started:
            stop_process_group(worker.process)
            print(worker.log.read_text(errors="replace"))  # shown by pytest only on failure


# The activity report's summary of who played where and when (PlayerDay).

PlayerDayRow = tuple[datetime.date, int, int, int]  # day, table, stakes, player


def player_days() -> set[PlayerDayRow]:
    """The summary's rows as they are."""
    return set(PlayerDay.objects.values_list("day", "table_id", "stakes_id", "player_id"))


def player_days_from_results() -> set[PlayerDayRow]:
    """The rows the summary should hold, worked out here from every finished hand's
    results, with each day the site's time zone's when the hand ended."""
    results = HandResult.objects.filter(hand__ended_at__isnull=False).select_related("hand__table")
    return {
        (timezone.localdate(r.hand.ended_at), r.hand.table_id, r.hand.table.stakes_id, r.player_id)
        for r in results
    }


def player_days_redo() -> None:
    """Write the summary again from the results: for tests that move finished hands
    to other times, which the services never do."""
    PlayerDay.objects.all().delete()
    PlayerDay.objects.bulk_create(
        PlayerDay(day=day, table_id=table, stakes_id=stakes, player_id=player)
        for day, table, stakes, player in player_days_from_results()
    )


# ------------------------------------------------- real servers for a test


@pytest.fixture
def server_env(require_services: bool) -> dict[str, str]:
    """The environment for the servers and bots a test starts, on its database
    (PostgreSQL only). They sign with this process's key, so each checks the
    login sessions the others and this process make, whatever a .secret_key
    file made since (``make run``'s test makes one midway) may hold."""
    if connection.vendor == "sqlite":
        assert not require_services, "REQUIRE_SERVICES=1 but the database is SQLite"
        pytest.skip("Daphne is another process: it needs PostgreSQL (DATABASE_URL)")
    env = {**os.environ, "DATABASE_URL": live_database_url(), "SECRET_KEY": settings.SECRET_KEY}
    env.update(own_channel_layer())
    # No worker runs here, so hands follow one another at once.
    env["CARDROOM_TURN_TASKS"] = "false"
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    return env


def daphne_start(env: dict[str, str], log: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A real Daphne on a free port, its output in ``log``: its websocket URL,
    once it listens, and its process (stop it with ``stop_process_group``)."""
    port = free_port()
    argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    server = start_process([*argv, "cardroom.asgi:application"], env, log)
    try:
        wait_for_port(port, server)
    except BaseException:
        stop_process_group(server)
        raise
    return f"ws://127.0.0.1:{port}", server


@pytest.fixture
def daphne(server_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """A real Daphne server on a free port; its websocket URL."""
    log = tmp_path / "daphne.log"
    url, server = daphne_start(server_env, log)
    try:
        yield url
    finally:
        stop_process_group(server)
        print(log.read_text())  # shown by pytest only when the test fails


def wait_for_port(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert server.poll() is None, "Daphne exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("Daphne did not start listening")
