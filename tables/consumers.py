"""Websocket consumers: the live lobby (``ws/lobby/``) and the live table (``ws/tables/<id>/``).

The table consumer is thin: it checks who is connected, checks each message
against an allow-list of types and fields, calls one service through
``database_sync_to_async`` and then tells the table that it changed. Every
consumer at the table answers that notice by rebuilding a snapshot for its own
viewer, so each viewer only ever receives what :func:`tables.rules.views.view`
and :func:`tables.rules.views.events_for` give *them*. The protocol is in
``docs/protocol.md``.

The table's rows that snapshots are built from are read once per change per
process, not once per viewer (:func:`read_table_shared`); after a move made
through this process they are not read at all, but kept from the move
(:class:`FreshRows`).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User
from tables import broadcast, services, tasks
from tables.selectors.lobby import LobbyFilter, lobby_rows
from tables.models import Hand, Table
from tables.ratelimit import RateLimit
from tables.rules.cards import parse_card
from tables.rules.errors import IllegalAction
from tables.rules.state import BET_KINDS, DECISION_KINDS, SHOWDOWN_KINDS
from tables.selectors.snapshots import (
    Cursor,
    Stamp,
    TableRows,
    build_snapshot,
    events_since,
    needs_earlier_events,
    read_table,
    rows_after_move,
)

CHAT_MAX_CHARS = 300
MOVE_KINDS = frozenset(BET_KINDS + SHOWDOWN_KINDS + DECISION_KINDS)
# Generous outer bounds; the services apply the table's own limits.
MAX_SEAT_NUMBER = 8
MAX_CHIPS = 10**12
CLOSE_NO_SUCH_TABLE = 4404
CLOSE_LOGGED_OUT = 4401  # the user logged out or was deactivated; reconnect as who you are now
NOT_CURRENT = "you are no longer logged in as this player"
LOBBY_REFRESH_SECONDS = 1.0
NO_TIMER: dict[str, Any] = dict.fromkeys(
    ("seat", "seats", "deadline", "expires_at", "time_bank_ms", "clock")
)

logger = logging.getLogger(__name__)


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

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Outgoing frames through orjson: the same JSON, written several times faster."""
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


class LobbyConsumer(DirectConsumer):
    """The lobby's live rows (``ws/lobby/``): sent on connect and after table changes.

    Change notices can come many times a second from a busy room, so each
    connection answers them at most once per ``LOBBY_REFRESH_SECONDS``. The
    notice is the same for every viewer; each connection reads its own rows,
    which mark the tables its player sits at.
    """

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.viewer_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.filters: dict[str, Any] = {}
        self.seq = 0
        self.messages = message_limit()
        self.refresh: asyncio.Task[None] | None = None
        self.groups = [broadcast.LOBBY_GROUP]
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_rows()

    async def disconnect(self, code: int) -> None:
        if self.refresh is not None:
            self.refresh.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.messages.allow():
            error = too_many("messages", self.messages)
            await self.send_lobby({"type": "error", "code": "rate_limited", "message": error})
            return
        try:
            content = parse_frame(text_data)
        except BadMessage as exc:
            await self.send_lobby({"type": "error", "code": "bad_message", "message": str(exc)})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "filter":
            error = "'type' must be filter"
            await self.send_lobby({"type": "error", "code": "bad_message", "message": error})
            return
        try:
            self.filters = await database_sync_to_async(_lobby_filters)(content)
        except BadMessage as exc:
            await self.send_lobby({"type": "error", "code": "bad_message", "message": str(exc)})
            return
        await self.send_rows()

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.create_task(self.send_rows_soon())

    async def send_rows_soon(self) -> None:
        await asyncio.sleep(LOBBY_REFRESH_SECONDS)
        await self.send_rows()

    async def send_rows(self) -> None:
        rows = await database_sync_to_async(lobby_rows)(**self.filters, viewer_id=self.viewer_id)
        await self.send_lobby({"type": "lobby", "tables": rows})

    async def send_lobby(self, message: dict[str, Any]) -> None:
        self.seq += 1
        await self.send_json({**message, "seq": self.seq})


LOBBY_FILTERS = ("variant", "structure", "stakes")


