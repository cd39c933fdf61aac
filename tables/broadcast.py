"""Telling a table's websockets that something changed.

Every consumer of the table answers the notice by building a fresh
snapshot for its own viewer (:mod:`tables.consumers`), so no payload built
for one viewer travels through the channel layer to another. A move's notice
also carries the table's rows as the move left them
(:mod:`tables.selectors.carried`, without the deck), which reach each Daphne
process once and are never sent on as they are: the processes build their
viewers' snapshots from them instead of reading the table again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

CHANGED = "table.changed"
CHAT = "table.chat"
LOBBY_GROUP = "lobby"
LOBBY_CHANGED = "lobby.changed"
USER_REVOKED = "user.revoked"
ACCESS_REVOKED = "table.access_revoked"
# Lobby notices from one process leave at most this often (LobbyNotices).
LOBBY_NOTICE_SECONDS = 0.5

logger = logging.getLogger(__name__)

P = ParamSpec("P")


def table_group(table_id: int) -> str:
    """The processes serving anyone watching the table, seated or not: ``table-12``.

    Its members are the processes' relays (``tables.consumers.relay``), which
    hand each message to the table's viewers by its ``table``: every message
    to this group names its table.
    """
    return f"table-{table_id}"


def user_group(player_id: int) -> str:
    """Every table connection of one logged-in user, at any table: ``user-7``."""
    return f"user-{player_id}"


def user_sockets_close(player_id: int, *, reason: str, session_key: str | None = None) -> None:
    """Close the user's table sockets, once the current transaction (if any) commits.

    With ``session_key``, only the sockets opened with that login session (a
    logout ends one session, not the user's others). Sync code only, as
    :func:`table_changed`.
    """
    message = {"type": USER_REVOKED, "reason": reason, "session_key": session_key}

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            deliver(layer.group_send, user_group(player_id), message)

    transaction.on_commit(send, robust=True)


def table_access_revoked(table_id: int, player_id: int) -> None:
    """Close the player's sockets at this table (a home game's host removed
    them), once the current transaction commits; their other tables stay open."""
    message = {"type": ACCESS_REVOKED, "table": table_id}

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            deliver(layer.group_send, user_group(player_id), message)

    transaction.on_commit(send, robust=True)


def table_changed(table_id: int) -> None:
    """Tell the table's viewers to reload, once the current transaction (if any) commits.

    Safe to call from sync code anywhere, Celery tasks included; outside a
    transaction the notice leaves at once. Not for use from async code: there,
    await :func:`announce_changed`.
    """

    def send() -> None:
        # The lobby's notice leaves now too: no loop here need outlive the call.
        deliver(announce_changed, table_id, lobby_now=True)

    transaction.on_commit(send, robust=True)


def deliver(
    send: Callable[P, Coroutine[Any, Any, None]], *args: P.args, **kwargs: P.kwargs
) -> None:
    """Run ``send``, a coroutine function that sends through the channel layer,
    from sync code, and wait for it: on :data:`NOTICE_LOOP` in a process that
    uses it (a Celery worker), else as ``async_to_sync`` runs it (in a Daphne
    process's database thread, on the process's own event loop)."""
    if NOTICE_LOOP.used:
        NOTICE_LOOP.run(send(*args, **kwargs))
    else:
        async_to_sync(send)(*args, **kwargs)


class NoticeLoop:
    """One event loop, on a thread of its own, for the notices a process sends
    from sync code with no event loop of its own to send them on: a Celery
    worker's, after a timeout or a deal.

    There ``async_to_sync`` makes a new event loop for every notice, and the
    channel layer a new connection to Redis for every loop: about 2 ms of
    CPU a notice (``bench/notices.py``). On this loop the layer keeps one
    connection for all of them.

    A process says it wants the loop (:meth:`use`: ``cardroom/celery.py``
    does as a worker starts), and the loop starts with the first notice. A
    process forked after that starts its own: a thread doesn't survive a fork.
    """

    WAIT_SECONDS = 10.0  # a notice not sent by then is given up, and logged

    def __init__(self) -> None:
        self.used = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()

    def use(self) -> None:
        self.used = True

    def run(self, notice: Coroutine[Any, Any, None]) -> None:
        """Run ``notice`` on the loop and wait for it; raise what it raised."""
        future = asyncio.run_coroutine_threadsafe(notice, self._running())
        try:
            future.result(timeout=self.WAIT_SECONDS)
        except TimeoutError:
            future.cancel()
            raise

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                self._loop, self._pid = asyncio.new_event_loop(), os.getpid()
                thread = threading.Thread(
                    target=self._loop.run_forever, name="notice-loop", daemon=True
                )
                thread.start()
            return self._loop


NOTICE_LOOP = NoticeLoop()


async def announce_changed(
    table_id: int,
    *,
    change: str | None = None,
    rows: bytes | None = None,
    stamp: tuple[int, int] | None = None,
    lobby_now: bool = False,
) -> None:
    """Send the change notice now; the caller has already committed what changed.

    ``change`` names the table's rows as the change left them, which the
    sending process keeps for its own viewers (``tables.consumers.shared.MadeHere``),
    ``rows`` carries them to the other processes'
    (``tables.selectors.carried.carry``), and ``stamp`` says how far they have
    got (``TableRows.stamp``), so that a viewer's inbox can tell the newer of
    two notices apart without unpacking either
    (``tables.consumers.relay.Inbox``). The lobby hears of it too, through
    :data:`LOBBY_NOTICES` unless ``lobby_now`` (for a caller whose event loop
    may end before a notice it holds back would leave).
    """
    layer = get_channel_layer()
    if layer is not None:
        notice: dict[str, Any] = {"type": CHANGED, "table": table_id}
        if change is not None:
            notice["change"] = change
            if rows is not None:
                notice["rows"] = rows
            if stamp is not None:
                notice["stamp"] = list(stamp)
        await layer.group_send(table_group(table_id), notice)
        # Seats, stacks and hand counts may have changed: the lobby shows them.
        if lobby_now:
            await layer.group_send(LOBBY_GROUP, {"type": LOBBY_CHANGED})
        else:
            await LOBBY_NOTICES.send(layer)


class LobbyNotices:
    """This event loop's lobby notices: at most one per ``LOBBY_NOTICE_SECONDS``.

    The lobby's consumers redraw at most once a second anyway, so a busy
    room's every move needn't cost a group message. A notice due sooner is
    held back to the end of the interval, where one notice tells of every
    change held back, so the lobby still hears of the last of them.
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last = float("-inf")  # when the last notice left, by the loop's clock
        self.pending: asyncio.Task[None] | None = None

    async def send(self, layer: Any) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # Daphne has one loop; tests have one each
            self.loop, self.last, self.pending = loop, float("-inf"), None
        if self.pending is not None:
            return  # the notice held back tells of this change too
        wait = self.last + LOBBY_NOTICE_SECONDS - loop.time()
        if wait <= 0:
            await self._send(layer)
        else:
            self.pending = loop.create_task(self._send_later(layer, wait))

    async def _send(self, layer: Any) -> None:
        self.last = asyncio.get_running_loop().time()
        await layer.group_send(LOBBY_GROUP, {"type": LOBBY_CHANGED})

    async def _send_later(self, layer: Any, wait: float) -> None:
        await asyncio.sleep(wait)
        self.pending = None
        try:
            await self._send(layer)
        except Exception:  # the next change's notice tries again
            logger.exception("could not tell the lobby of a table change")


LOBBY_NOTICES = LobbyNotices()


async def announce_chat(table_id: int, line: dict[str, Any]) -> None:
    """Pass one kept chat line (``services.chat_post``) to everyone at the table.

    Its text is exactly what was sent; clients show it as text.
    """
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(
            table_group(table_id), {"type": CHAT, "table": table_id, "line": line}
        )
