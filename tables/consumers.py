"""Websocket consumers: the lobby placeholder and the live table (``ws/tables/<id>/``).

The table consumer is thin: it checks who is connected, checks each message
against an allow-list of types and fields, calls one service through
``database_sync_to_async`` and then tells the table that it changed. Every
consumer at the table answers that notice by rebuilding a snapshot for its own
viewer, so each viewer only ever receives what :func:`tables.rules.views.view`
and :func:`tables.rules.views.events_for` give *them*. The protocol is in
``docs/protocol.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tables import broadcast, services
from tables.models import Hand, Seat, Table
from tables.rules import HandState
from tables.rules.state import BET_KINDS, SHOWDOWN_KINDS
from tables.rules.views import events_for

CHAT_MAX_CHARS = 300
MOVE_KINDS = frozenset(BET_KINDS + SHOWDOWN_KINDS)
# Generous outer bounds; the services apply the table's own limits.
MAX_SEAT_NUMBER = 8
MAX_CHIPS = 10**12
CLOSE_NO_SUCH_TABLE = 4404


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """A placeholder until the lobby is built: proves the websocket path works."""

    async def connect(self) -> None:
        await self.accept()
        await self.send_json({"type": "hello"})


class BadMessage(ValueError):
    """A client message that is not what the protocol allows; the text says why."""


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
    _only_fields(message, "action", "amount", "turn", "hand")
    kind = message.get("action")
    if kind not in MOVE_KINDS:
        raise BadMessage(f"'action' must be one of {', '.join(sorted(MOVE_KINDS))}, not {kind!r}")
    amount = message.get("amount")
    if amount is not None:
        amount = _int_field(message, "amount", 0, MAX_CHIPS)
    hand = message.get("hand")
    if hand is not None:
        hand = _int_field(message, "hand", 1, 2**63 - 1)
    turn = _int_field(message, "turn", 0, 2**31 - 1)
    return {"kind": kind, "amount": amount, "version": turn, "hand_id": hand}


def _check_chat(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message, "text")
    text = message.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > CHAT_MAX_CHARS:
        raise BadMessage(f"'text' must be 1 to {CHAT_MAX_CHARS} characters of text")
    return {"text": text}


def _check_bare(message: dict[str, Any]) -> dict[str, Any]:
    _only_fields(message)
    return {}


# ------------------------------------------------- sync work, in a DB thread


def table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()


def hand_start_if_ready(table_id: int) -> Hand | None:
    """Deal the next hand if the table is open, idle and has two players with chips.

    For now hands start as soon as they can; a delayed start (a Celery task)
    may replace this. Another connection starting it first is a normal outcome.
    """
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None or table.hands.filter(ended_at__isnull=True).exists():
        return None
    ready = table.seat_set.filter(state=Seat.State.PLAYING, stack__gt=0).count()
    if ready < 2:
        return None
    try:
        return services.hand_start(table_id=table_id)
    except services.ServiceError:
        return None  # someone got there first, or a seat left meanwhile


def do_sit(table_id: int, player_id: int, *, seat_number: int, buy_in: int) -> None:
    services.seat_take(
        table_id=table_id, player_id=player_id, seat_number=seat_number, buy_in=buy_in
    )
    hand_start_if_ready(table_id)


def do_act(
    table_id: int,
    player_id: int,
    *,
    kind: str,
    amount: int | None,
    version: int,
    hand_id: int | None,
) -> None:
    if hand_id is None:
        current = Hand.objects.filter(table_id=table_id, ended_at__isnull=True).first()
        if current is None:
            raise services.StaleMove("no hand is being played at this table")
        hand_id = current.pk
    elif not Hand.objects.filter(pk=hand_id, table_id=table_id).exists():
        raise services.ServiceError(f"hand #{hand_id} is not played at this table")
    hand = services.hand_act(
        hand_id=hand_id, player_id=player_id, kind=kind, amount=amount, version=version
    )
    if hand.is_finished:
        hand_start_if_ready(table_id)


def do_leave(table_id: int, player_id: int) -> None:
    services.seat_leave(table_id=table_id, player_id=player_id)


def do_sit_out(table_id: int, player_id: int) -> None:
    services.seat_sit_out(table_id=table_id, player_id=player_id)


def do_sit_in(table_id: int, player_id: int) -> None:
    services.seat_sit_in(table_id=table_id, player_id=player_id)
    hand_start_if_ready(table_id)


@dataclass
class Snapshot:
    payload: dict[str, Any]
    events: list[dict[str, Any]]  # new events of the hand the viewer was following
    cursor: tuple[int, int] | None  # (hand id, events seen) to remember


def build_snapshot(
    table_id: int, player_id: int | None, cursor: tuple[int, int] | None, *, with_events: bool
) -> Snapshot | None:
    """Everything ``player_id`` (None: an anonymous observer) may see at the table now.

    ``cursor`` is the hand and the number of its events this viewer has had.
    With ``with_events``, the events after it are returned, and every event of
    a newer hand, filtered for this viewer. None if the table is gone.
    """
    table = Table.objects.select_related("stakes").filter(pk=table_id).first()
    if table is None:
        return None
    seats = list(table.seat_set.select_related("player").order_by("number"))
    hand = table.hands.order_by("-number").first()
    events = []
    if with_events:
        events = _events_since(cursor, player_id)
        if hand is not None and (cursor is None or cursor[0] != hand.pk):
            events += _events_since((hand.pk, 0), player_id)
    payload = {
        "type": "snapshot",
        "table": _table_payload(table, seats),
        "hand": None,
        "hand_info": None,
        "you": None,
    }
    if player_id is not None:
        mine = next((seat.number for seat in seats if seat.player_id == player_id), None)
        payload["you"] = {"player": player_id, "seat": mine}
    if hand is not None:
        payload["hand"] = services.hand_view(hand_id=hand.pk, player_id=player_id)
        payload["hand_info"] = _hand_info(hand)
        cursor = (hand.pk, len(hand.state["events"]))
    return Snapshot(payload, events, cursor)


def _table_payload(table: Table, seats: list[Seat]) -> dict[str, Any]:
    return {
        "id": table.pk,
        "name": table.name,
        "stakes": table.stakes.describe(),
        "is_open": table.is_open,
        "seats": [
            {
                "number": seat.number,
                "player": seat.player.username,
                "stack": seat.stack,
                "state": seat.state,
            }
            for seat in seats
        ],
    }


def _hand_info(hand: Hand) -> dict[str, Any]:
    """Public facts about the hand the view does not carry: who engine player ``i`` is."""
    return {
        "id": hand.pk,
        "number": hand.number,
        "dealer": hand.seating["dealer"],
        "seats": [entry["seat"] for entry in hand.seating["players"]],
        "deck_commitment": hand.deck_commitment,
        "finished": hand.is_finished,
    }


def _events_since(cursor: tuple[int, int] | None, player_id: int | None) -> list[dict[str, Any]]:
    """New events of the hand the viewer was following, as that viewer may see them."""
    if cursor is None:
        return []
    hand_id, seen = cursor
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        return []
    viewer = next(
        (i for i, entry in enumerate(hand.seating["players"]) if entry["player"] == player_id),
        None,
    )
    visible = events_for(HandState.from_dict(hand.state), viewer)
    return [{"type": "event", "hand_id": hand_id, "event": event} for event in visible[seen:]]


# ---------------------------------------------------------------- consumer

Checker = Callable[[dict[str, Any]], dict[str, Any]]
SyncAction = Callable[..., None]
MESSAGES: dict[str, tuple[Checker, SyncAction | None]] = {
    "sit": (_check_sit, do_sit),
    "act": (_check_act, do_act),
    "leave": (_check_bare, do_leave),
    "sit_out": (_check_bare, do_sit_out),
    "sit_in": (_check_bare, do_sit_in),
    "chat": (_check_chat, None),
    "snapshot": (_check_bare, None),
}
# Anyone may watch; only these need a logged-in player.
NEEDS_LOGIN = frozenset({"sit", "act", "leave", "sit_out", "sit_in", "chat"})
SERVICE_ERRORS: tuple[tuple[type[Exception], str], ...] = (
    (services.StaleMove, "stale"),
    (services.IllegalMove, "illegal"),
    (services.ServiceError, "refused"),
)


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one table: a player (logged in) or an anonymous observer."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        self.player_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.username = user.get_username() if self.player_id is not None else ""
        self.seq = 0
        self.cursor: tuple[int, int] | None = None
        await self.accept()  # then close, so the browser sees the 4404 code
        if not await database_sync_to_async(table_exists)(self.table_id):
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        self.groups = [broadcast.table_group(self.table_id)]
        if self.player_id is not None:
            self.groups.append(broadcast.player_group(self.table_id, self.player_id))
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_snapshot(with_events=False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.send_error("bad_message", "send JSON in text frames")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_message", "the message is not valid JSON")
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
        await self.dispatch_message(kind, action, fields)

    async def dispatch_message(
        self, kind: str, action: SyncAction | None, fields: dict[str, Any]
    ) -> None:
        if kind == "snapshot":
            await self.send_snapshot(with_events=False)
        elif kind == "chat":
            await broadcast.announce_chat(self.table_id, self.username, fields["text"])
        elif action is not None:
            await self.run_service(action, fields)

    async def run_service(self, action: SyncAction, fields: dict[str, Any]) -> None:
        try:
            await database_sync_to_async(action)(self.table_id, self.player_id, **fields)
        except services.ServiceError as exc:
            code = next(code for error, code in SERVICE_ERRORS if isinstance(exc, error))
            await self.send_error(code, str(exc))
            return
        # The service has committed: now everyone at the table may look.
        await broadcast.announce_changed(self.table_id)

    # Channel-layer handlers: "table.changed" and "table.chat".

    async def table_changed(self, message: dict[str, Any]) -> None:
        await self.send_snapshot(with_events=True)

    async def table_chat(self, message: dict[str, Any]) -> None:
        await self.send_message({"type": "chat", "from": message["from"], "text": message["text"]})

    # Sending: every message gets this connection's next sequence number.

    async def send_snapshot(self, *, with_events: bool) -> None:
        snapshot = await database_sync_to_async(build_snapshot)(
            self.table_id, self.player_id, self.cursor, with_events=with_events
        )
        if snapshot is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        self.cursor = snapshot.cursor
        for event in snapshot.events:
            await self.send_message(event)
        await self.send_message(snapshot.payload)

    async def send_error(self, code: str, message: str) -> None:
        await self.send_message({"type": "error", "code": code, "message": message})

    async def send_message(self, message: dict[str, Any]) -> None:
        self.seq += 1
        await self.send_json({**message, "seq": self.seq})
