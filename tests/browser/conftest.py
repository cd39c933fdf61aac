"""Real headless Chromium against a real server, for the browser tests.

The server is what ``make run`` starts, on the test database: Django's
``runserver`` (which is Daphne here, serving the pages, the static files and
the websockets) and a Celery worker, over the real PostgreSQL and Redis, and
for a test that asks for it (``house_bots``) the house's bot process
(``run_bots --home``, which plays the bots a home game's host adds). So the
next hand is dealt by the worker after ``CARDROOM_NEXT_HAND_DELAY_SECONDS``,
and players see the showdown as they would at home.

The browser is Debian's ``chromium`` (Playwright's own browser download needs
the internet). Without it, or without the ``playwright`` package, the tests are
skipped, unless ``REQUIRE_BROWSER=1`` (CI sets it): then they fail and say why.

Screenshots go to ``$BROWSER_SCREENSHOTS/<test name>/`` (default
``/tmp/cardroom-browser-screenshots``), for a person to look at; with
``BROWSER_SCREENSHOTS=off`` none is taken (CI, where nobody would look).
"""

from __future__ import annotations

import copy
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
import redis
from django.core.management import call_command
from django.db import connection

from cardroom.env import env_bool
from cardroom.runner import free_port
from tables.models import Stakes, Table, TableConnection
from tests.conftest import (
    live_database_url,
    own_channel_layer,
    retrying_deadlocks,
    start_process,
    stop_process_group,
)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
# No sandbox: CI runs as root, where Chromium's sandbox refuses to start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS_SETTING = os.environ.get("BROWSER_SCREENSHOTS", "/tmp/cardroom-browser-screenshots")
# Taking them costs the browser tests about a tenth of their time on a slow machine.
TAKING_SCREENSHOTS = SCREENSHOTS_SETTING != "off"
SCREENSHOTS = Path(SCREENSHOTS_SETTING)
# Long enough for the test to look at the showdown before the next deal.
NEXT_HAND_DELAY_SECONDS = 8
START_SECONDS = 30
# How long the server gets to finish its work after a test's pages close.
CLOSE_SECONDS = 10
# Seconds a home game's bot thinks before each move: quick, yet a page sees each one.
BOT_THINK_SECONDS = 0.3


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives a real headless Chromium against a live server"
    )


