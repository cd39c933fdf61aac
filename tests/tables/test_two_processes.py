"""One table, its viewers on two Daphne processes that share PostgreSQL and Redis.

The servers are real (two Daphnes on two ports, the project's channel layer
in Redis), and so are the sockets and the login sessions: what a browser on
either process sees after a move made through either one, and what is left
when a process is killed while a move is on its way.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.management import call_command
from django.db import connection, transaction
from websockets.asyncio.client import ClientConnection, connect

from accounts.models import User
from tables import services
from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.views import view
from tests.conftest import stop_process_group
from tests.tables.conftest import daphne_start, session_of
from tests.tables.test_concurrency import wait_for_lock_waiters
from tests.tables.test_consumers import first_move, to_act

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10.0  # seconds for a frame, however slow the machine


class Daphnes:
    """Daphne processes started for one test, each on its own port."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.servers: list[subprocess.Popen[bytes]] = []

    def start(self) -> tuple[str, subprocess.Popen[bytes]]:
        url, server = daphne_start(self.env, self.logs / f"daphne-{len(self.servers)}.log")
        self.servers.append(server)
        return url, server

    def stop(self) -> None:
        for server in self.servers:
            stop_process_group(server)
        for log in sorted(self.logs.glob("daphne-*.log")):
            print(log.name, log.read_text())  # shown by pytest only when the test fails


@pytest.fixture
def daphnes(server_env: dict[str, str], tmp_path: Path) -> Iterator[Daphnes]:
    servers = Daphnes(server_env, tmp_path)
    try:
        yield servers
    finally:
        servers.stop()


class Viewer:
    """One browser's socket at the table: the frames it was sent, message by message."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.messages: list[dict[str, Any]] = []

    async def next(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message from now on that is ``wanted``."""
        deadline = time.monotonic() + WAIT
        while True:
            text = await asyncio.wait_for(self.socket.recv(), deadline - time.monotonic())
            frame = json.loads(text)
            for message in frame if isinstance(frame, list) else [frame]:
                self.messages.append(message)
                if wanted(message):
                    return message

    async def snapshot_after(self, turn: int) -> dict[str, Any]:
        """The first snapshot of the hand past ``turn``."""
        return await self.next(
            lambda m: m["type"] == "snapshot" and m["hand"] is not None and m["hand"]["turn"] > turn
        )

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(message))


@asynccontextmanager
async def viewer(url: str, table: Table, cookie: str | None = None) -> AsyncIterator[Viewer]:
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
    origin = url.replace("ws://", "http://", 1)
    async with connect(
        f"{url}/ws/tables/{table.pk}/",
        origin=origin,
        additional_headers=headers,
    ) as socket:
        seen = Viewer(socket)
        await seen.next(lambda m: m["type"] == "snapshot")
        yield seen


def dealt(table: Table, alice: User, bob: User) -> Hand:
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None
    return hand


