"""Fixtures shared by every test."""

from __future__ import annotations

import copy
import gc
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote
from uuid import uuid4

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings
from pytest_django import DjangoDbBlocker, Settings

# Property tests run few examples on a laptop and twice as many in CI:
# .ci/run sets HYPOTHESIS_PROFILE=ci. Tests size their runs from the profile
# (tests.rules.strategies.examples), so this one setting scales them all. (Three
# times as many took CI past its 15 minutes once the suite had grown.)
hypothesis_settings.register_profile("dev", max_examples=100)
hypothesis_settings.register_profile("ci", max_examples=200)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

T = TypeVar("T")

# The servers some tests start (Daphne, Celery workers) inherit this: killed at
# the end of their test, their kept connections would close a moment too late
# for pytest-django to drop the test database.
os.environ["DATABASE_CONN_MAX_AGE"] = "0"


# The browser tests' folder, whose files are spread through the run (below).
BROWSER_TESTS = "tests/browser/"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Spread the browser test files evenly through the run.

    A browser test spends about half its time waiting on its pages and the
    server, while most other tests keep a core busy. With
    ``--no-loadscope-reorder`` (``make test``), pytest-xdist hands out files in
    this order, so the two kinds run side by side. (xdist's own order, most
    tests first, left every process waiting on pages together at the end.)
    The other files keep that order, and each file keeps its items' order
    (pytest-django's among them).
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    browser = [name for name in files if name.startswith(BROWSER_TESTS)]
    others = sorted(
        (name for name in files if not name.startswith(BROWSER_TESTS)),
        key=lambda name: -len(files[name]),
    )
    items[:] = [item for name in spread(browser, others) for item in files[name]]


def spread(few: list[str], many: list[str]) -> list[str]:
    """``many`` in order with ``few`` in order among them, evenly, the first first.

    >>> spread(["b1", "b2"], ["o1", "o2", "o3", "o4"])
    ['b1', 'o1', 'o2', 'b2', 'o3', 'o4']
    """
    order = list(many)
    step = (len(few) + len(many)) / max(len(few), 1)
    for index, name in enumerate(few):
        order.insert(round(index * step), name)
    return order


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Close every database connection after use, as Django does by default,
    and keep a SQLite test database in a file.

    The settings keep connections open for reuse (``DATABASE_CONN_MAX_AGE``),
    but tests open them in threads (the consumers' pool, the concurrency
    tests) that end with the test: kept open, they would outlive it and stop
    pytest-django from dropping the test database at the end of the run.

    Django's SQLite test database is in memory, one cache shared by every
    connection, and a second connection that writes while another does is
    refused at once ("database table is locked"). The socket tests write from
    the consumers' threads while the test writes too, so on SQLite they get a
    file, where a writer waits its turn as in ``make run``. Each xdist process
    has its own temporary directory, so its own file.
    """
    from django.db import connections

    for alias in connections:
        settings_dict = connections[alias].settings_dict
        settings_dict["CONN_MAX_AGE"] = 0
        if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
            folder = tmp_path_factory.mktemp(f"sqlite-{alias}")
            settings_dict["TEST"]["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    """pytest-django's test database, with every other session gone before it is dropped.

    A consumer's database thread can leave its connection in a reference cycle
    that only the collector frees, and a server a test stopped may leave a
    session that PostgreSQL has yet to notice is over; until then PostgreSQL
    counts it as a user of the test database and refuses to drop it.
    """
    yield
    gc.collect()
    with django_db_blocker.unblock():
        _end_other_sessions()


# Tries at emptying the database after a transactional test, each of which a deadlock may end.
FLUSH_ATTEMPTS = 3


def retrying_deadlocks(flush: Callable[[], T]) -> T:
    """``flush``, tried again when PostgreSQL ends it as a deadlock.

    Emptying the database locks its rows table by table, and deadlocks with a
    server or worker a test started that writes two of them at the same moment
    (a sweep, a closing socket): nothing was emptied, so it is tried again.
    ``flush`` reports a database error as a CommandError caused by it.
    """
    from django.core.management import CommandError
    from django.db import OperationalError

    for attempt in range(FLUSH_ATTEMPTS):
        try:
            return flush()
        except CommandError as exc:
            if not isinstance(exc.__cause__, OperationalError) or attempt == FLUSH_ATTEMPTS - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable: the last attempt returns or raises")


# Tables the flush leaves as they are: post_migrate fills them alike after every flush.
REMADE_BY_POST_MIGRATE = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete() -> Iterator[None]:
    """Empty PostgreSQL's tables with DELETE, not TRUNCATE, after a transactional test.

    TRUNCATE gives each of the 30-odd tables new files, which took about 0.2 s
    a test, a tenth of the suite's time; a DELETE of the few rows a test
    leaves takes a few milliseconds. Every foreign key is deferred, so the
    tables are emptied in any order within the one transaction Django's
    flush runs. A flush asked to reset sequences or to cascade is Django's
    TRUNCATE, as before.

    The content types and permissions are kept: the flush's ``post_migrate``
    would make the same rows again, which took longer than the DELETEs (no
    test makes rows of its own there).
    """
    from django.db.backends.base.operations import BaseDatabaseOperations
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def deleting(
        self: BaseDatabaseOperations,
        style: Any,
        tables: Sequence[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"DELETE FROM {self.quote_name(table)};"
            for table in tables
            if table not in REMADE_BY_POST_MIGRATE
        ]

    DatabaseOperations.sql_flush = deleting  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = original  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def transactional_teardown_retried() -> Iterator[None]:
    """pytest-django empties the database after each transactional test, as a
    TransactionTestCase does: through :func:`retrying_deadlocks`."""
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def retried(self: TransactionTestCase) -> None:
        retrying_deadlocks(lambda: original(self))

    TransactionTestCase._fixture_teardown = retried  # type: ignore[method-assign]
    yield
    TransactionTestCase._fixture_teardown = original  # type: ignore[method-assign]


# How long the sessions of stopped servers get to end on their own at the end of a run.
OTHER_SESSIONS_SECONDS = 5


def _end_other_sessions() -> None:
    """Wait for other sessions on the PostgreSQL test database to end, then end the rest."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    deadline = time.monotonic() + OTHER_SESSIONS_SECONDS
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(f"SELECT count(*) {others}")
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.1)
        else:
            cursor.execute(f"SELECT pg_terminate_backend(pid) {others}")
    connection.close()


