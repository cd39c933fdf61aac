"""The moving parts around Django: websockets, the channel layer, Celery, demo data, runner.

Tests marked by the ``redis_url`` fixture talk to a real Redis (REDIS_URL): CI
requires it; elsewhere they are skipped when REDIS_URL is unset.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from asgiref.sync import async_to_sync
from celery import Celery
from channels.testing import WebsocketCommunicator
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.management import call_command

import cardroom.settings as configured
from accounts.models import User
from cardroom.asgi import application
from cardroom.runner import (
    DEMO_BOT_SEATS,
    RunnerError,
    Supervisor,
    bot_command,
    client_host,
    free_port,
    redis_server_binary,
)
from cardroom.runner import main as runner_main
from tables.management.commands.seed_demo import BOT_STAKES, BOT_TABLE
from tables.models import RakeRule, Stakes, Table
from tables.tasks import ping
from tests.conftest import start_process, stop_process_group
from tests.tables.conftest import wait_until

PROJECT_ROOT = Path(__file__).resolve().parent.parent


# Websockets through the ASGI app (in-memory channel layer, from conftest.py).


async def _lobby_greeting(
    origin: bytes | None, host: bytes | None = b"127.0.0.1:8000", scheme: str = "ws"
) -> tuple[bool, Any]:
    """Open ``ws/lobby/`` as a browser would from a page at ``origin``, with this ``Host``."""
    headers = [(name, value) for name, value in ((b"host", host), (b"origin", origin)) if value]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    communicator.scope["scheme"] = scheme  # what Daphne puts there: ws, or wss over TLS
    try:
        connected, _ = await communicator.connect()
        return connected, await communicator.receive_json_from() if connected else None
    finally:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_websocket_accepts_a_page_of_this_site() -> None:
    connected, greeting = async_to_sync(_lobby_greeting)(b"http://127.0.0.1:8000")
    assert connected and greeting == {"type": "lobby", "tables": [], "seq": 1}


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        pytest.param(b"https://evil.example", b"127.0.0.1:8000", id="another-site"),
        pytest.param(b"http://localhost:9999", b"127.0.0.1:8000", id="another-allowed-host"),
        pytest.param(b"http://127.0.0.1:9999", b"127.0.0.1:8000", id="another-port"),
        pytest.param(b"https://127.0.0.1", b"127.0.0.1:8000", id="another-scheme"),
        pytest.param(b"http://127.0.0.1", b"127.0.0.1:8000", id="the-default-port"),
        pytest.param(b"null", b"127.0.0.1:8000", id="a-null-origin"),
        pytest.param(None, b"127.0.0.1:8000", id="no-origin"),
        pytest.param(b"http://127.0.0.1:8000", None, id="no-host"),
        # DNS rebinding: the attacker's name pointed at this server, so the page
        # and the socket agree on a host that is none of ours.
        pytest.param(b"http://evil.example:8000", b"evil.example:8000", id="not-allowed-host"),
    ],
)
def test_a_websocket_from_any_other_origin_is_refused(origin: bytes | None, host: bytes) -> None:
    connected, _ = asyncio.run(_lobby_greeting(origin, host))
    assert connected is False


@pytest.mark.django_db(transaction=True)
def test_over_tls_the_sites_own_origin_is_https(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["cardroom.example"]
    greet = async_to_sync(_lobby_greeting)
    assert greet(b"https://cardroom.example", b"cardroom.example", "wss")[0] is True
    assert greet(b"http://cardroom.example", b"cardroom.example", "wss")[0] is False


@pytest.mark.django_db(transaction=True)
def test_behind_an_https_proxy_a_trusted_origin_gets_in(settings: Any) -> None:
    """TLS ends at the proxy, so Daphne sees ws://; the page's origin is the trusted https one."""
    settings.ALLOWED_HOSTS = ["cardroom.example", ".rooms.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://cardroom.example", "https://*.rooms.example"]
    greet = async_to_sync(_lobby_greeting)
    assert greet(b"https://cardroom.example", b"cardroom.example")[0] is True
    assert greet(b"https://eu.rooms.example", b"eu.rooms.example")[0] is True
    assert greet(b"https://cardroom.example:8443", b"cardroom.example")[0] is False
    assert greet(b"https://evil.example", b"cardroom.example")[0] is False


# The channel layer against the real Redis, configured as the project configures it.


def _redis_layer(prefix: str) -> RedisPubSubChannelLayer:
    """One process's layer, as the settings configure it, under a test's ``prefix``."""
    # The module, not django.conf.settings: conftest.py swaps the latter to the
    # in-memory layer for every test.
    layer = configured.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    return RedisPubSubChannelLayer(**{**layer["CONFIG"], "prefix": prefix})