def _missing(what: str) -> None:
    """Skip for lack of a browser, or fail if this run was told it must have one."""
    if env_bool("REQUIRE_BROWSER", default=False):
        pytest.fail(f"REQUIRE_BROWSER=1 but {what}", pytrace=False)
    pytest.skip(what)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's tests; each test opens its own contexts.

    Not one for the whole run: Playwright's running event loop would make
    Django refuse the ORM in the other modules' tests run by the same process.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    if not CHROMIUM.is_file():
        _missing(f"there is no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(autouse=True)
def orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the test's own ORM calls run while Playwright's sync API is open.

    That API parks an asyncio loop in this thread (inside a greenlet), which
    Django takes for async code and refuses ORM calls from. The calls here are
    plain blocking ones that never run on that loop, so Django is told so; the
    server's processes never get this setting (see ``live_server_url``).
    """
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def table(transactional_db: None) -> Table:
    """Stud 5/10 with long turns (no timeouts while the test plays) and no auto-muck.

    Without auto-muck both hands are shown at the showdown, so both get named.
    """
    stakes = Stakes.objects.create(
        name="Browser stud 5/10",
        variant="stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=100,
        max_buy_in=1000,
        action_seconds=120,
        time_bank_seconds=60,
        auto_muck=False,
    )
    return Table.objects.create(name="Browser table", stakes=stakes)


@pytest.fixture
def server_channel_layer(settings: Any, redis_url: str, site_server: SiteServer) -> None:
    """The test's own service calls tell the server's pages, as the server's would.

    The test process otherwise has an in-memory layer of its own; this one is
    the server's: the project's Redis layer on the same Redis, under the
    server's prefix.
    """
    import cardroom.settings as configured  # the module: `settings` is the in-memory one here

    layer = copy.deepcopy(configured.CHANNEL_LAYERS["default"])
    layer["CONFIG"]["hosts"] = [{**layer["CONFIG"]["hosts"][0], "address": redis_url}]
    layer["CONFIG"]["prefix"] = site_server.channel_prefix
    settings.CHANNEL_LAYERS = {"default": layer}


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Path:
    """This test's screenshot folder, emptied first (nothing is made when they are off)."""
    folder = SCREENSHOTS / request.node.name
    if not TAKING_SCREENSHOTS:
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    print(f"screenshots: {folder}")
    return folder


# ------------------------------------------------------------- the server


def _wait_for_port(port: int, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the server exited:\n{log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen within {START_SECONDS}s:\n{log.read_text()}")


@dataclass
class SiteServer:
    """The site's web server and its Celery worker, shared by every browser test
    of a process."""

    url: str
    logs: dict[str, Path]
    channel_prefix: str  # the channel layer's keys: the server's own (own_channel_layer)
    env: dict[str, str]  # the processes' environment

    def log_sizes(self) -> dict[str, int]:
        return {name: log.stat().st_size for name, log in self.logs.items()}

    def print_logs_since(self, sizes: dict[str, int]) -> None:
        """What the processes logged during one test; pytest shows it when the test fails."""
        for name, log in self.logs.items():
            with log.open("rb") as output:
                output.seek(sizes[name])
                print(f"--- {name} ---", output.read().decode(errors="replace"), sep="\n")


@pytest.fixture(scope="session")
def site_server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SiteServer]:
    """``make run``'s web server and a Celery worker on the test database, started once.

    Starting them takes seconds, so the browser tests share one pair. Each test
    is transactional and so starts from an empty database; ids are never
    reused, so a task or page left from an earlier test finds nothing of a
    later one's. The worker has a queue of its own, so no other worker on this
    Redis takes its tasks.
    """
    from django.conf import settings

    if connection.vendor == "sqlite":
        assert not settings.REQUIRE_SERVICES, "REQUIRE_SERVICES=1 but the database is SQLite"
        pytest.skip("the server is another process: it needs PostgreSQL (DATABASE_URL)")
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set; the server's worker and channel layer need Redis")
    queue = f"test-browser-{uuid4().hex}"
    env = {
        **os.environ,
        "DATABASE_URL": live_database_url(),
        "REDIS_URL": settings.REDIS_URL,
        # The sessions a test makes (start_session) are signed with it. Without
        # it, a server started after `make run`'s test wrote .secret_key would
        # read that file and refuse them.
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "true",  # runserver serves static files only in DEBUG
        "CARDROOM_TURN_TASKS": "true",
        "CARDROOM_TURN_QUEUE": queue,
        # No beat here: its sweeps would deal hands the tests deal themselves. So
        # every turn's timeout task leaves with the move that starts the turn.
        "CARDROOM_TURN_LOOKAHEAD_SECONDS": "3600",
        "CARDROOM_NEXT_HAND_DELAY_SECONDS": str(NEXT_HAND_DELAY_SECONDS),
        **own_channel_layer(),
    }
    # The server must keep Django's guard against blocking calls in async code.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    port = free_port()
    folder = tmp_path_factory.mktemp("live-server")
    logs = {"web server": folder / "web.log", "worker": folder / "worker.log"}
    worker_argv = [sys.executable, "-m", "celery", "-A", "cardroom", "worker", "--pool=solo"]
    worker_argv += ["-Q", queue, "-n", f"{queue}@%h", "--without-mingle", "--without-gossip"]
    worker = start_process(worker_argv, env, logs["worker"])
    web_argv = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    web = start_process(web_argv, env, logs["web server"])
    try:
        _wait_for_port(port, web, logs["web server"])
        yield SiteServer(f"http://127.0.0.1:{port}", logs, env["CHANNEL_LAYER_PREFIX"], env)
    finally:
        stop_process_group(web)
        stop_process_group(worker)
        # The turn timeouts still waiting in the queue die with it.
        kombu = ("_kombu.binding.", "_kombu.binding_permanent.")
        redis.Redis.from_url(settings.REDIS_URL).delete(
            queue, *(prefix + queue for prefix in kombu)
        )


@pytest.fixture
def house_bots(live_server_url: str, site_server: SiteServer, tmp_path: Path) -> Iterator[None]:
    """The house's bot process (``run_bots --home``), playing at the shared server
    for this test only.

    Not for the whole run, as the server is: it plays every home game's bots it
    finds in the database, and the database is also that of the other tests
    this process runs, whose own servers and bot processes play their bots.
    """
    log = tmp_path / "home-bots.log"
    url = live_server_url.replace("http://", "ws://")
    argv = [sys.executable, "manage.py", "run_bots", "--home"]
    argv += ["--url", url, "--think", str(BOT_THINK_SECONDS)]
    bots = start_process(argv, site_server.env, log)
    try:
        yield
    finally:
        stop_process_group(bots)
        print("--- home bots ---", log.read_text(errors="replace"), sep="\n")


@pytest.fixture
def live_server_url(
    transactional_db: None, site_server: SiteServer, request: pytest.FixtureRequest
) -> Iterator[str]:
    """The shared live server's URL, for one test on an empty, committed database.

    Everything the test writes is committed (a transactional test), so the
    server sees it. The pages the test opened are closed after it, before the
    database is emptied, so no page of one test is still talking to the server
    in the next.
    """
    sizes = site_server.log_sizes()
    yield site_server.url
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()
    _quiesce()
    site_server.print_logs_since(sizes)


def _quiesce() -> None:
    """Leave the server nothing to do before pytest-django empties the database.

    The emptying (a DELETE of each table's rows, ``tests/conftest.py``) can
    deadlock with a transaction of the server's that runs at the same moment:
    a closed page's ``connection_close``, the worker dealing the next hand. So
    the tables close (no hand is dealt after this), the server gets a while to
    forget the closed pages' sockets and finish what it was doing, and the
    database is emptied here, again if a deadlock interrupts it;
    pytest-django's own emptying then finds nothing to do.
    """
    Table.objects.update(is_open=False)
    deadline = time.monotonic() + CLOSE_SECONDS
    while _server_busy() and time.monotonic() < deadline:
        time.sleep(0.05)
    # As pytest-django empties it: ids go on from where they were, so a task or
    # page left from this test never finds a later test's table under its id.
    retrying_deadlocks(
        lambda: call_command("flush", interactive=False, verbosity=0, reset_sequences=False)
    )


def _server_busy() -> bool:
    """Whether the server still holds a page's socket or is inside a transaction."""
    if TableConnection.objects.exists():
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
        )
        (busy,) = cursor.fetchone()
    return busy > 0
