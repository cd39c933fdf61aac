"""One place per process in each table's group, for all its viewers here.

A table's change notices and chat lines go to the table's channel-layer
group (:func:`tables.broadcast.table_group`). Were every connection a member,
each notice would wake every viewer's own wait on the channel layer: a round
of tasks made, a lock handed on and a wait cancelled per viewer per change,
all on this process's one event loop. Instead this process joins each group
it has viewers of once, with one channel of its own, and hands each notice
to the viewers of its table through their inboxes (:class:`Inbox`, which
the consumer reads beside the websocket and its own channel), one notice
they share, with the change's rows in it (``tables.consumers.shared.ChangeRows``).
So the channel layer's work per change is one message per process, however
many watch.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Coroutine
from typing import Any

from tables.broadcast import CHANGED, table_group
from tables.consumers.shared import pass_by, with_change_rows

logger = logging.getLogger(__name__)

# After a message it could not read, the reader waits this long before reading again.
# (The layer itself connects to Redis again, and subscribes again, after losing it.)
RETRY_SECONDS = 1.0


class Inbox(asyncio.Queue[dict[str, Any]]):
    """One viewer's table notices, in the order they came, with at most one
    change notice among them.

    A snapshot shows the whole table and every event the viewer hasn't had,
    so of two change notices waiting, a snapshot built for the newer shows
    all the older would have. A change that finds another still waiting
    takes its place as one notice: a viewer whose process has fallen behind
    a busy table gets one snapshot for the moves it missed, not one each,
    and the process catches up instead of falling further behind.
    """

    _queue: collections.deque[dict[str, Any]]  # asyncio.Queue's own, first in first out

    def _put(self, item: dict[str, Any]) -> None:
        if item.get("type") == CHANGED:
            for place, waiting in enumerate(self._queue):
                if waiting.get("type") == CHANGED:
                    kept = self._queue[place] = newer_change(waiting, item)
                    for notice in (waiting, item):
                        if notice is not kept:  # this viewer won't take its rows
                            pass_by(notice)
                    return
        self._queue.append(item)


def newer_change(waiting: dict[str, Any], arriving: dict[str, Any]) -> dict[str, Any]:
    """The one notice to handle for two changes of a table, both committed.

    A move's notice carries the stamp of the rows it left
    (``tables.broadcast.announce_changed``): of two, the later rows show both
    moves. A notice without rows makes the viewer read the table, as does the
    one returned when either lacks a stamp: a read begun now shows both.
    """
    stamps = waiting.get("stamp"), arriving.get("stamp")
    if isinstance(stamps[0], list) and isinstance(stamps[1], list):
        return arriving if stamps[1] >= stamps[0] else waiting
    return {"type": CHANGED, "table": arriving["table"]}


class TableRelay:
    """This process's channel in the groups of the tables it has viewers of."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.layer: Any = None
        self.channel: str | None = None
        self.inboxes: dict[int, set[Inbox]] = {}  # table id -> its viewers' inboxes here
        self.lock = asyncio.Lock()  # one change of membership at a time
        self.tasks: set[asyncio.Task[None]] = set()  # the reader, and any group left late

    async def join(self, layer: Any, table_id: int, inbox: Inbox) -> None:
        """Hand the table's notices to ``inbox`` from now on: once this returns,
        this process's subscription to the table's group has been sent to
        Redis, ahead of any command the process sends after it, and every
        notice Redis publishes after taking it reaches the inbox."""
        self._on_this_loop(layer)
        async with self.lock:
            if self.channel is None:
                self.channel = await layer.new_channel()
                self._start(self._read())
            inboxes = self.inboxes.setdefault(table_id, set())
            if not inboxes:
                await layer.group_add(table_group(table_id), self.channel)
            inboxes.add(inbox)

    async def leave(self, table_id: int, inbox: Inbox) -> None:
        """No more notices for ``inbox``; the last viewer of a table here takes
        this process out of its group."""
        if inbox not in self.inboxes.get(table_id, ()):
            return  # never joined: the connection was refused
        async with self.lock:
            if self._forget(table_id, inbox) and self.channel is not None:
                await self.layer.group_discard(table_group(table_id), self.channel)

    def drop(self, table_id: int, inbox: Inbox) -> None:
        """Forget ``inbox`` now, without waiting (a consumer that failed, which
        can't wait); if it was the table's last viewer here, the process
        leaves the table's group as soon as it can."""
        if self._forget(table_id, inbox):
            self._start(self._leave_unwatched(table_id))

    async def _leave_unwatched(self, table_id: int) -> None:
        async with self.lock:
            if table_id in self.inboxes or self.channel is None:
                return  # a viewer has come since
            try:
                await self.layer.group_discard(table_group(table_id), self.channel)
            except Exception:  # its notices go on arriving for nobody: harmless
                logger.exception("could not leave table %s's group", table_id)

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _forget(self, table_id: int, inbox: Inbox) -> bool:
        """Forget ``inbox``; whether that left the table with no viewer here."""
        inboxes = self.inboxes.get(table_id)
        if inboxes is None or inbox not in inboxes:
            return False
        inboxes.discard(inbox)
        if inboxes:
            return False
        del self.inboxes[table_id]
        return True

    def _on_this_loop(self, layer: Any) -> None:
        """Start afresh on a new event loop or layer: Daphne has one of each, tests one per test."""
        loop = asyncio.get_running_loop()
        if loop is self.loop and layer is self.layer:
            return
        for task in self.tasks:
            task.cancel()
        self.loop, self.layer, self.channel, self.inboxes = loop, layer, None, {}
        self.lock, self.tasks = asyncio.Lock(), set()

    async def _read(self) -> None:
        """Hand each message of this process's channel to its table's inboxes."""
        assert self.channel is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except Exception:
                logger.exception("could not read this process's table notices")
                await asyncio.sleep(RETRY_SECONDS)
                continue
            table_id = message.get("table")
            inboxes = self.inboxes.get(table_id, ()) if isinstance(table_id, int) else ()
            if inboxes:
                message = with_change_rows(message, len(inboxes))
            for inbox in inboxes:
                inbox.put_nowait(message)


TABLE_RELAY = TableRelay()