async def _group_round_trip(
    wait_before_sending: float,
    trouble: Callable[[RedisPubSubChannelLayer], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """A group message to one channel, sent from another process's layer
    ``wait_before_sending`` after the channel joined, and after ``trouble``
    (if any) befell the channel's layer."""
    prefix = f"test-{uuid4().hex}"
    layer, sender = _redis_layer(prefix), _redis_layer(prefix)
    group = f"test-{uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        receiving = asyncio.ensure_future(layer.receive(channel))
        if trouble is not None:
            await trouble(layer)
        await asyncio.sleep(wait_before_sending)
        await sender.group_send(group, {"type": "table.update", "table": 12})
        return await asyncio.wait_for(receiving, timeout=10)
    finally:
        await layer.flush()
        await sender.flush()


def test_a_group_message_crosses_the_redis_channel_layer(redis_url: str) -> None:
    assert asyncio.run(_group_round_trip(0)) == {"type": "table.update", "table": 12}


def test_an_idle_consumer_outlasts_the_layers_read_timeout(redis_url: str) -> None:
    """A quiet table must not drop its players: its process's subscription sits
    idle past the connection's read timeout, and still hears the next notice."""
    (host,) = configured.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    message = asyncio.run(_group_round_trip(host["socket_timeout"] + 1.5))
    assert message == {"type": "table.update", "table": 12}


async def _drop_subscriptions(layer: RedisPubSubChannelLayer) -> None:
    """Redis closes the layer's subscribed connection, as a restart of Redis would."""
    (shard,) = layer._get_layer()._shards
    host, port = shard._pubsub.connection._writer.get_extra_info("sockname")[:2]
    killed = await shard._redis.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}")
    assert killed == 1


def test_a_process_whose_redis_connection_dropped_hears_its_groups_again(
    redis_url: str,
) -> None:
    """The layer connects again and subscribes again to every group it was in."""
    message = asyncio.run(_group_round_trip(3, _drop_subscriptions))
    assert message == {"type": "table.update", "table": 12}


# Celery: a real worker process, fed through the real Redis.


@pytest.fixture
def worker_queue(redis_url: str, tmp_path: Path) -> Iterator[str]:
    """A Celery worker consuming a queue of its own, so no other worker takes our task."""
    queue = f"test-{uuid4().hex}"
    log = tmp_path / "worker.log"
    argv = [sys.executable, "-m", "celery", "-A", "cardroom", "worker", "--pool=solo", "-c", "1"]
    argv += ["-Q", queue, "-n", f"{queue}@%h", "--without-mingle", "--without-gossip"]
    worker = start_process(argv, {**os.environ, "REDIS_URL": redis_url}, log)
    try:
        yield queue
    finally:
        stop_process_group(worker)
        print(log.read_text())  # shown by pytest only when the test fails


def test_a_real_celery_worker_answers_ping(worker_queue: str) -> None:
    result = ping.apply_async(queue=worker_queue)
    try:
        assert result.get(timeout=20) == "pong"
    finally:
        result.forget()


# Demo data.


def _demo_counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (RakeRule, Stakes, Table, User))


def _seed() -> str:
    output = StringIO()
    call_command("seed_demo", stdout=output)
    return output.getvalue()


def _printed_password(output: str) -> str:
    printed = re.search(r"# +Password +(\S+) +#", output)
    assert printed is not None, output
    return printed.group(1)


@pytest.mark.django_db
def test_seed_demo_creates_each_game_with_rake_and_an_open_table() -> None:
    _seed()
    stakes = Stakes.objects.all()
    assert {s.variant for s in stakes} == {
        "razz",
        "stud",
        "stud8",
        "london",
        "mississippi",
        "deuces",
        "queens",
        "high_chicago",
        "man_with_the_axe",
        "baseball",
        "roll_your_own",
        "english",
        "aces_straights_flushes",
        "declare",
    }
    assert {s.structure for s in stakes} == {"fixed", "spread", "pot", "no"}
    for each in stakes:
        assert each.rake is not None
        assert each.tables.filter(is_open=True).exists(), each


@pytest.mark.django_db
def test_seed_demo_makes_an_open_table_for_the_bots_with_free_seats() -> None:
    _seed()
    table = Table.objects.get(name=BOT_TABLE)
    assert table.is_open and table.stakes.seats == 6


@pytest.mark.django_db
def test_seed_demo_creates_an_admin_whose_printed_password_works() -> None:
    password = _printed_password(_seed())
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password(password)