def _lobby_filters(message: dict[str, Any]) -> dict[str, Any]:
    """The lobby filters a ``filter`` message asks for, checked like the page's."""
    _only_fields(message, *LOBBY_FILTERS)
    for name in ("variant", "structure"):
        value = message.get(name)
        if value is not None and not isinstance(value, str):
            raise BadMessage(f"'{name}' must be text or null, not {value!r}")
    stakes = message.get("stakes")
    if stakes not in (None, "") and type(stakes) is not int:
        raise BadMessage(f"'stakes' must be a stakes id or null, not {stakes!r}")
    form = LobbyFilter({key: message.get(key) or "" for key in LOBBY_FILTERS})
    if not form.is_valid():
        problems = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items())
        raise BadMessage(problems)
    return {name: value for name, value in form.cleaned_data.items() if value}


def message_limit() -> RateLimit:
    """A new connection's limit on every message it sends (settings.py explains the numbers)."""
    return RateLimit(
        settings.CARDROOM_WS_MESSAGE_LIMIT, settings.CARDROOM_WS_MESSAGE_WINDOW_SECONDS
    )


def too_many(what: str, limit: RateLimit) -> str:
    return f"too many {what}: at most {limit.describe()}; this one was not acted on"


class BadMessage(ValueError):
    """A client message that is not what the protocol allows; the text says why."""


def parse_frame(text: str | None) -> Any:
    """A client's text frame as JSON, or :class:`BadMessage`.

    Refused besides what isn't JSON: nesting too deep for the parser, which
    raises RecursionError; ``NaN`` and ``Infinity``, which JSON doesn't have;
    and text that isn't valid Unicode (a lone surrogate such as ``"\\ud800"``),
    which the Redis channel layer can't pack and a browser can't be sent.
    """
    if text is None:
        raise BadMessage("send JSON in text frames")
    try:
        content = json.loads(text, parse_constant=_no_constant)
    except BadMessage:
        raise
    except RecursionError:
        raise BadMessage("the message is nested too deeply") from None
    except ValueError:
        raise BadMessage("the message is not valid JSON") from None
    if not _unicode_only(content):
        raise BadMessage("the message holds text that is not valid Unicode")
    return content


def _no_constant(name: str) -> Any:
    raise BadMessage(f"{name} is not a JSON number")


def _unicode_only(content: Any) -> bool:
    """Whether every string in ``content`` encodes as UTF-8 (no lone surrogates).

    A loop, not recursion: the parser accepts nesting deeper than Python's stack.
    """
    pending = [content]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


# ------------------------------------------------------------ message checks


