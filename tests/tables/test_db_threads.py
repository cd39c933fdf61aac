"""The consumers' database threads (``tables.consumers.base.in_db_thread``)
against the real PostgreSQL: a connection whose health was checked lately
goes straight to its query, and one the server dropped is still replaced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import OperationalError, connection
from django.db.backends.postgresql.base import DatabaseWrapper

from tables.consumers import base
from tables.models import Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("postgresql", "kept_connections"),
]

CALLS = 8
T = TypeVar("T")


@pytest.fixture
def kept_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threads keep their connections between calls, as the settings have
    them outside tests (``on_one_thread`` closes its thread's at the end)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every health check the threads' connections make (each a ``SELECT 1``), by alias."""
    made: list[str] = []
    original = DatabaseWrapper.is_usable

    def counted(self: DatabaseWrapper) -> bool:
        made.append(self.alias)
        return original(self)

    monkeypatch.setattr(DatabaseWrapper, "is_usable", counted)
    yield made


def tables_counted() -> int:
    return Table.objects.count()


def on_one_thread(scenario: Callable[[], Awaitable[T]]) -> T:
    """Run ``scenario`` with a database pool of one thread: the one connection
    of that thread serves every call it makes."""

    async def run() -> T:
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(max_workers=1) as pool:
            loop.set_default_executor(pool)
            try:
                return await scenario()
            finally:  # the thread ends with the pool; its kept connection must not outlive it
                await loop.run_in_executor(pool, close_this_threads_connection)

    return async_to_sync(run)()


def close_this_threads_connection() -> None:
    """Close the calling thread's connection. (``connection.close`` itself would
    be looked up on the thread that passes it, and close that one's.)"""
    connection.close()


async def counted(times: int) -> list[int]:
    return [await base.in_db_thread(tables_counted)() for _ in range(times)]


def test_a_connection_checked_within_the_window_is_not_checked_again(checks: list[str]) -> None:
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]  # as the settings have it
    assert on_one_thread(lambda: counted(CALLS)) == [0] * CALLS
    # The thread's new connection is checked on its first reuse, and then not again.
    assert checks == ["default"]


def test_a_connection_is_checked_again_once_the_window_has_passed(
    checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "HEALTH_CHECK_SECONDS", 0.0)
    on_one_thread(lambda: counted(CALLS))
    # Each call but the first (it connects) checks its connection first.
    assert checks == ["default"] * (CALLS - 1)


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return int(pid)


def ended_by_the_server(pid: int) -> bool:
    """Have PostgreSQL end the connection of server process ``pid``: only that
    one, for a server a test started before may still be connected as it stops."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        (ended,) = cursor.fetchone()
    return bool(ended)


async def drop() -> bool:
    """End the pool thread's connection, from the test's own thread (whose
    connection is not the pool's); asking its pid is a call within the window."""
    pid = await base.in_db_thread(backend_pid)()
    return await sync_to_async(ended_by_the_server, thread_sensitive=True)(pid)


def test_a_connection_the_server_dropped_is_replaced_once_the_window_has_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def scenario() -> list[int]:
        await counted(2)  # connected, then checked: trusted for the window
        assert await drop()
        monkeypatch.setattr(base, "HEALTH_CHECK_SECONDS", 0.0)
        return await counted(2)

    assert on_one_thread(scenario) == [0, 0]


def test_a_connection_dropped_within_the_window_fails_one_call_and_the_next_reconnects() -> None:
    async def scenario() -> None:
        await counted(2)
        assert await drop()
        with pytest.raises(OperationalError):
            await counted(1)
        assert await counted(2) == [0, 0]

    on_one_thread(scenario)