@pytest.mark.django_db
def test_seed_demo_says_exactly_what_it_created_on_an_empty_database() -> None:
    assert _seed().startswith("Demo data: created 1 rake rule, 18 stakes and 19 tables.\n")


@pytest.mark.django_db
def test_seed_demo_says_exactly_what_was_there_already() -> None:
    _seed()
    Table.objects.filter(name__startswith="Demo Stud").delete()

    assert _seed().startswith(
        "Demo data: created 2 tables; 1 rake rule, 18 stakes and 17 tables were already there.\n"
    )
    assert _seed().startswith(
        "Demo data: nothing to create; 1 rake rule, 18 stakes and 19 tables were already there.\n"
    )


@pytest.mark.django_db
def test_seed_demo_prints_the_admin_password_last_in_a_box_with_the_sign_in_address() -> None:
    output = StringIO()
    call_command("seed_demo", "--site", "http://127.0.0.1:8001/", stdout=output)

    box = output.getvalue().rstrip().splitlines()[-7:]
    assert box[0] == box[-1] == "#" * len(box[0])
    assert all(line.startswith("# ") and line.endswith(" #") for line in box[1:-1])
    assert len({len(line) for line in box}) == 1
    assert "Sign in at  http://127.0.0.1:8001/admin/" in box[3]
    assert "Username    admin" in box[4]
    assert User.objects.get(username="admin").check_password(_printed_password("\n".join(box)))


@pytest.mark.django_db
def test_seed_demo_run_again_changes_nothing_and_keeps_the_password_secret() -> None:
    first = _seed()
    counts = _demo_counts()
    second = _seed()
    assert _demo_counts() == counts
    assert _printed_password(first) not in second
    assert "'admin' already exists" in second


# The runner behind `make run`.


def _starts_then(tmp_path: Path, then: str) -> tuple[list[str], Path]:
    """A child that notes each start in a file, then runs ``then``; and the file."""
    starts = tmp_path / "starts"
    code = f"open({str(starts)!r}, 'a').write('started\\n'); {then}"
    return [sys.executable, "-c", code], starts


def _started(starts: Path) -> int:
    return len(starts.read_text().splitlines()) if starts.exists() else 0


@contextlib.contextmanager
def _watching(supervisor: Supervisor) -> Iterator[list[Any]]:
    """Run ``supervisor.wait`` in a thread; its result lands in the list. Stops all after."""
    outcome: list[Any] = []
    watcher = threading.Thread(target=lambda: outcome.append(supervisor.wait(poll_seconds=0.02)))
    watcher.start()
    try:
        yield outcome
    finally:
        supervisor.request_stop(signal.SIGTERM)
        watcher.join(10)
        supervisor.stop_all(timeout=5)


def test_the_supervisor_restarts_a_child_that_is_killed(tmp_path: Path) -> None:
    supervisor = Supervisor(env=dict(os.environ), restart_delay=0.05)
    argv, starts = _starts_then(tmp_path, "import time; time.sleep(60)")
    child = supervisor.start("worker", argv)
    with _watching(supervisor) as outcome:
        wait_until(lambda: _started(starts) == 1, "the first start")
        first = child.process.pid
        os.kill(first, signal.SIGKILL)
        wait_until(lambda: _started(starts) == 2, "the restart", seconds=10)
        assert child.process.pid != first and child.process.poll() is None
        assert outcome == []  # still watching: nothing given up on
    assert outcome == [None]  # stopped on request


def test_the_supervisor_gives_up_on_a_child_that_keeps_crashing(tmp_path: Path) -> None:
    supervisor = Supervisor(
        env=dict(os.environ), restart_delay=0.01, crash_limit=3, crash_window=60
    )
    sleeper = supervisor.start("web", [sys.executable, "-c", "import time; time.sleep(60)"])
    argv, starts = _starts_then(tmp_path, "raise SystemExit(3)")
    supervisor.start("beat", argv)
    try:
        failed = supervisor.wait(poll_seconds=0.02)
    finally:
        supervisor.stop_all(timeout=5)
    assert failed is not None
    assert (failed.name, failed.process.returncode, _started(starts)) == ("beat", 3, 3)
    assert sleeper.process.returncode == -signal.SIGTERM  # stopped with the rest


def test_crashes_further_apart_than_the_window_are_always_restarted(tmp_path: Path) -> None:
    supervisor = Supervisor(
        env=dict(os.environ), restart_delay=0.01, crash_limit=2, crash_window=0.2
    )
    argv, starts = _starts_then(tmp_path, "import time; time.sleep(0.4); raise SystemExit(1)")
    supervisor.start("worker", argv)
    with _watching(supervisor) as outcome:
        wait_until(lambda: _started(starts) >= 4, "three restarts", seconds=20)
        assert outcome == []


