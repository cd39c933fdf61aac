"""The live lobby: ``ws/lobby/``."""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async

from tables import broadcast
from tables.consumers.base import DirectConsumer, message_limit, too_many
from tables.consumers.messages import BadMessage, lobby_filters, parse_frame
from tables.selectors.lobby import lobby_rows
from tables.selectors.tables import home_game_rows

LOBBY_REFRESH_SECONDS = 1.0


class LobbyConsumer(DirectConsumer):
    """The lobby's live rows (``ws/lobby/``): sent on connect and after table changes.

    Change notices can come many times a second from a busy room, so each
    connection answers them at most once per ``LOBBY_REFRESH_SECONDS``. The
    notice is the same for every viewer; each connection reads its own rows,
    which mark the tables its player sits at, and a player's home games. A
    notice that comes while the rows are being read may tell of a change the
    read began too early to see: the rows are read again after it.
    """

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.viewer_id: int | None = user.pk if user is not None and user.is_authenticated else None
        self.filters: dict[str, Any] = {}
        self.seq = 0
        self.messages = message_limit()
        self.refresh: asyncio.Task[None] | None = None
        self.changed = False  # a change notice not yet answered by a read begun after it
        self.groups = [broadcast.LOBBY_GROUP]
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_rows()

    async def disconnect(self, code: int) -> None:
        if self.refresh is not None:
            self.refresh.cancel()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
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
            self.filters = await database_sync_to_async(lobby_filters)(content)
        except BadMessage as exc:
            await self.send_lobby({"type": "error", "code": "bad_message", "message": str(exc)})
            return
        await self.send_rows()

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        self.changed = True
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.create_task(self.send_rows_soon())

    async def send_rows_soon(self) -> None:
        while self.changed:
            await asyncio.sleep(LOBBY_REFRESH_SECONDS)
            self.changed = False  # this read begins after every notice so far
            await self.send_rows()

    async def send_rows(self) -> None:
        rows = await database_sync_to_async(self.read_rows)()
        await self.send_lobby({"type": "lobby", **rows})

    def read_rows(self) -> dict[str, Any]:
        """The room's tables; for a player, their home games too."""
        rows: dict[str, Any] = {"tables": lobby_rows(**self.filters, viewer_id=self.viewer_id)}
        if self.viewer_id is not None:
            rows["home_games"] = home_game_rows(self.viewer_id)
        return rows

    async def send_lobby(self, message: dict[str, Any]) -> None:
        self.seq += 1
        await self.send_json({**message, "seq": self.seq})
