"""What this process keeps for all its table connections: one read of a
table shared by its viewers, the rows a change left shared by the viewers
its notice reaches, and the open sockets it vouches for."""

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
from tables.broadcast import CHANGED
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


class ChangeRows:
    """One change's rows for this process's viewers of its table, handed to them
    with the change's notice (:func:`with_change_rows`), and let go once each
    of them is done with the notice.

    A move's service hands back the table as the move left it
    (``services.hand_play``), and its change notice carries them packed
    (``tables.selectors.carried``): so no viewer of the change reads the
    table. In the process that made the move the rows are the service's own;
    in any other they are unpacked by the first viewer there that needs them,
    for all the rest.

    Each viewer says when it is done (:meth:`take` or :meth:`pass_by`), and
    after the last the rows are let go, though the notice may live on (a
    consumer holds the message it handled last until its next). So a change's
    rows are freed young, once its snapshots are built, where a cache of the
    last changes held them, thousands of small objects each, long enough for
    the collector to walk them (bench/README.md, "A change's rows freed once
    its snapshots are built").
    """

    __slots__ = ("left", "packed", "rows")

    def __init__(self, rows: TableRows | None, packed: Any, viewers: int) -> None:
        self.rows = rows
        self.packed = packed if isinstance(packed, bytes) else None
        self.left = viewers  # the viewers not yet done with them

    def take(self) -> TableRows | None:
        """The rows, for one viewer; None when the notice brought none (the
        viewer then reads)."""
        if self.rows is None and self.packed is not None:
            self.rows, self.packed = uncarry(self.packed), None
        rows = self.rows
        self._done()
        return rows

    def pass_by(self) -> None:
        """One viewer is done without the rows: it was past them already, or a
        newer change took this one's place in its inbox."""
        self._done()

    def _done(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.rows = self.packed = None


class MadeHere:
    """The rows the moves made through this process left, each until its own
    notice comes back to this process (Redis hands a process the messages it
    publishes to a group it is in, and the mover's process is in its table's
    group: the mover watches the table). A notice that never comes back (the
    mover's process left the group meanwhile) leaves its rows here until
    ``KEEP`` newer moves have pushed them out.
    """

    KEEP = 256

    def __init__(self) -> None:
        self.prefix = secrets.token_hex(6)  # this process's, so tokens never collide
        self.counter = itertools.count(1)
        self.rows: OrderedDict[str, TableRows] = OrderedDict()

    def keep(self, rows: TableRows) -> str:
        """Keep the rows a move left; the token its notice names them by."""
        token = f"{self.prefix}-{next(self.counter)}"
        self.rows[token] = rows
        while len(self.rows) > self.KEEP:
            self.rows.popitem(last=False)
        return token

    def claim(self, token: str) -> TableRows | None:
        """The rows under ``token``, no longer kept here; None if this process made none."""
        return self.rows.pop(token, None)


MADE_HERE = MadeHere()

# Where a change notice, as this process's viewers get it, holds its ChangeRows.
CHANGE_ROWS = "change_rows"


def with_change_rows(message: dict[str, Any], viewers: int) -> dict[str, Any]:
    """A table's notice as this process hands it to the table's ``viewers`` here:
    a move's, with its rows in one :class:`ChangeRows` they share in place of
    the packed rows; any other as it came."""
    token = message.get("change")
    if message.get("type") != CHANGED or not isinstance(token, str):
        return message
    shared = {key: value for key, value in message.items() if key != "rows"}
    shared[CHANGE_ROWS] = ChangeRows(MADE_HERE.claim(token), message.get("rows"), viewers)
    return shared


def pass_by(message: dict[str, Any]) -> None:
    """A viewer is done with a notice without taking its rows."""
    change = message.get(CHANGE_ROWS)
    if isinstance(change, ChangeRows):
        change.pass_by()


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