@pytest.fixture
def require_services() -> bool:
    """Whether this run must reach real PostgreSQL and Redis (CI sets REQUIRE_SERVICES=1).

    The settings read it through env_bool, so a typo such as REQUIRE_SERVICES=ture
    stops the run instead of quietly turning the checks off.
    """
    return settings.REQUIRE_SERVICES


@pytest.fixture
def postgresql(require_services: bool) -> None:
    """For a test of what only PostgreSQL does (its protocol, pipelines and
    sessions): skipped on SQLite, which ``make test`` uses with no
    DATABASE_URL, except in CI, which must have PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        assert not require_services, "REQUIRE_SERVICES=1 but the database is SQLite"
        pytest.skip("tests PostgreSQL itself: set DATABASE_URL to a PostgreSQL database")


@pytest.fixture
def redis_url(require_services: bool) -> str:
    """The real Redis to test against; without one the test is skipped, except in CI."""
    if not settings.REDIS_URL:
        # With REQUIRE_SERVICES on, the settings refuse to load without REDIS_URL,
        # so this skip can only happen on a laptop.
        assert not require_services, "REQUIRE_SERVICES=1 but REDIS_URL is empty"
        pytest.skip("REDIS_URL is not set; set it to test against a real Redis")
    return settings.REDIS_URL


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings: Settings) -> None:
    """Each test gets a fresh in-memory channel layer, so consumers need no Redis.

    That layer lives in one process only, which is why it is for tests alone; the
    tests of the real Redis layer build theirs from the project's settings.
    """
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def redis_layer(settings: Settings, redis_url: str) -> None:
    """The project's Redis channel layer instead, under a key prefix of this test's own.

    For what the in-memory layer can't show: it hands messages over as they
    are, while the Redis layer packs them with msgpack first.
    """
    import cardroom.settings as configured  # the module: `settings` is the in-memory one here

    layer = copy.deepcopy(configured.CHANNEL_LAYERS["default"])
    layer["CONFIG"]["hosts"] = [{**layer["CONFIG"]["hosts"][0], "address": redis_url}]
    layer["CONFIG"]["prefix"] = f"test-{uuid4().hex}"
    settings.CHANNEL_LAYERS = {"default": layer}


def live_database_url() -> str:
    """The test database as a DATABASE_URL, for the servers and workers tests start.

    They are other processes, so they must be pointed at the test database
    pytest-django made, not at the one the settings name.
    """
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":  # a file (django_db_modify_db_settings)
        return f"sqlite:///{db['NAME']}"
    user = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        user += ":" + quote(db["PASSWORD"], safe="")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{user}@{host}/{quote(db['NAME'], safe='')}"


PROJECT_ROOT = Path(__file__).resolve().parent.parent


def own_channel_layer() -> dict[str, str]:
    """The environment that gives the servers a test starts a channel layer of
    their own on the shared Redis. Each xdist process has a test database of its
    own whose tables start again at id 1, so two servers on the default prefix
    would each hear the other's table 1."""
    return {"CHANNEL_LAYER_PREFIX": f"test-{uuid4().hex}"}


def start_process(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``argv`` in the project's folder, its output in ``log``, in a
    session of its own, so that ``stop_process_group`` ends it and everything
    it starts."""
    with log.open("wb") as output:
        return subprocess.Popen(
            argv,
            cwd=PROJECT_ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_process_group(process: subprocess.Popen[bytes], *, grace: float = 15) -> None:
    """Stop a server a test started in its own session, and everything it started."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
