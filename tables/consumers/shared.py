"""What this process keeps for all its table connections: one read of a
table shared by its viewers, the rows a move made here left, and the open
sockets it vouches for."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from tables import services
from tables.consumers.base import in_db_thread
from tables.selectors.carried import uncarry
from tables.selectors.snapshots import TableRows, read_table

logger = logging.getLogger(__name__)


@dataclass
class SharedRead:
    """A read of one table that this process's viewers may share until it starts.

    A change notice leaves only after its transaction has committed, so a read
    that has not started when a viewer gets the notice is bound to show that
    change. So the viewers of a busy table join the one read still waiting for
    a database thread instead of each queueing three queries of its own.
    """

    loop: asyncio.AbstractEventLoop
    # Set as soon as the read is made: the task is given the read, to mark it started.
    task: asyncio.Future[TableRows | None] = field(init=False)
    started: bool = False


_READS: dict[int, SharedRead] = {}  # table id -> the newest read of it in this process


async def read_table_shared(table_id: int) -> TableRows | None:
    """The table's rows, read after this call began; None if the table is gone."""
    loop = asyncio.get_running_loop()
    read = _READS.get(table_id)
    if read is None or read.started or read.loop is not loop:
        read = SharedRead(loop)
        read.task = asyncio.ensure_future(in_db_thread(_read_started)(table_id, read))
        read.task.add_done_callback(functools.partial(_forget_read, table_id, read))
        _READS[table_id] = read
    return await asyncio.shield(read.task)


def _forget_read(table_id: int, read: SharedRead, task: asyncio.Future[Any]) -> None:
    if _READS.get(table_id) is read:
        del _READS[table_id]


def _read_started(table_id: int, read: SharedRead) -> TableRows | None:
    read.started = True  # before the first query: no viewer may join from now on
    return read_table(table_id)


class FreshRows:
    """Table rows this process has from the moves made through it or carried
    to it from another, by change token.

    A move's service hands back the table as the move left it
    (``services.hand_play``); its change notice carries a token naming those
    rows, so this process's viewers build their snapshots from them with no
    read, and the rows themselves packed (``tables.selectors.carried``), so
    the other processes' viewers do the same once the first of them has
    unpacked them. Only the newest ``KEEP`` are kept: a notice handled later
    than that reads instead, as it always may.
    """

    KEEP = 256

    def __init__(self) -> None:
        self.prefix = secrets.token_hex(6)  # this process's, so tokens never collide
        self.counter = itertools.count(1)
        self.rows: OrderedDict[str, TableRows] = OrderedDict()

    def keep(self, rows: TableRows) -> str:
        token = f"{self.prefix}-{next(self.counter)}"
        self._keep_as(token, rows)
        return token

    def get(self, token: Any, *, carried: Any = None) -> TableRows | None:
        """The rows by their token; with ``carried``, the rows another process
        made, unpacked (once: they are then kept here under their token). A
        process that made the rows never unpacks them: it kept them."""
        if not isinstance(token, str):
            return None
        rows = self.rows.get(token)
        if rows is None and isinstance(carried, bytes):
            rows = self._keep_as(token, uncarry(carried))
        return rows

    def _keep_as(self, token: str, rows: TableRows) -> TableRows:
        self.rows[token] = rows
        while len(self.rows) > self.KEEP:
            self.rows.popitem(last=False)
        return rows


FRESH_ROWS = FreshRows()


class OpenSockets:
    """This process's logged-in websockets, vouched for every ``CONNECTION_HEARTBEAT_SECONDS``.

    Each socket has a ``TableConnection`` row; the beat refreshes them all in
    one statement (``services.connections_refresh``), so the rows of a process
    that dies go stale and stop counting. A socket leaves here before its row
    is deleted, under the lock a beat holds while it writes: so a beat can't
    write back the row of a socket that has just closed.
    """

    def __init__(self) -> None:
        self.sockets: dict[str, tuple[int, int]] = {}  # channel name -> (table id, player id)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.lock = asyncio.Lock()
        self.beat: asyncio.Task[None] | None = None

    async def add(self, channel_name: str, table_id: int, player_id: int) -> None:
        self._on_this_loop()
        self.sockets[channel_name] = (table_id, player_id)
        if self.beat is None or self.beat.done():
            self.beat = asyncio.create_task(self._beat())

    async def remove(self, channel_name: str) -> None:
        self._on_this_loop()
        async with self.lock:
            self.sockets.pop(channel_name, None)
        if not self.sockets and self.beat is not None:
            self.beat.cancel()
            self.beat = None

    def _on_this_loop(self) -> None:
        """Start afresh on a new event loop: Daphne has one, tests one per test."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop, self.sockets, self.lock, self.beat = loop, {}, asyncio.Lock(), None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(services.CONNECTION_HEARTBEAT_SECONDS)
            async with self.lock:
                rows = [(channel, *ids) for channel, ids in self.sockets.items()]
                try:
                    await in_db_thread(services.connections_refresh)(connections=rows)
                except Exception:  # the next beat tries again; the socket lives on
                    logger.exception("could not vouch for this process's websockets")


OPEN_SOCKETS = OpenSockets()
