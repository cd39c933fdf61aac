"""What both consumers share: frames handled without a thread hop and written
with orjson, database work in a pool of threads, and a limit on messages."""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections

from tables.jsontext import json_bytes
from tables.ratelimit import RateLimit


class DirectConsumer(AsyncJsonWebsocketConsumer):
    """A websocket consumer that handles each message without a thread hop
    first, and writes its frames with orjson.

    Channels closes stale database connections before every message it hands
    to a consumer, on the one thread that sync code shares: a hop there and
    back per message, per viewer, all in turn. A table change sent to a
    hundred viewers made a hundred of them. These consumers touch the
    database only through ``database_sync_to_async`` (``in_db_thread``),
    which closes stale connections around each call itself, so the hop
    bought nothing.
    """

    async def dispatch_from(
        self,
        scope: Any,
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
        *more: Callable[[], Awaitable[Any]],
    ) -> None:
        """What ``__call__`` does for every consumer (the websocket's messages
        and this connection's channel's, each dispatched in turn), with ``more``
        sources of messages dispatched in the same turn."""
        layer = get_channel_layer(self.channel_layer_alias)
        if layer is None:  # the settings always name one; tests, an in-memory one
            raise ImproperlyConfigured("the live pages need CHANNEL_LAYERS")
        self.scope, self.base_send, self.channel_layer = scope, send, layer
        self.channel_name = await layer.new_channel()
        # Each source is awaited for its next message (the stubs say otherwise).
        sources: list[Any] = [receive, functools.partial(layer.receive, self.channel_name), *more]
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch(sources, self.dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Outgoing frames through orjson: the same JSON, written several times faster."""
        return json_bytes(content).decode()


P = ParamSpec("P")
R = TypeVar("R")


def in_db_thread(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` as a coroutine function run in a pool of threads, each with its own connection.

    Not the one thread that sync code shares by default: that thread waits for
    every query of every table in this process in turn, so a busy room queues
    behind it. Moves at one table are still one at a time: each service locks
    the table's row.
    """

    @functools.wraps(func)
    def checked_lately(*args: P.args, **kwargs: P.kwargs) -> R:
        trust_recent_health_checks()
        return func(*args, **kwargs)

    return database_sync_to_async(checked_lately, thread_sensitive=False)


# How long a connection's health check vouches for it (see trust_recent_health_checks).
HEALTH_CHECK_SECONDS = 5.0
_last_checks = threading.local()  # alias -> (the connection checked, when), per thread


def trust_recent_health_checks() -> None:
    """Let this thread's connections skip their health check if they passed one
    within ``HEALTH_CHECK_SECONDS``.

    ``database_sync_to_async`` closes stale connections before each call, as
    a request does, and so asks each connection with health checks on
    (``CONN_HEALTH_CHECKS``) for a ``SELECT 1`` before the call's first
    query: a round trip more for every move. Once every few seconds is as
    good a guard against a connection the server has dropped; a connection
    dropped within that time fails one call, whose error has the next call
    check it and connect again.
    """
    checks: dict[str, tuple[object, float]] = _last_checks.__dict__
    now = time.monotonic()
    conn: Any  # django-stubs lack the wrapper's health-check attributes
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or not conn.health_check_enabled or conn.health_check_done:
            continue
        checked, at = checks.get(conn.alias, (None, 0.0))
        if checked is conn.connection and now - at < HEALTH_CHECK_SECONDS:
            conn.health_check_done = True
        else:  # checked before this call's first query, as Django does
            checks[conn.alias] = (conn.connection, now)


def message_limit() -> RateLimit:
    """A new connection's limit on every message it sends (settings.py explains the numbers)."""
    return RateLimit(
        settings.CARDROOM_WS_MESSAGE_LIMIT, settings.CARDROOM_WS_MESSAGE_WINDOW_SECONDS
    )


def too_many(what: str, limit: RateLimit) -> str:
    return f"too many {what}: at most {limit.describe()}; this one was not acted on"
