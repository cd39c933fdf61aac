"""What both consumers share: frames handled without a thread hop and written
with orjson, database work in a pool of threads, and a limit on messages."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

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
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


P = ParamSpec("P")
R = TypeVar("R")


def in_db_thread(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``func`` as a coroutine function run in a pool of threads, each with its own connection.

    Not the one thread that sync code shares by default: that thread waits for
    every query of every table in this process in turn, so a busy room queues
    behind it. Moves at one table are still one at a time: each service locks
    the table's row.
    """
    return database_sync_to_async(func, thread_sensitive=False)


def message_limit() -> RateLimit:
    """A new connection's limit on every message it sends (settings.py explains the numbers)."""
    return RateLimit(
        settings.CARDROOM_WS_MESSAGE_LIMIT, settings.CARDROOM_WS_MESSAGE_WINDOW_SECONDS
    )


def too_many(what: str, limit: RateLimit) -> str:
    return f"too many {what}: at most {limit.describe()}; this one was not acted on"