def _int_field(message: dict[str, Any], name: str, low: int, high: int) -> int:
    value = message.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BadMessage(f"{name!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _only_fields(message: dict[str, Any], *allowed: str) -> None:
    extra = sorted(set(message) - {"type", *allowed})
    if extra:
        raise BadMessage(f"unexpected field(s) for {message['type']!r}: {', '.join(extra)}")


def _check_sit(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "seat", "buy_in")
    return {
        "seat_number": _int_field(message, "seat", 1, MAX_SEAT_NUMBER),
        "buy_in": _int_field(message, "buy_in", 1, MAX_CHIPS),
    }


def _check_act(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "action", "amount", "cards", "turn", "hand")
    kind = message.get("action")
    if not isinstance(kind, str) or kind not in MOVE_KINDS:
        raise BadMessage(f"'action' must be one of {', '.join(sorted(MOVE_KINDS))}, not {kind!r}")
    amount = message.get("amount")
    if amount is not None:
        amount = _int_field(message, "amount", 0, MAX_CHIPS)
    hand = message.get("hand")
    if hand is not None:
        hand = _int_field(message, "hand", 1, 2**63 - 1)
    turn = _int_field(message, "turn", 0, 2**31 - 1)
    cards = _cards_field(message)
    return {"kind": kind, "amount": amount, "cards": cards, "version": turn, "hand_id": hand}


def _cards_field(message: dict[str, Any]) -> list[int] | None:
    """A roll's or an exchange's card: ``"cards": ["Kd"]``, one card named."""
    named = message.get("cards")
    if named is None:
        return None
    if not isinstance(named, list) or len(named) != 1 or not isinstance(named[0], str):
        raise BadMessage("'cards' must be a list of one card, such as [\"Kd\"]")
    try:
        return [parse_card(named[0])]
    except IllegalAction:
        raise BadMessage(f"'cards' must name a card such as \"Kd\", not {named[0]!r}") from None


def _check_chat(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "text")
    text = message.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > CHAT_MAX_CHARS:
        raise BadMessage(f"'text' must be 1 to {CHAT_MAX_CHARS} characters of text")
    return {"text": text}


def _check_amount(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "amount")
    return {"amount": _int_field(message, "amount", 1, MAX_CHIPS)}


def _check_auto_rebuy(message: dict[str, Any]) -> dict[str, Any]:
    """``amount`` is required, and null turns auto-rebuy off."""
    _only_fields(message, "amount")
    if "amount" not in message:
        raise BadMessage("'auto_rebuy' needs 'amount': a number of chips, or null for off")
    if message["amount"] is None:
        return {"amount": None}
    return _check_amount(message)


def _check_bare(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message)
    return {}


def _check_snapshot(message: dict[str, Any]) -> dict[str, Any]:
    """``replay`` (default true): false for a client that keeps no hand log, as
    bots don't, so the reply brings only the events it hasn't been sent."""
    _only_fields(message, "replay")
    replay = message.get("replay", True)
    if type(replay) is not bool:
        raise BadMessage("'replay' must be true or false")
    return {"replay": replay}


# ------------------------------------------------- sync work, in a DB thread


SyncAction = Callable[..., TableRows | None]


def in_db_thread(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` as a coroutine function run in a pool of threads, each with its own connection.

    Not the one thread that sync code shares by default: that thread waits for
    every query of every table in this process in turn, so a busy room queues
    behind it. Moves at one table are still one at a time: each service locks
    the table's row.
    """
    return database_sync_to_async(func, thread_sensitive=False)


def table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()


def player_is_current(player_id: int, session_key: str | None) -> bool:
    """Whether Django's auth, reading the socket's session afresh, still finds this player.

    Not after they logged out (the session is gone), were deactivated, or
    changed their password (the session's hash no longer matches): the socket
    must then stop acting for them.
    """
    if session_key is None:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(request).pk == player_id


def player_balance(player_id: int) -> int | None:
    return User.objects.filter(pk=player_id).values_list("balance", flat=True).first()


class NoLongerCurrent(Exception):
    """The socket's user logged out, was deactivated or changed their password."""


def serve(
    action: SyncAction, table_id: int, player_id: int, session_key: str | None, **fields: Any
) -> TableRows | None:
    """Check that the socket still speaks for ``player_id``, then run ``action``:
    one trip to a database thread for both. The action's table rows, if it has them."""
    if not player_is_current(player_id, session_key):
        raise NoLongerCurrent
    return action(table_id, player_id, **fields)


def do_sit(table_id: int, player_id: int, *, seat_number: int, buy_in: int) -> None:
    services.seat_take(
        table_id=table_id, player_id=player_id, seat_number=seat_number, buy_in=buy_in
    )
    services.hand_start_if_ready(table_id=table_id)


def do_act(
    table_id: int,
    player_id: int,
    *,
    kind: str,
    amount: int | None,
    version: int,
    hand_id: int | None,
    cards: list[int] | None = None,
) -> TableRows | None:
    """Make the move; the table's rows just after it while the hand runs on."""
    if hand_id is None:
        current = Hand.objects.filter(table_id=table_id, ended_at__isnull=True).first()
        if current is None:
            raise services.StaleMove("no hand is being played at this table")
        hand_id = current.pk
    hand = services.hand_act(
        hand_id=hand_id,
        player_id=player_id,
        kind=kind,
        amount=amount,
        cards=cards,
        version=version,
        table_id=table_id,
    )
    if hand.is_finished:
        tasks.next_hand_schedule(table_id)
        return None
    return rows_after_move(hand)


def do_leave(table_id: int, player_id: int) -> None:
    services.seat_leave(table_id=table_id, player_id=player_id)


def do_stay(table_id: int, player_id: int) -> None:
    services.seat_stay(table_id=table_id, player_id=player_id)


def do_sit_out(table_id: int, player_id: int) -> None:
    services.seat_sit_out(table_id=table_id, player_id=player_id)


def do_sit_in(table_id: int, player_id: int) -> None:
    services.seat_sit_in(table_id=table_id, player_id=player_id)
    services.hand_start_if_ready(table_id=table_id)


def do_top_up(table_id: int, player_id: int, *, amount: int) -> None:
    services.seat_top_up(table_id=table_id, player_id=player_id, amount=amount)


def do_rebuy(table_id: int, player_id: int, *, amount: int) -> None:
    services.seat_rebuy(table_id=table_id, player_id=player_id, amount=amount)
    services.hand_start_if_ready(table_id=table_id)  # a busted player is dealt in again


def do_auto_rebuy(table_id: int, player_id: int, *, amount: int | None) -> None:
    services.seat_auto_rebuy_set(table_id=table_id, player_id=player_id, amount=amount)
    services.hand_start_if_ready(table_id=table_id)  # it may have bought a busted seat back in


def do_wait(table_id: int, player_id: int) -> None:
    services.waiting_join(table_id=table_id, player_id=player_id)


def do_unwait(table_id: int, player_id: int) -> None:
    services.waiting_leave(table_id=table_id, player_id=player_id)


@dataclass
class SharedRead:
    """A read of one table that this process's viewers may share until it starts.

    A change notice leaves only after its transaction has committed, so a read
    that has not started when a viewer gets the notice is bound to show that
    change. So the viewers of a busy table join the one read still waiting for
    a database thread instead of each queueing three queries of its own.
    """

    loop: asyncio.AbstractEventLoop
    task: asyncio.Future[TableRows | None] | None = None
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
    """Table rows this process has from the changes it made, by change token.

    A move's service hands back the table as the move left it
    (:func:`do_act`); its change notice carries a token naming those rows, so
    this process's viewers build their snapshots from them with no read. The
    token means nothing to another process, whose viewers read the table as
    after any change. Only the newest ``KEEP`` are kept: a notice handled
    later than that reads instead, as it always may.
    """

    KEEP = 256

    def __init__(self) -> None:
        self.prefix = secrets.token_hex(6)  # this process's, so tokens never collide
        self.counter = itertools.count(1)
        self.rows: OrderedDict[str, TableRows] = OrderedDict()

    def keep(self, rows: TableRows) -> str:
        token = f"{self.prefix}-{next(self.counter)}"
        self.rows[token] = rows
        while len(self.rows) > self.KEEP:
            self.rows.popitem(last=False)
        return token

    def get(self, token: Any) -> TableRows | None:
        return self.rows.get(token) if isinstance(token, str) else None


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


# ---------------------------------------------------------------- consumer

Checker = Callable[[dict[str, Any]], dict[str, Any]]
MESSAGES: dict[str, tuple[Checker, SyncAction | None]] = {
    "sit": (_check_sit, do_sit),
    "act": (_check_act, do_act),
    "leave": (_check_bare, do_leave),
    "stay": (_check_bare, do_stay),
    "sit_out": (_check_bare, do_sit_out),
    "sit_in": (_check_bare, do_sit_in),
    "top_up": (_check_amount, do_top_up),
    "rebuy": (_check_amount, do_rebuy),
    "auto_rebuy": (_check_auto_rebuy, do_auto_rebuy),
    "wait": (_check_bare, do_wait),
    "unwait": (_check_bare, do_unwait),
    "chat": (_check_chat, None),
    "snapshot": (_check_snapshot, None),
}
# Anyone may watch; only these need a logged-in player.
NEEDS_LOGIN = frozenset(
    {"sit", "act", "leave", "stay", "sit_out", "sit_in", "chat"}
    | {"top_up", "rebuy", "auto_rebuy", "wait", "unwait"}
)
SERVICE_ERRORS: tuple[tuple[type[Exception], str], ...] = (
    (services.StaleMove, "stale"),
    (services.IllegalMove, "illegal"),
    (services.ServiceError, "refused"),
)


class TableConsumer(DirectConsumer):
    """One viewer of one table: a player (logged in) or an anonymous observer."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.player_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.username = user.get_username() if self.player_id is not None else ""
        session = self.scope.get("session")
        self.session_key: str | None = session.session_key if session is not None else None
        self.revoked = False  # closing because the user logged out or was deactivated
        self.seq = 0
        self.cursor: Cursor | None = None
        self.stamp: Stamp = (-1, -1)  # how far the rows of the last snapshot sent had got
        self.timer: dict[str, Any] = NO_TIMER  # a client assumes no clock until told
        # The balance while standing: read on connect and whenever the seat
        # comes or goes (it only changes when chips move to or from a seat).
        self.balance: int | None = None
        self.seated = False
        self.messages = message_limit()
        self.chats = RateLimit(settings.CARDROOM_CHAT_LIMIT, settings.CARDROOM_CHAT_WINDOW_SECONDS)
        self.counted = False  # whether this socket is recorded as one of the player's
        await self.accept()  # then close, so the browser sees the 4404 code
        if not await in_db_thread(table_exists)(self.table_id):
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        if self.player_id is not None:
            self.balance = await in_db_thread(player_balance)(self.player_id)
        self.groups = [broadcast.table_group(self.table_id)]
        if self.player_id is not None:
            self.groups.append(broadcast.player_group(self.table_id, self.player_id))
            self.groups.append(broadcast.user_group(self.player_id))
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        back = self.player_id is not None and await self.count_connection()
        # The page picks up where the table is: its recent chat, then the
        # latest hand's log from its first event, then the snapshot.
        for line in await in_db_thread(services.chat_recent)(table_id=self.table_id):
            await self.send_message({"type": "chat", **line})
        await self.send_snapshot()
        if back:  # the seat is no longer shown as disconnected, and the clock may have moved
            await broadcast.announce_changed(self.table_id)

    async def count_connection(self) -> bool:
        """Record this socket as one of the player's at the table; whether their seat changed."""
        back = await in_db_thread(services.connection_open)(
            table_id=self.table_id, player_id=self.player_id, channel_name=self.channel_name
        )
        self.counted = True
        await OPEN_SOCKETS.add(self.channel_name, self.table_id, self.player_id)
        return back

    async def disconnect(self, code: int) -> None:
        if not self.counted:
            return
        await OPEN_SOCKETS.remove(self.channel_name)
        try:
            changed = await in_db_thread(services.connection_close)(
                table_id=self.table_id, player_id=self.player_id, channel_name=self.channel_name
            )
        except services.ServiceError:
            return  # the table is gone, and its connections with it
        if changed:  # that was the player's last connection here
            await broadcast.announce_changed(self.table_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.revoked:
            return  # the socket is closing; the close says why
        if not self.messages.allow():
            await self.send_error("rate_limited", too_many("messages", self.messages))
            return
        try:
            content = parse_frame(text_data)
        except BadMessage as exc:
            await self.send_error("bad_message", str(exc))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if not isinstance(kind, str) or kind not in MESSAGES:
            allowed = ", ".join(MESSAGES)
            await self.send_error("bad_message", f"'type' must be one of {allowed}")
            return
        if kind in NEEDS_LOGIN and self.player_id is None:
            await self.send_error("login_required", f"log in to {kind.replace('_', ' ')}")
            return
        check, action = MESSAGES[kind]
        try:
            fields = check(content)
        except BadMessage as exc:
            await self.send_error("bad_message", str(exc))
            return
        if action is not None:  # it checks the login itself, on the same trip
            await self.run_service(action, fields)
            return
        if self.player_id is not None and not await in_db_thread(player_is_current)(
            self.player_id, self.session_key
        ):
            await self.revoke(NOT_CURRENT)
            return
        await self.dispatch_message(kind, fields)

    async def revoke(self, reason: str) -> None:
        """Act for this user no more: say why, then close; the page reconnects as who it is now."""
        self.revoked = True
        await self.send_error("login_required", f"{reason}; log in again to play")
        await self.close(code=CLOSE_LOGGED_OUT)

    async def dispatch_message(self, kind: str, fields: dict[str, Any]) -> None:
        if kind == "snapshot":
            await self.send_snapshot(replay=fields["replay"])
        elif kind == "chat":
            await self.chat(fields["text"])

    async def chat(self, text: str) -> None:
        if not self.chats.allow():
            await self.send_error("rate_limited", too_many("chat messages", self.chats))
            return
        try:
            line = await in_db_thread(services.chat_post)(
                table_id=self.table_id, player_id=self.player_id, text=text
            )
        except services.ServiceError as exc:
            await self.send_error("refused", str(exc))
            return
        await broadcast.announce_chat(self.table_id, line)

    async def run_service(self, action: SyncAction, fields: dict[str, Any]) -> None:
        try:
            rows = await in_db_thread(serve)(
                action, self.table_id, self.player_id, self.session_key, **fields
            )
        except NoLongerCurrent:
            await self.revoke(NOT_CURRENT)
            return
        except services.ServiceError as exc:
            code = next(code for error, code in SERVICE_ERRORS if isinstance(exc, error))
            await self.send_error(code, str(exc))
            return
        # The service has committed: now everyone at the table may look.
        change = None if rows is None else FRESH_ROWS.keep(rows)
        await broadcast.announce_changed(self.table_id, change=change)

    # Channel-layer handlers: "table.changed", "table.chat" and "user.revoked".

    async def table_changed(self, message: dict[str, Any]) -> None:
        kept = FRESH_ROWS.get(message.get("change"))
        if kept is not None and kept.stamp <= self.stamp:
            # The viewer already has a snapshot read after this move committed.
            return
        await self.send_snapshot(rows=kept)

    async def table_chat(self, message: dict[str, Any]) -> None:
        await self.send_message({"type": "chat", **message["line"]})

    async def user_revoked(self, message: dict[str, Any]) -> None:
        """The user logged out (of this socket's session, if one is named) or was deactivated."""
        if not self.revoked and message["session_key"] in (None, self.session_key):
            await self.revoke(message["reason"])

    # Sending: every message gets this connection's next sequence number.

    async def send_snapshot(self, *, rows: TableRows | None = None, replay: bool = False) -> None:
        """This viewer's snapshot from ``rows``, or from a read of the table begun now,
        after the hand events this connection hasn't been sent.

        ``replay``: the client asked, having missed something or lost its way,
        so it may lack events it was sent: they are sent again, each hand's
        from its first (the client logs each once by its ``index``).
        """
        if rows is None:
            rows = await read_table_shared(self.table_id)
        if rows is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        # A read begun now is at least as new as any rows had before; rows
        # kept from a move are newer than the last snapshot's (table_changed).
        self.stamp = rows.stamp
        cursor = self.cursor
        if replay and cursor is not None:
            cursor = Cursor(cursor.hand_id, seen=0, ended=False)
        earlier = None
        if cursor is not None and needs_earlier_events(rows, cursor):
            earlier = await in_db_thread(events_since)(cursor, self.player_id)
        await self.follow_balance(rows)
        snapshot = build_snapshot(
            rows,
            self.player_id,
            cursor,
            with_events=True,
            earlier=earlier,
            balance=self.balance,
        )
        self.cursor = snapshot.cursor
        timer = self.timer_change(snapshot.payload)
        # One change, one frame: the client applies it whole.
        await self.send_messages([*snapshot.events, snapshot.payload, *timer])

    async def follow_balance(self, rows: TableRows) -> None:
        """Read the balance again when this viewer's seat has come or gone."""
        if self.player_id is None:
            return
        seated = any(seat.player_id == self.player_id for seat in rows.seats)
        if seated != self.seated:
            self.seated = seated
            self.balance = await in_db_thread(player_balance)(self.player_id)

    def timer_change(self, snapshot: dict[str, Any]) -> list[dict[str, Any]]:
        """A ``timer`` message when the turn clock differs from the last one sent."""
        info = snapshot["hand_info"]
        timer = (info and info["timer"]) or NO_TIMER
        if timer == self.timer:
            return []
        self.timer = timer
        return [{"type": "timer", **timer, "now": timezone.now().isoformat()}]

    async def send_error(self, code: str, message: str) -> None:
        await self.send_message({"type": "error", "code": code, "message": message})

    async def send_message(self, message: dict[str, Any]) -> None:
        await self.send_messages([message])

    async def send_messages(self, messages: list[dict[str, Any]]) -> None:
        """One frame: a lone message as itself, several as a JSON array, each
        with this connection's next sequence number."""
        stamped = []
        for message in messages:
            self.seq += 1
            stamped.append({**message, "seq": self.seq})
        await self.send_json(stamped[0] if len(stamped) == 1 else stamped)
