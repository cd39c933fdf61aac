"""The floor's websocket: ``ws/tables/<id>/``, one player at one table per connection.

It speaks the part of docs/protocol.md that :class:`tables.bots.Bot` and the
benchmark's ``TableWatch`` use: a ``snapshot`` on connect and on request,
``sit``, ``leave`` and ``act`` in, and ``error``s with the protocol's codes.
Every message out has the connection's ``seq``. The player is the one of the
Django session cookie, resolved once, on connect, by the site's
``cardroom.sockets.websocket_auth`` (Django's session store and user table).
"""

from __future__ import annotations

from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from bench.floor.room import ROOM, Refusal, Stamp
from tables.rules import IllegalAction
from tables.rules.cards import parse_card

CLOSE_LOGIN_REQUIRED = 4401
CLOSE_NO_SUCH_TABLE = 4404


class BadMessage(ValueError):
    """A message the floor can't read."""


def _int(content: dict[str, Any], name: str, *, required: bool = True) -> int | None:
    value = content.get(name)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise BadMessage(f"{name!r} must be a whole number")
    return value


def _cards(content: dict[str, Any]) -> list[int] | None:
    cards = content.get("cards")
    if cards is None:
        return None
    if not isinstance(cards, list):
        raise BadMessage("'cards' must be a list of cards")
    try:
        return [parse_card(card) for card in cards]
    except IllegalAction as exc:
        raise BadMessage(str(exc)) from None


class FloorConsumer(AsyncWebsocketConsumer):
    """One player's connection to one table; no observers (the bench has none)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Each message handled at once: this consumer touches no Django database
        connection, so Channels' hop to close stale ones buys nothing (as
        ``tables.consumers.base.DirectConsumer``)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']!r}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.seq = 0
        self.stamp: Stamp = (-1, -1)
        self.joined = False
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_LOGIN_REQUIRED)
            return
        self.player_id: int = user.pk
        self.name: str = user.get_username()
        await ROOM.join(self.table_id, self.player_id, self)
        self.joined = True
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await ROOM.part(self.table_id, self.player_id, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            content = orjson.loads(text_data or b"")
            if not isinstance(content, dict):
                raise BadMessage("a message is a JSON object")
            await self.handle(content)
        except (BadMessage, orjson.JSONDecodeError) as exc:
            await self.send_error("bad_message", str(exc))
        except Refusal as exc:
            await self.send_error(exc.code, str(exc))

    async def handle(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "act":
            action = content.get("action")
            if not isinstance(action, str):
                raise BadMessage("'action' must be text")
            turn = _int(content, "turn")
            assert turn is not None
            await ROOM.act(
                self.table_id,
                self.player_id,
                hand_id=_int(content, "hand", required=False),
                turn=turn,
                kind=action,
                amount=_int(content, "amount", required=False),
                cards=_cards(content),
            )
        elif kind == "sit":
            seat, buy_in = _int(content, "seat"), _int(content, "buy_in")
            assert seat is not None and buy_in is not None
            await ROOM.sit(self.table_id, self.player_id, self.name, seat, buy_in)
        elif kind == "leave":
            await ROOM.leave(self.table_id, self.player_id)
        elif kind == "snapshot":
            await self.send_snapshot()
        else:
            raise BadMessage("'type' must be one of act, sit, leave, snapshot")

    async def send_snapshot(self) -> None:
        found = await ROOM.snapshot(self.table_id, self.player_id)
        if found is None:
            await self.close(code=CLOSE_NO_SUCH_TABLE)
            return
        text, self.stamp = found
        await self.send_text(text)

    async def floor_frame(self, message: dict[str, Any]) -> None:
        """A change's frame, built for this player by the process that made it, sent
        to their group (the ``player`` fan-out)."""
        stamp: Stamp = (message["stamp"][0], message["stamp"][1])
        ROOM.note_seen(self.table_id, stamp)
        await self.deliver(message["text"], stamp)

    async def deliver(self, text: str, stamp: Stamp) -> None:
        """Send this player's frame of a change, unless the connection has a later one."""
        if stamp < self.stamp:
            return
        self.stamp = stamp
        await self.send_text(text)

    async def send_error(self, code: str, message: str) -> None:
        self.seq += 1
        frame = {"type": "error", "seq": self.seq, "code": code, "message": message}
        await self.send(text_data=orjson.dumps(frame).decode())

    async def send_text(self, text: str) -> None:
        """``text``, a JSON object built without ``seq``, with this connection's next one."""
        self.seq += 1
        await self.send(text_data=f'{{"seq":{self.seq},{text[1:]}')
