"""Websocket consumers.

A placeholder until the lobby is built: it proves a websocket reaches Django
through Daphne and Channels, and says hello.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        await self.send_json({"type": "hello"})