def staying_in(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The viewer's first legal move that isn't a fold: the hand goes on."""
    options = [o for o in snapshot["hand"]["legal_actions"] if o["kind"] != "fold"]
    return first_move({**snapshot, "hand": {**snapshot["hand"], "legal_actions": options}})


def as_sent(payload: dict[str, Any]) -> Any:
    return json.loads(json.dumps(payload))


def test_moves_through_either_process_reach_every_viewer_on_both_alike(
    daphnes: Daphnes, table: Table, alice: User, bob: User, settings: Any
) -> None:
    settings.CARDROOM_TURN_TASKS = False  # no worker here: hands follow at once
    hand = dealt(table, alice, bob)
    (first, _), (second, _) = daphnes.start(), daphnes.start()
    cookies = {alice.pk: session_of(alice), bob.pk: session_of(bob)}

    async def scenario() -> set[str]:
        async with (
            viewer(first, table, cookies[alice.pk]) as alice_here,
            viewer(first, table) as observer_here,
            viewer(second, table, cookies[bob.pk]) as bob_there,
            viewer(second, table) as observer_there,
        ):
            players = {1: alice_here, 2: bob_there}
            everyone = [alice_here, observer_here, bob_there, observer_there]
            movers: set[str] = set()
            latest = alice_here.messages[-1]
            for _ in range(4):  # the turn passes from one to the other: both processes move
                seat = to_act(latest)
                mover = players[seat]
                own = next(m for m in reversed(mover.messages) if m["type"] == "snapshot")
                turn = own["hand"]["turn"]
                await mover.send(staying_in(own))
                movers.add(first if mover is alice_here else second)
                seen = [await socket.snapshot_after(turn) for socket in everyone]
                stored = await asyncio.to_thread(Hand.objects.get, pk=hand.pk)
                state = HandState.from_dict(stored.state)
                # Each sees the hand exactly as the engine shows it to them: the
                # observers alike on both processes, each player their own cards.
                assert seen[1]["hand"] == seen[3]["hand"] == as_sent(view(state, None))
                assert seen[0]["hand"] == as_sent(view(state, stored.engine_player(alice.pk)))
                assert seen[2]["hand"] == as_sent(view(state, stored.engine_player(bob.pk)))
                assert seen[1]["table"] == seen[3]["table"]
                latest = seen[0]
                if state.finished:
                    break
            return movers

    assert async_to_sync(scenario)() == {first, second}


def test_a_process_killed_as_a_move_arrives_loses_nothing_committed_and_applies_nothing_twice(
    daphnes: Daphnes, table: Table, alice: User, bob: User, settings: Any
) -> None:
    settings.CARDROOM_TURN_TASKS = False
    hand = dealt(table, alice, bob)
    (first, doomed), (second, _) = daphnes.start(), daphnes.start()
    state = HandState.from_dict(hand.state)
    mover = hand.player_ids()[state.to_act]
    cookie = session_of(User.objects.get(pk=mover))

    move: dict[str, Any] = {}

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with viewer(first, table, cookie) as here:
            move.update(staying_in(here.messages[-1]))
            await here.send(move)
            os.killpg(doomed.pid, signal.SIGKILL)  # at once: the move may or may not be in
        async with viewer(second, table, cookie) as there:
            again = there.messages[-1]
            await there.send(move)  # the page sends it again, as it was
            answer = await there.next(lambda m: m["type"] in ("error", "snapshot"))
            return again, [answer]

    again, answers = async_to_sync(scenario)()
    stored = Hand.objects.get(pk=hand.pk)

    def moves(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [action for action in actions if action["player"] is not None]

    # The move was committed once, before the kill or by the resend, never twice.
    after = moves(HandState.from_dict(stored.state).actions)
    assert after[:-1] == moves(state.actions)
    assert (after[-1]["player"], after[-1]["kind"]) == (state.to_act, move["action"])
    # The reconnected page was shown the hand as it was stored then.
    committed_before = again["hand"]["turn"] > state.turn
    if committed_before:
        assert answers[0]["type"] == "error" and answers[0]["code"] == "stale"
    else:
        assert answers[0]["type"] == "snapshot" and answers[0]["hand"]["turn"] > state.turn
    call_command("audit_chips")


def test_a_process_killed_in_a_move_holding_the_hand_leaves_it_to_the_other(
    daphnes: Daphnes, table: Table, alice: User, bob: User, settings: Any
) -> None:
    """The first process makes a move, so it holds the hand's state
    (``tables.services.live``); it is killed inside the transaction of the
    next one. The other process takes the hand over from PostgreSQL."""
    settings.CARDROOM_TURN_TASKS = False
    hand = dealt(table, alice, bob)
    (first, doomed), (second, _) = daphnes.start(), daphnes.start()
    cookies = {alice.pk: session_of(alice), bob.pk: session_of(bob)}
    seats = {1: alice.pk, 2: bob.pk}
    go, locked = threading.Event(), threading.Event()

    def lock_the_table() -> None:  # as a slow writer would, in its own connection
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table.pk)
                locked.set()
                go.wait(WAIT)
        finally:
            connection.close()

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        async with (
            viewer(first, table, cookies[alice.pk]) as alice_here,
            viewer(first, table, cookies[bob.pk]) as bob_here,
        ):
            here = {alice.pk: alice_here, bob.pk: bob_here}
            latest = alice_here.messages[-1]
            opener = here[seats[to_act(latest)]]
            own = opener.messages[-1]
            made = [staying_in(own)]
            await opener.send(made[0])
            follower_id = next(p for p, socket in here.items() if socket is not opener)
            after = await here[follower_id].snapshot_after(own["hand"]["turn"])
            made.append(staying_in(after))
            holder = threading.Thread(target=lock_the_table)
            holder.start()
            await asyncio.to_thread(locked.wait, WAIT)
            await here[follower_id].send(made[1])  # its transaction waits on the lock
            await asyncio.to_thread(wait_for_lock_waiters, 1)
            os.killpg(doomed.pid, signal.SIGKILL)
        go.set()
        await asyncio.to_thread(holder.join, WAIT)
        async with viewer(second, table, cookies[follower_id]) as there:
            again = there.messages[-1]
            await there.send(made[1])  # the page sends it again, as it was
            moved = await there.snapshot_after(again["hand"]["turn"])
            await there.send(made[1])  # and once more: too late now
            late = await there.next(lambda m: m["type"] == "error")
            return made, again, moved | {"late": late}

    made, again, moved = async_to_sync(scenario)()
    stored = Hand.objects.get(pk=hand.pk)
    state = HandState.from_dict(stored.state)
    kinds = [action["kind"] for action in state.actions if action["player"] is not None]
    assert kinds == [made[0]["action"], made[1]["action"]]  # each once, in order
    assert again["hand"]["turn"] == made[1]["turn"]  # the killed move never committed
    assert moved["hand"]["turn"] == stored.version == made[1]["turn"] + 1
    assert moved["late"]["code"] == "stale"
    call_command("audit_chips")
