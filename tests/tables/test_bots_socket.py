"""A bot at the real table consumer asks for a snapshot only when one can help.

The bot (``tables.bots.Bot``) plays over a ``WebsocketCommunicator`` to the real
ASGI app, with a real login session, PostgreSQL and the channel layer: only its
socket is in-process instead of over TCP.

Personas: alice (seat 1) and bob (seat 2) are dealt in; whichever of them is
first to act is the bot, and sees its own down cards; the other never moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from cardroom.asgi import application
from tables import services
from tables.bots import Bot
from tables.models import Hand, Table
from tests.tables.conftest import player_to_act, session_of
from tests.tables.test_bots import Recorder
from tests.tables.test_consumers import SAME_SITE, run

pytestmark = pytest.mark.django_db(transaction=True)


class BotSocket:
    """The bot's end of a communicator: the frames the consumer sends until
    ``closed``, and the bot's messages handed to the consumer."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.closed = False

    async def __aiter__(self) -> AsyncIterator[str]:
        while not self.closed:
            if not await self.communicator.receive_nothing(timeout=0.05):
                yield await self.communicator.receive_from()

    async def send(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)


@dataclass
class FumblingBot(Bot):
    """Its first move is a raise of more chips than anyone has: the rules refuse it."""

    fumbled: bool = False

    def act(self, snapshot: dict[str, Any]) -> dict[str, Any] | None:
        move = super().act(snapshot)
        if move is None or self.fumbled:
            return move
        self.fumbled = True
        return {**move, "action": "raise", "amount": 10**6}


@database_sync_to_async
def actions_of(hand: Hand) -> int:
    return len(Hand.objects.get(pk=hand.pk).moves())


async def until(check: Callable[[], Any], what: str, seconds: float = 5) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        assert loop.time() < deadline, f"waited {seconds}s for {what}"
        await asyncio.sleep(0.02)


@pytest.fixture
def dealt(seated: Table) -> Hand:
    """Alice and bob seated (``seated``), and the first hand dealt."""
    services.hand_start_if_ready(table_id=seated.pk)
    return Hand.objects.get(table=seated, ended_at__isnull=True)


@pytest.fixture
def to_act(dealt: Hand) -> Bot:
    """The bot: whichever of alice and bob is first to act, logged in by a real session."""
    user = User.objects.get(pk=player_to_act(dealt))
    return FumblingBot(
        name=user.username,
        cookie=f"sessionid={session_of(user)}",
        url="ws://localhost",
        table_id=dealt.table_id,
        buy_in=200,
        seats=2,
        hooks=Recorder(delay=0),
    )


Scenario = Callable[[BotSocket, Recorder], Awaitable[None]]


def play_at_the_table(me: Bot, scenario: Scenario) -> None:
    """Run the bot against the real consumer while ``scenario`` watches it."""
    hooks = me.hooks
    assert isinstance(hooks, Recorder)

    async def body() -> None:
        headers = [*SAME_SITE, (b"cookie", me.cookie.encode())]
        communicator = WebsocketCommunicator(
            application, f"/ws/tables/{me.table_id}/", headers=headers
        )
        connected, _ = await communicator.connect()
        assert connected
        socket = BotSocket(communicator)
        playing = asyncio.create_task(me.play(socket))
        try:
            await scenario(socket, hooks)
        finally:
            socket.closed = True
            await playing
            await communicator.disconnect()

    run(body)


def errors(hooks: Recorder) -> list[str]:
    return [message["code"] for message in hooks.heard if message["type"] == "error"]


def test_a_bot_refused_by_the_rules_chooses_again_without_asking_for_a_snapshot(
    to_act: Bot, dealt: Hand
) -> None:
    async def scenario(socket: BotSocket, hooks: Recorder) -> None:
        await until(lambda: hooks.sent_types == ["act", "act"], "a second move")
        await until(lambda: hooks.received_types.count("snapshot") == 2, "the move's snapshot")
        assert errors(hooks) == ["illegal"]
        assert await actions_of(dealt) == 1  # the move chosen again was made
        assert "snapshot" not in hooks.sent_types

    play_at_the_table(to_act, scenario)


def test_a_bot_that_sent_a_malformed_message_asks_for_nothing(to_act: Bot) -> None:
    to_act.hooks = Recorder(delay=None)  # leaves its turn to the clock

    async def scenario(socket: BotSocket, hooks: Recorder) -> None:
        await until(lambda: "snapshot" in hooks.received_types, "the first snapshot")
        await to_act.send(socket, {"type": "act", "action": "fold"})  # no turn
        await until(lambda: errors(hooks) == ["bad_message"], "the refusal")
        await asyncio.sleep(0.3)  # time for a request to be sent and answered
        assert hooks.sent_types == ["act"]
        assert hooks.received_types.count("snapshot") == 1

    play_at_the_table(to_act, scenario)


def test_a_bot_whose_move_was_stale_asks_for_a_snapshot_without_the_replay(
    to_act: Bot, dealt: Hand
) -> None:
    to_act.hooks = Recorder(delay=None)

    async def scenario(socket: BotSocket, hooks: Recorder) -> None:
        await until(lambda: "snapshot" in hooks.received_types, "the first snapshot")
        assert to_act.latest is not None
        turn = to_act.latest["hand"]["turn"] + 1  # not the hand's: as if it had moved on
        await to_act.send(socket, {"type": "act", "action": "fold", "turn": turn, "hand": dealt.pk})
        await until(lambda: hooks.received_types.count("snapshot") == 2, "the asked snapshot")
        assert hooks.said[-1] == {"type": "snapshot", "replay": False}
        after = hooks.received_types[hooks.received_types.index("error") :]
        assert "event" not in after  # the hand's events were not sent again

    play_at_the_table(to_act, scenario)