def test_the_restart_delay_doubles_with_each_crash_in_a_row(tmp_path: Path) -> None:
    supervisor = Supervisor(
        env=dict(os.environ), restart_delay=1, restart_delay_max=3, crash_limit=9
    )
    child = supervisor.start("worker", [sys.executable, "-c", "raise SystemExit(1)"])
    child.process.wait()
    try:
        delays = []
        for crash in range(4):
            assert supervisor.check(child, now=100.0 + crash) is False
            delays.append(child.restart_at - (100.0 + crash))
            child.restart_at = None  # as if it had been restarted and crashed again
    finally:
        supervisor.stop_all(timeout=5)
    assert delays == [1, 2, 3, 3]


def test_the_supervisor_carries_on_when_a_child_that_is_not_essential_exits() -> None:
    supervisor = Supervisor(env=dict(os.environ), crash_limit=1)
    supervisor.start("bots", [sys.executable, "-c", "raise SystemExit(2)"], essential=False)
    supervisor.start("quitter", [sys.executable, "-c", "import time; time.sleep(1)"])
    try:
        exited = supervisor.wait(poll_seconds=0.05)
    finally:
        supervisor.stop_all(timeout=5)
    assert exited is not None and exited.name == "quitter"


def _run_runner(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardroom.runner", "--port", "1"],
        cwd=PROJECT_ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_make_run_migrates_with_its_kept_secret_key_and_hands_over_to_the_runner(
    tmp_path: Path,
) -> None:
    """The real `make run`, as on a server with no SECRET_KEY, DEBUG or HTTPS set.

    It makes .secret_key, readable by its owner alone (tests/test_secret_key.py
    shows every command reads it), and migrates. The runner is then asked for
    more bots than a table seats, which it refuses before starting anything.
    """
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("SECRET_KEY", "HTTPS", "DEBUG", "MAKEFLAGS", "MAKELEVEL")
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    result = subprocess.run(
        ["make", "run", "PORT=8765", "BOTS=7"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert "Applying tables.0001_initial... OK" in output, output
    assert "--bots: invalid choice: 7" in output, output
    assert result.returncode != 0
    assert (PROJECT_ROOT / ".secret_key").stat().st_mode & 0o077 == 0  # the owner's alone


def test_the_runner_embeds_no_redis_when_services_are_required() -> None:
    result = _run_runner(REQUIRE_SERVICES="1", REDIS_URL="")
    assert result.returncode == 1
    assert "REQUIRE_SERVICES is on, so set REDIS_URL" in result.stderr


def test_the_runner_refuses_a_bad_redis_url() -> None:
    result = _run_runner(REDIS_URL="http://127.0.0.1:6379/0")
    assert result.returncode == 1
    assert "REDIS_URL must be a redis:// or rediss:// URL" in result.stderr


@pytest.mark.parametrize(
    ("host", "in_a_url"),
    [
        ("localhost", "localhost"),
        ("0.0.0.0", "127.0.0.1"),
        ("::", "[::1]"),
        ("::1", "[::1]"),
        ("[::1]", "[::1]"),
        ("192.0.2.7", "192.0.2.7"),
    ],
)
def test_the_runner_names_the_site_as_a_url_on_this_machine_can(host: str, in_a_url: str) -> None:
    assert client_host(host) == in_a_url
    assert f"ws://{in_a_url}:8000" in bot_command(host, 8000, 1)  # where the bots connect


def test_the_runner_seats_no_more_bots_than_the_demo_table_has_seats() -> None:
    assert BOT_STAKES["seats"] == DEMO_BOT_SEATS


def test_the_demo_bots_think_as_long_as_the_runner_is_told() -> None:
    argv = bot_command("localhost", 8000, 3, 0.25)
    assert argv[argv.index("--count") + 1] == "3"
    assert argv[argv.index("--think") + 1] == "0.25"


@pytest.mark.parametrize("think", ["-1", "nan", "inf", "soon"])
def test_the_runner_refuses_a_think_time_that_is_not_seconds(
    think: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        runner_main(["--bot-think", think])
    assert stopped.value.code == 2  # argparse's usage error, before anything starts
    assert "argument --bot-think: " in capsys.readouterr().err


def _descendants(pid: int) -> dict[int, str]:
    """Every live descendant of ``pid`` and its command line, from /proc (Linux)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue  # exited while we looked
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return {child: _command_line(child) for child in found}


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its exit status is left


def _wait_for(condition: Callable[[], bool], what: str, log: Path, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}; runner output:\n{log.read_text()}")
        time.sleep(0.2)


def _home_page_status(port: int, host: str = "127.0.0.1") -> int | None:
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=2) as response:
            return response.status
    except OSError:
        return None


def _finished_hands(database: Path, table_name: str) -> int:
    """Hands finished at the named table, read straight from the runner's SQLite file."""
    with contextlib.closing(sqlite3.connect(database, timeout=5)) as connection:
        query = (
            "SELECT count(*) FROM tables_hand JOIN tables_table ON tables_table.id = table_id "
            "WHERE tables_table.name = ? AND ended_at IS NOT NULL"
        )
        return connection.execute(query, (table_name,)).fetchone()[0]


def _ping_through(url: str) -> str:
    """Send tables.tasks.ping through the broker at ``url``; the worker's answer."""
    # Not the current app: shared tasks (tables.tasks) would send through it after this.
    probe = Celery(broker=url, backend=url, set_as_current=False)
    try:
        return probe.send_task("tables.tasks.ping").get(timeout=20)
    finally:
        probe.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_the_runner_serves_runs_tasks_and_leaves_nothing_behind_on_ctrl_c(
    tmp_path: Path,
) -> None:
    try:
        redis_server_binary()
    except RunnerError as error:
        pytest.skip(str(error))
    # What `make run` does with nothing configured, but on a throwaway database.
    database = tmp_path / "db.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    # make run keeps DEBUG off, serves plain HTTP and passes its own SECRET_KEY.
    env.update(REDIS_URL="", REQUIRE_SERVICES="", DEBUG="false", HTTPS="false", SECRET_KEY="t" * 50)
    argv = [sys.executable, "manage.py", "migrate", "--verbosity", "0"]
    subprocess.run(argv, cwd=PROJECT_ROOT, env=env, check=True, capture_output=True)
    port, log = free_port(), tmp_path / "runner.log"
    with log.open("wb") as output:
        runner = subprocess.Popen(
            [sys.executable, "-m", "cardroom.runner", "--port", str(port), "--bots", "2"]
            # Bots quicker than the demo's human pace: a hand is finished sooner.
            + ["--seed-demo", "--bot-think", "0.1"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for(lambda: _home_page_status(port) == 200, "the home page", log)
        assert _home_page_status(port, "[::1]") == 200  # localhost is both loopbacks
        # The admin's password box comes after the servers' start-up lines.
        _wait_for(lambda: "cardroom.runner: serving" in log.read_text(), "the serving line", log)
        text = log.read_text()
        assert text.index("cardroom.web: 2 Daphne process(es)") < text.index("  Password    ")
        assert text.index("  Password    ") < text.index("cardroom.runner: serving")
        assert f"cardroom.runner: serving http://localhost:{port}/ " in text
        assert f"Sign in at  http://localhost:{port}/admin/" in text
        assert "-------------- celery@" not in text  # no Celery banners
        embedded = re.search(r"embedded Redis at (redis://\S+)\.", log.read_text())
        assert embedded is not None
        assert _ping_through(embedded.group(1)) == "pong"
        # The demo bots sit down at their table and play: hands get dealt and finished.
        _wait_for(lambda: _finished_hands(database, BOT_TABLE) >= 1, "a bots' hand", log, 90)
        children = _descendants(runner.pid)
        # A crashed worker is started again, and its pool processes don't linger.
        (worker,) = [
            pid
            for pid, command in children.items()
            if "celery -A cardroom --quiet worker" in command and _parent(pid) == runner.pid
        ]
        os.kill(worker, signal.SIGKILL)
        _wait_for(lambda: "restarted worker" in log.read_text(), "the worker's restart", log)
        assert _ping_through(embedded.group(1)) == "pong"
        children |= _descendants(runner.pid)
        started = ("redis-server", "cardroom --quiet worker", "beat", "cardroom.web", "bots")
        for command_part in started:
            assert any(command_part in command for command in children.values()), command_part
        daphnes = [command for command in children.values() if "-m daphne" in command]
        assert len(daphnes) == 2, daphnes
        (demo_bots,) = [command for command in children.values() if "run_bots --demo" in command]
        assert " --think 0.1 " in demo_bots, demo_bots  # the pace the runner was given
        runner.send_signal(signal.SIGINT)
        assert runner.wait(timeout=40) == 0
    finally:
        if runner.poll() is None:
            runner.kill()  # the kernel then stops its children (PR_SET_PDEATHSIG)
            runner.wait()
    assert {pid: command for pid, command in children.items() if _alive(pid)} == {}
    assert "cardroom.runner: stopped." in log.read_text()
