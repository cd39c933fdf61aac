"""The table websocket, driven through the real ASGI app with real login sessions.

Personas: alice (seat 1) and bob (seat 2) play and see their own down cards;
carol is logged in but stands; the observer is anonymous and sees only what
everyone may see. Every test disconnects every socket it opened.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

import channels.consumer
import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from cardroom.asgi import application
from tables import services
from tables.consumers import table as table_consumer
from tables.models import Hand, Seat, Table, TableConnection
from tables.rules.games import how_it_plays
from tests.tables.conftest import session_of

pytestmark = pytest.mark.django_db(transaction=True)

# What a browser on a page of the site at http://localhost sends with a handshake.
SAME_SITE = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
# How long a test waits for a frame it expects. Generous: on CI the other test
# process may be starting a browser and servers, and a frame that is merely
# slow must not fail a test; one that never comes fails it with the stacks of
# the loop's tasks (:func:`stacks_if_late`).
FRAME_WAIT_SECONDS = 10


def task_stacks() -> str:
    """Where every task on the running loop is waiting, one stack each."""
    out = io.StringIO()
    for task in asyncio.all_tasks():
        print(f"--- {task.get_name()}: {task.get_coro()!r}", file=out)
        task.print_stack(file=out)
    return out.getvalue()


@asynccontextmanager
async def stacks_if_late(seconds: float, what: str) -> AsyncIterator[None]:
    """Take the loop's tasks' stacks if the block still runs after ``seconds``,
    before a timeout inside it cancels them: a ``TimeoutError`` from the block
    then says where every task was, and a block that never ends (a consumer
    whose cleanup hangs) has them printed, for pytest-timeout's report."""
    taken: list[str] = []

    def take() -> None:
        taken.append(task_stacks())
        print(f"{what}: still waiting after {seconds:g} s; the tasks:\n{taken[0]}", file=sys.stderr)

    late = asyncio.get_running_loop().call_later(seconds, take)
    try:
        yield
    except TimeoutError as error:
        if taken:
            raise TimeoutError(f"{what}: nothing came; the tasks were:\n{taken[0]}") from error
        raise
    finally:
        late.cancel()


class Socket:
    """One websocket connection and every message it has received, in order.

    A frame holding several messages (a JSON array: one change's events, its
    snapshot and its timer) is taken apart into them, and ``arrays`` keeps
    each such frame's messages as they came.
    """

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[dict[str, Any]] = []
        self.arrays: list[list[dict[str, Any]]] = []
        self.unread: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        """The next frame that isn't a ``timer``; timers are kept in ``frames`` too."""
        while (frame := await self.receive_any())["type"] == "timer":
            pass
        return frame

    async def receive_any(self) -> dict[str, Any]:
        if not self.unread:
            async with stacks_if_late(FRAME_WAIT_SECONDS * 0.9, "a frame"):
                data = await self.communicator.receive_json_from(timeout=FRAME_WAIT_SECONDS)
            if isinstance(data, list):
                assert len(data) > 1, data  # a lone message travels as itself
                self.arrays.append(data)
            self.unread = list(data) if isinstance(data, list) else [data]
        frame = self.unread.pop(0)
        self.frames.append(frame)
        return frame

    @property
    def timers(self) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == "timer"]

    @property
    def errors(self) -> list[tuple[str, str]]:
        """Every refusal received so far: its code and its words."""
        return [(f["code"], f["message"]) for f in self.frames if f["type"] == "error"]

    async def receive_snapshot(self) -> dict[str, Any]:
        """Frames up to and including the next snapshot (events come before it)."""
        while (frame := await self.receive())["type"] != "snapshot":
            assert frame["type"] == "event", frame
        return frame

    async def send(self, message: Any) -> None:
        await self.communicator.send_json_to(message)

    async def idle(self, timeout: float) -> bool:
        """Nothing is left to read, and nothing more arrives within ``timeout`` seconds."""
        return not self.unread and await self.communicator.receive_nothing(timeout=timeout)

    async def quiet(self) -> bool:
        """Nothing but ``timer`` frames arrives in the next 0.2 s."""
        while not await self.idle(0.2):
            if (await self.receive_any())["type"] != "timer":
                return False
        return True

    @property
    def last_snapshot(self) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == "snapshot")


Join = Callable[..., Awaitable[Socket]]


@asynccontextmanager
async def room() -> AsyncIterator[Join]:
    """Open sockets with ``await join(table_id, cookie)``; all are disconnected on the way out."""
    opened: list[WebsocketCommunicator] = []

    async def join(table_id: int, cookie: str | None = None) -> Socket:
        headers = list(SAME_SITE)
        if cookie is not None:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        communicator = WebsocketCommunicator(
            application, f"/ws/tables/{table_id}/", headers=headers
        )
        opened.append(communicator)
        connected, _ = await communicator.connect()
        assert connected
        socket = Socket(communicator)
        # The table's recent chat and the latest hand's log come before the snapshot.
        while (frame := await socket.receive())["type"] != "snapshot":
            assert frame["type"] in ("chat", "event"), frame
        return socket

    try:
        yield join
    finally:
        for communicator in opened:
            async with stacks_if_late(FRAME_WAIT_SECONDS, "a disconnect"):
                await communicator.disconnect()


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run a test's async body. Through async_to_sync, the consumers' database work
    happens on this test's own thread and connection, and leaves none behind."""
    async_to_sync(scenario)()


@database_sync_to_async
def seats_of(table: Table) -> list[tuple[int, str, int, str]]:
    return [
        (s.number, s.player.username, s.stack, s.state)
        for s in Seat.objects.filter(table=table).select_related("player")
    ]


@database_sync_to_async
def current_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).first()


@database_sync_to_async
def hand_record(hand_id: int) -> tuple[int, int, dict[str, Any]]:
    hand = Hand.objects.get(pk=hand_id)
    return hand.version, len(hand.moves()), hand.state


async def sit(socket: Socket, seat: int, buy_in: int = 200) -> dict[str, Any]:
    await socket.send({"type": "sit", "seat": seat, "buy_in": buy_in})
    return await socket.receive_snapshot()


async def heads_up(join: Join, table: Table, cookies: dict[str, str]) -> tuple[Socket, ...]:
    """Alice (seat 1) and bob (seat 2) sit, a hand starts; an observer watches."""
    alice, bob, observer = (
        await join(table.pk, cookies["alice"]),
        await join(table.pk, cookies["bob"]),
        await join(table.pk),
    )
    await sit(alice, 1)
    for socket in (bob, observer):
        await socket.receive_snapshot()
    await sit(bob, 2)
    for socket in (alice, observer):
        await socket.receive_snapshot()
    assert bob.last_snapshot["hand"] is not None
    return alice, bob, observer


def to_act(snapshot: dict[str, Any]) -> int:
    """The seat number whose turn it is."""
    return snapshot["hand_info"]["seats"][snapshot["hand"]["to_act"]]


def first_move(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A legal act message for the viewer, built from their own snapshot."""
    option = snapshot["hand"]["legal_actions"][0]
    amount = option["amounts"][0] if option["kind"] in ("bet", "raise", "complete") else None
    message = {"type": "act", "action": option["kind"], "turn": snapshot["hand"]["turn"]}
    return message | ({"amount": amount} if amount is not None else {})


# ----------------------------------------------------------------- connecting


def test_an_observer_gets_a_public_snapshot_with_no_you(table: Table) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            snapshot = observer.frames[0]
            assert snapshot["seq"] == 1
            assert snapshot["you"] is None and snapshot["hand"] is None
            rules = snapshot["table"].pop("rules")
            assert rules == list(how_it_plays(table.stakes.game_config()))
            assert snapshot["table"] == {
                "id": table.pk,
                "name": "Table 1",
                "stakes": "Seven-card stud, 5/10, ante 1, bring-in 2",
                "buy_in": [50, 500],
                "mix": None,
                "call": None,
                "is_open": True,
                "waiting": "players",
                "waiting_list": [],
                "held_seats": [],
                "seats": [],
            }

    run(scenario)


def test_a_logged_in_viewer_is_told_who_they_are(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(table.pk, cookies["carol"])
            user = await database_sync_to_async(User.objects.get)(username="carol")
            assert carol.frames[0]["you"] == {
                "player": user.pk,
                "seat": None,
                "balance": user.balance,
                "auto_rebuy_to": None,
                "sitting_out_next": False,
                "waiting_position": None,
                "offer": None,
            }

    run(scenario)


def test_an_unknown_table_closes_with_4404(db: None) -> None:
    async def scenario() -> None:
        communicator = WebsocketCommunicator(application, "/ws/tables/999/", headers=SAME_SITE)
        try:
            connected, _ = await communicator.connect()
            assert connected
            assert await communicator.receive_output(timeout=3) == {
                "type": "websocket.close",
                "code": 4404,
            }
        finally:
            await communicator.disconnect()

    run(scenario)


def test_the_snapshot_message_sends_a_fresh_snapshot_with_the_next_seq(table: Table) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            await observer.send({"type": "snapshot"})
            snapshot = await observer.receive()
            assert (snapshot["type"], snapshot["seq"]) == ("snapshot", 2)
            assert await observer.quiet()

    run(scenario)


# ------------------------------------------------------------- seats and chat


def test_sitting_down_shows_the_seat_to_everyone_once(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            mine = await sit(alice, 1, 150)
            theirs = await observer.receive_snapshot()
            for snapshot in (mine, theirs):
                assert snapshot["table"]["seats"] == [
                    {
                        "number": 1,
                        "player": "alice",
                        "stack": 150,
                        "state": "playing",
                        "sat_out_for": None,
                        "leaving": False,
                    }
                ]
            assert mine["you"]["seat"] == 1 and theirs["you"] is None
            alice_now = await database_sync_to_async(User.objects.get)(username="alice")
            assert (
                mine["you"]["balance"] == alice_now.balance == settings.CARDROOM_SIGNUP_GRANT - 150
            )
            assert await alice.quiet() and await observer.quiet()
            assert await seats_of(table) == [(1, "alice", 150, "playing")]

    run(scenario)


def test_messages_reach_the_consumers_without_channels_connection_hop(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Channels' own dispatch hops to the shared sync thread to close stale
    # connections before every message; ours skip it (in_db_thread does it).
    hops: list[None] = []
    original = channels.consumer.aclose_old_connections

    async def counted() -> None:
        hops.append(None)
        await original()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)

    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            mine = await sit(alice, 1, 150)  # a message in, a change notice out to both
            theirs = await observer.receive_snapshot()
            assert mine["you"]["seat"] == 1 and theirs["table"]["seats"][0]["player"] == "alice"

    run(scenario)
    assert hops == []


def test_an_anonymous_visitor_must_log_in_to_sit_or_chat(table: Table) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            for message in (
                {"type": "sit", "seat": 1, "buy_in": 100},
                {"type": "chat", "text": "hi"},
            ):
                await observer.send(message)
                error = await observer.receive()
                assert (error["type"], error["code"]) == ("error", "login_required")
            assert await observer.quiet()
            assert await seats_of(table) == []

    run(scenario)


def test_sitting_in_a_taken_seat_is_refused_and_changes_nothing(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = (
                await join(table.pk, cookies["alice"]),
                await join(table.pk, cookies["bob"]),
            )
            await sit(alice, 1)
            await bob.receive_snapshot()
            await bob.send({"type": "sit", "seat": 1, "buy_in": 100})
            error = await bob.receive()
            assert error["code"] == "refused" and "seat 1" in error["message"]
            assert await alice.quiet() and await bob.quiet()
            assert await seats_of(table) == [(1, "alice", 200, "playing")]

    run(scenario)


def test_leaving_frees_the_seat_for_everyone(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await sit(alice, 1)
            await observer.receive_snapshot()
            await alice.send({"type": "leave"})
            assert (await alice.receive_snapshot())["you"] == {
                "player": (await database_sync_to_async(User.objects.get)(username="alice")).pk,
                "seat": None,
                "balance": settings.CARDROOM_SIGNUP_GRANT,  # the buy-in is back
                "auto_rebuy_to": None,
                "sitting_out_next": False,
                "waiting_position": None,
                "offer": None,
            }
            assert (await observer.receive_snapshot())["table"]["seats"] == []
            assert await seats_of(table) == []

    run(scenario)


def test_leaving_with_no_seat_is_refused(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(table.pk, cookies["carol"])
            await carol.send({"type": "leave"})
            assert (await carol.receive())["code"] == "refused"
            assert await carol.quiet()

    run(scenario)


def test_sitting_out_and_back_in(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, cookies["alice"])
            await sit(alice, 1)
            await alice.send({"type": "sit_out"})
            assert (await alice.receive_snapshot())["table"]["seats"][0]["state"] == "sitting_out"
            assert await seats_of(table) == [(1, "alice", 200, "sitting_out")]
            await alice.send({"type": "sit_in"})
            assert (await alice.receive_snapshot())["table"]["seats"][0]["state"] == "playing"

    run(scenario)


def test_chat_reaches_everyone_as_the_plain_text_sent(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            text = '<b>nice hand</b> & "gl"'
            await alice.send({"type": "chat", "text": text})
            ids = set()
            for socket in (alice, observer):
                frame = await socket.receive()
                assert (frame["type"], frame["from"], frame["text"]) == ("chat", "alice", text)
                assert frame["seq"] == 2
                ids.add(frame["id"])
                assert await socket.quiet()
            assert len(ids) == 1  # one kept line, the same for everyone

    run(scenario)


def test_a_page_opened_later_gets_the_recent_chat_then_the_hands_log(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            for line in ("gl", "you too"):
                await alice.send({"type": "chat", "text": line})
            for socket in (alice, bob):
                await observer_frames_until_quiet(socket)
            mover = alice if to_act(alice.last_snapshot) == 1 else bob
            await mover.send(first_move(mover.last_snapshot))
            await mover.receive_snapshot()
            await observer_frames_until_quiet(observer)
            had = [f for f in observer.frames if f["type"] == "event"]

            late = await join(table.pk)  # a reload: a new socket for the same page
            chat = [(f["from"], f["text"]) for f in late.frames if f["type"] == "chat"]
            assert chat == [("alice", "gl"), ("alice", "you too")]
            events = [f["event"] for f in late.frames if f["type"] == "event"]
            # The whole hand so far, as this watcher may see it: the antes, the
            # deal with every down card hidden, the move just made.
            assert events == [f["event"] for f in had]
            assert [e["type"] for e in events][:2] == ["ante", "ante"]
            assert all(e["card"] is None for e in events if e["type"] == "deal" and not e["up"])
            kinds = [f["type"] for f in late.frames]
            assert kinds.index("snapshot") == len(kinds) - 1 or kinds[-1] == "timer"

    run(scenario)


async def observer_frames_until_quiet(socket: Socket) -> list[dict[str, Any]]:
    """Frames that arrive until 0.3 s pass with nothing new."""
    start = len(socket.frames)
    while not await socket.idle(0.3):
        await socket.receive_any()
    return socket.frames[start:]


# ------------------------------------------- logging out and deactivation


async def closed_with(socket: Socket) -> int:
    """The close code the server ends the socket with; frames before it are kept."""
    while (output := await socket.communicator.receive_output(timeout=3))["type"] != (
        "websocket.close"
    ):
        socket.frames.append(json.loads(output["text"]))
    return output["code"]


@database_sync_to_async
def deactivate_quietly(username: str) -> None:
    """As a bulk update would: no signal, so only the socket's own check can notice."""
    User.objects.filter(username=username).update(is_active=False)


@pytest.mark.parametrize(
    "message",
    [{"type": "chat", "text": "still here"}, {"type": "sit", "seat": 1, "buy_in": 200}],
    ids=["chat", "sit"],
)
def test_a_deactivated_users_next_message_is_refused_and_their_socket_closed(
    message: dict[str, Any], table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await deactivate_quietly("alice")
            await alice.send(message)
            assert await closed_with(alice) == 4401
            assert [(f["type"], f["code"]) for f in alice.frames[1:]] == [
                ("error", "login_required")
            ]
            assert await observer.quiet()  # no chat, no seat
            assert await seats_of(table) == []

    run(scenario)


def test_a_socket_whose_login_was_checked_already_is_still_refused_once_it_ends(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, cookies["alice"])
            await alice.send({"type": "chat", "text": "hello"})  # the login checked, and kept
            assert (await alice.receive())["text"] == "hello"
            await deactivate_quietly("alice")
            await alice.send({"type": "sit", "seat": 1, "buy_in": 200})
            assert await closed_with(alice) == 4401
            assert await seats_of(table) == []

    run(scenario)


def test_a_move_by_a_player_whose_login_ended_changes_nothing_and_closes_their_socket(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover, name = (alice, "alice") if to_act(bob.last_snapshot) == 1 else (bob, "bob")
            hand = await current_hand(table)
            assert hand is not None
            before = await hand_record(hand.pk)
            await deactivate_quietly(name)
            await mover.send(first_move(mover.last_snapshot))  # checked in the move's trip
            assert await closed_with(mover) == 4401
            assert await hand_record(hand.pk) == before
            assert await observer.quiet()

    run(scenario)


def test_logging_out_closes_the_sockets_of_that_session(table: Table, alice: User) -> None:
    browser = Client()
    browser.force_login(alice)
    elsewhere = session_of(alice)  # alice on another computer, still logged in

    async def scenario() -> None:
        async with room() as join:
            here = await join(table.pk, browser.cookies["sessionid"].value)
            there = await join(table.pk, elsewhere)
            await database_sync_to_async(browser.logout)()
            assert await closed_with(here) == 4401
            assert here.frames[-1]["code"] == "login_required"
            assert "logged out" in here.frames[-1]["message"]
            assert await there.quiet()
            await there.send({"type": "chat", "text": "still here"})
            assert (await there.receive())["text"] == "still here"

    run(scenario)


def test_deactivating_a_user_closes_all_their_sockets(
    table: Table, alice: User, cookies: dict[str, str]
) -> None:
    other_session = session_of(alice)

    async def scenario() -> None:
        async with room() as join:
            sockets = [await join(table.pk, cookies["alice"]), await join(table.pk, other_session)]
            alice.is_active = False
            await database_sync_to_async(alice.save)()  # as the admin's change form saves
            for socket in sockets:
                assert await closed_with(socket) == 4401
                assert "deactivated" in socket.frames[-1]["message"]

    run(scenario)


# --------------------------------------------------------------- rate limits


def test_chat_past_its_limit_is_refused_line_by_line_and_never_broadcast(
    table: Table, cookies: dict[str, str], settings: Any
) -> None:
    # A window of an hour: nothing refills while the test runs, however slow the machine.
    settings.CARDROOM_CHAT_LIMIT, settings.CARDROOM_CHAT_WINDOW_SECONDS = 3, 3600

    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            for n in range(1, 6):
                await alice.send({"type": "chat", "text": f"line {n}"})
            heard = [(await observer.receive())["text"] for _ in range(3)]
            assert heard == ["line 1", "line 2", "line 3"]
            assert await observer.quiet()
            frames = [await alice.receive() for _ in range(5)]
            assert sorted(f["text"] for f in frames if f["type"] == "chat") == heard
            errors = [f for f in frames if f["type"] == "error"]
            assert [e["code"] for e in errors] == ["rate_limited", "rate_limited"]
            assert "at most 3 every 3600 seconds" in errors[0]["message"]
            assert await alice.quiet()

    run(scenario)


def test_every_message_past_the_connections_limit_gets_rate_limited(
    table: Table, cookies: dict[str, str], settings: Any
) -> None:
    settings.CARDROOM_WS_MESSAGE_LIMIT, settings.CARDROOM_WS_MESSAGE_WINDOW_SECONDS = 4, 3600

    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await alice.send({"type": "snapshot"})
            await alice.receive_snapshot()
            await alice.send({"type": "chat", "text": "hi"})
            await alice.send({"type": "sit", "seat": 1, "buy_in": 200})
            await alice.send({"type": "snapshot"})  # the fourth: the last one allowed
            await alice.send({"type": "sit_out"})  # would have changed the seat
            await alice.communicator.send_to(text_data="not even JSON")
            await alice.send({"type": "chat", "text": "hi again"})
            kinds = [(f["type"], f.get("code")) for f in [await alice.receive() for _ in range(6)]]
            assert kinds.count(("error", "rate_limited")) == 3
            assert ("chat", None) in kinds
            assert kinds.count(("snapshot", None)) == 2
            assert await alice.quiet()
            assert [f["type"] for f in [await observer.receive() for _ in range(2)]] == [
                "chat",
                "snapshot",
            ]
            assert await observer.quiet()
            assert await seats_of(table) == [(1, "alice", 200, "playing")]  # not sitting out

    run(scenario)


# --------------------------------------------------------------- bad messages


BAD_MESSAGES = [
    pytest.param("not json", id="not-json"),
    pytest.param("[1, 2]", id="a-list"),
    pytest.param('"sit"', id="a-string"),
    pytest.param('{"seat": 1}', id="no-type"),
    pytest.param('{"type": "dance"}', id="unknown-type"),
    pytest.param('{"type": "sit", "buy_in": 100}', id="sit-without-seat"),
    pytest.param('{"type": "sit", "seat": "1", "buy_in": 100}', id="seat-as-text"),
    pytest.param('{"type": "sit", "seat": 0, "buy_in": 100}', id="seat-zero"),
    pytest.param('{"type": "sit", "seat": 1, "buy_in": true}', id="buy-in-bool"),
    pytest.param('{"type": "sit", "seat": 1, "buy_in": 100.5}', id="buy-in-float"),
    pytest.param('{"type": "sit", "seat": 1, "buy_in": 100, "x": 1}', id="extra-field"),
    pytest.param('{"type": "act", "action": "dance", "turn": 0}', id="unknown-action"),
    pytest.param('{"type": "act", "action": "fold"}', id="act-without-turn"),
    pytest.param('{"type": "act", "action": "bet", "amount": -5, "turn": 0}', id="neg-amount"),
    pytest.param('{"type": "chat", "text": ""}', id="empty-chat"),
    pytest.param('{"type": "chat", "text": 5}', id="chat-not-text"),
    pytest.param('{"type": "chat", "text": "' + "x" * 301 + '"}', id="chat-too-long"),
    pytest.param('{"type": "leave", "seat": 1}', id="leave-with-field"),
]


@pytest.mark.parametrize("raw", BAD_MESSAGES)
def test_a_bad_message_is_answered_with_bad_message_and_changes_nothing(
    raw: str, table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await alice.communicator.send_to(text_data=raw)
            error = await alice.receive()
            assert (error["type"], error["code"], error["seq"]) == ("error", "bad_message", 2)
            assert error["message"]
            assert await alice.quiet() and await observer.quiet()
            assert await seats_of(table) == []

    run(scenario)


# Frames that once crashed the consumer (close 1011), which then marked the
# player's seat disconnected.
MALFORMED_FRAMES = [
    pytest.param('{"type": "chat", "text": ' + "[" * 100_000 + "]" * 100_000 + "}", id="deep"),
    pytest.param('{"type": "act", "action": ["fold"], "turn": 0}', id="action-a-list"),
    pytest.param('{"type": "act", "action": {"k": 1}, "turn": 0}', id="action-an-object"),
    pytest.param('{"type": "chat", "text": "\\ud800"}', id="lone-surrogate"),
    pytest.param('{"type": "sit", "seat": 1, "buy_in": Infinity}', id="infinity"),
]


@pytest.mark.parametrize("raw", MALFORMED_FRAMES)
def test_a_malformed_frame_is_a_bad_message_and_the_seat_stays_as_it_was(
    raw: str, table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await sit(alice, 2)
            await observer.receive_snapshot()
            await alice.communicator.send_to(text_data=raw)
            error = await alice.receive()
            assert (error["type"], error["code"]) == ("error", "bad_message"), error
            assert await alice.quiet() and await observer.quiet()
            await alice.send({"type": "snapshot"})  # still connected, still answered
            assert (await alice.receive())["type"] == "snapshot"
            assert await seats_of(table) == [(2, "alice", 200, "playing")]

    run(scenario)


def test_a_lone_surrogate_in_chat_is_refused_before_the_redis_layer_packs_it(
    table: Table, cookies: dict[str, str], redis_layer: None
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            await alice.communicator.send_to(text_data='{"type": "chat", "text": "a\\ud800"}')
            assert (await alice.receive())["code"] == "bad_message"
            await alice.send({"type": "chat", "text": "a\U0001f600"})  # a real emoji is fine
            for socket in (alice, observer):
                assert (await socket.receive())["text"] == "a\U0001f600"

    run(scenario)


def test_a_binary_frame_is_a_bad_message(table: Table) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            await observer.communicator.send_to(bytes_data=b'{"type": "snapshot"}')
            assert (await observer.receive())["code"] == "bad_message"

    run(scenario)


def test_a_chat_of_exactly_300_characters_is_fine(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, cookies["alice"])
            await alice.send({"type": "chat", "text": "x" * 300})
            assert (await alice.receive())["type"] == "chat"

    run(scenario)


# ----------------------------------------------------------------- playing


def test_a_hand_starts_when_the_second_player_sits(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            assert await current_hand(table) is not None
            for socket in (alice, bob, observer):
                assert socket.last_snapshot["hand"]["street"] == "3rd street"
                assert await socket.quiet()

    run(scenario)


def test_players_see_their_own_down_cards_and_the_observer_none(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            for socket, me in ((alice, 1), (bob, 2), (observer, None)):
                snapshot = socket.last_snapshot
                seats = snapshot["hand_info"]["seats"]
                for index, player in enumerate(snapshot["hand"]["players"]):
                    mine = seats[index] == me
                    down = [held["card"] for held in player["cards"] if not held["up"]]
                    assert down and all((card is not None) == mine for card in down)
            assert observer.last_snapshot["hand"]["legal_actions"] == []

    run(scenario)


def test_only_the_player_to_act_gets_legal_actions(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            seat = to_act(bob.last_snapshot)
            mover, waiter = (alice, bob) if seat == 1 else (bob, alice)
            assert mover.last_snapshot["hand"]["legal_actions"]
            assert waiter.last_snapshot["hand"]["legal_actions"] == []
            assert observer.last_snapshot["hand"]["legal_actions"] == []

    run(scenario)


def test_a_move_reaches_each_viewer_as_one_snapshot_of_their_own(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover, waiter = (alice, bob) if to_act(bob.last_snapshot) == 1 else (bob, alice)
            before = mover.last_snapshot["hand"]["turn"]
            await mover.send(first_move(mover.last_snapshot))
            for socket in (mover, waiter, observer):
                snapshot = await socket.receive_snapshot()
                assert snapshot["hand"]["turn"] == before + 1
            assert waiter.last_snapshot["hand"]["legal_actions"]
            for socket in (mover, waiter, observer):
                assert await socket.quiet()

    run(scenario)


def test_a_move_is_timed_from_when_its_socket_received_it(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move's service gets the moment the frame was received, not the
    later one at which a database thread got to it (here 0.3 s later): the
    clock charges the player up to the first."""
    calls: list[tuple[Any, datetime]] = []
    original = table_consumer.serve

    def slow_serve(*args: Any, **fields: Any) -> Any:
        time.sleep(0.3)  # a busy server's queue
        calls.append((fields.get("received_at"), timezone.now()))
        return original(*args, **fields)

    monkeypatch.setattr(table_consumer, "serve", slow_serve)

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            before = mover.last_snapshot["hand"]["turn"]
            calls.clear()  # the seats taken
            sent = timezone.now()
            await mover.send(first_move(mover.last_snapshot))
            assert (await mover.receive_snapshot())["hand"]["turn"] == before + 1

            [(received, served)] = calls
            assert received is not None
            assert sent <= received <= served - timedelta(seconds=0.25)

    run(scenario)


def test_a_change_reaches_each_viewer_in_one_frame_events_then_snapshot_then_timer(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            for socket in (alice, bob, observer):
                socket.arrays.clear()
            await mover.send(first_move(mover.last_snapshot))
            for socket in (alice, bob, observer):
                snapshot = await socket.receive_snapshot()
                while socket.unread:  # the rest of the frame: its timer
                    await socket.receive_any()
                [frame] = socket.arrays
                kinds = [message["type"] for message in frame]
                assert kinds == ["event", "snapshot", "timer"]
                assert frame[1] == snapshot
                assert frame[2]["seat"] != mover.last_snapshot["you"]["seat"]  # the next turn
                seqs = [message["seq"] for message in frame]
                assert seqs == list(range(seqs[0], seqs[0] + 3))

    run(scenario)


def test_each_event_comes_with_its_log_line_the_same_for_every_viewer(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            # The deal as each was told it: the same words, and no down card named,
            # not even the viewer's own (their seat shows those).
            dealt = [
                [f["text"] for f in socket.frames if f["type"] == "event" and f["text"]]
                for socket in (alice, bob, observer)
            ]
            assert dealt[0][-2:] == dealt[1][-2:] == dealt[2][-2:]
            alices, bobs = sorted(dealt[1][-2:])  # dealt from the dealer's left
            assert re.fullmatch(r"Seat 1 \(alice\) is dealt 2 down cards and \S+ up", alices)
            assert re.fullmatch(r"Seat 2 \(bob\) is dealt 2 down cards and \S+ up", bobs)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            seat, name = (1, "alice") if mover is alice else (2, "bob")
            move = first_move(mover.last_snapshot)
            for socket in (alice, bob, observer):
                socket.arrays.clear()
            await mover.send(move)
            told = []
            for socket in (alice, bob, observer):
                await socket.receive_snapshot()
                [frame] = socket.arrays
                told.append([m["text"] for m in frame if m["type"] == "event"])
            words = {
                "bring_in": f"brings in {table.stakes.bring_in}",
                "complete": f"completes to {move.get('amount')}",
            }[move["action"]]
            assert told[0] == told[1] == told[2] == [f"Seat {seat} ({name}) {words}"]

    run(scenario)


def test_every_frame_on_a_connection_has_the_next_seq(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            sockets = await heads_up(join, table, cookies)
            for socket in sockets:
                assert [f["seq"] for f in socket.frames] == list(range(1, len(socket.frames) + 1))

    run(scenario)


def test_acting_out_of_turn_is_illegal_and_changes_nothing(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            waiter = bob if to_act(bob.last_snapshot) == 1 else alice
            hand_id = waiter.last_snapshot["hand_info"]["id"]
            before = await hand_record(hand_id)
            turn = waiter.last_snapshot["hand"]["turn"]
            await waiter.send({"type": "act", "action": "fold", "turn": turn})
            error = await waiter.receive()
            assert error["code"] == "illegal" and "turn" in error["message"]
            assert await hand_record(hand_id) == before
            for socket in (alice, bob, observer):
                assert await socket.quiet()

    run(scenario)


def test_a_stale_turn_is_refused_as_stale_and_changes_nothing(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, _observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            hand_id = mover.last_snapshot["hand_info"]["id"]
            before = await hand_record(hand_id)
            move = first_move(mover.last_snapshot)
            await mover.send(move | {"turn": move["turn"] + 1})
            assert (await mover.receive())["code"] == "stale"
            assert await hand_record(hand_id) == before

    run(scenario)


def test_an_action_sent_twice_is_applied_once_and_the_second_is_stale(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            hand_id = mover.last_snapshot["hand_info"]["id"]
            version, actions, _ = await hand_record(hand_id)
            move = first_move(mover.last_snapshot)
            await mover.send(move)
            await mover.send(move)
            kinds: list[tuple[str, str | None]] = []
            while len(kinds) < 2:
                frame = await mover.receive()
                if frame["type"] != "event":
                    kinds.append((frame["type"], frame.get("code")))
            assert sorted(kinds) == [("error", "stale"), ("snapshot", None)]
            assert (await hand_record(hand_id))[:2] == (version + 1, actions + 1)
            for socket in (alice, bob, observer):
                if socket is not mover:
                    await socket.receive_snapshot()
                assert await socket.quiet()

    run(scenario)


def test_acting_with_no_hand_running_is_stale(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, cookies["alice"])
            await sit(alice, 1)
            await alice.send({"type": "act", "action": "fold", "turn": 0})
            assert (await alice.receive())["code"] == "stale"

    run(scenario)


def test_a_player_not_in_the_hand_is_refused(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            *_, observer = await heads_up(join, table, cookies)
            carol = await join(table.pk, cookies["carol"])
            turn = observer.last_snapshot["hand"]["turn"]
            await carol.send({"type": "act", "action": "fold", "turn": turn})
            assert (await carol.receive())["code"] == "refused"

    run(scenario)


def test_leaving_during_your_hand_waits_for_it_and_staying_takes_it_back(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            await alice.send({"type": "leave"})
            for socket in (alice, bob, observer):
                seats = (await socket.receive_snapshot())["table"]["seats"]
                assert [(s["player"], s["leaving"]) for s in seats] == [
                    ("alice", True),
                    ("bob", False),
                ]
            assert len(await seats_of(table)) == 2
            await alice.send({"type": "stay"})
            seats = (await alice.receive_snapshot())["table"]["seats"]
            assert [s["leaving"] for s in seats] == [False, False]

            await alice.send({"type": "leave"})
            for socket in (alice, bob):
                await observer_frames_until_quiet(socket)
            # Whoever can folds, which soon ends the hand: alice is stood up with her chips.
            while (await current_hand(table)) is not None:
                mover = alice if alice.last_snapshot["hand"]["legal_actions"] else bob
                await mover.send(fold_or_first(mover.last_snapshot))
                for socket in (alice, bob):
                    await socket.receive_snapshot()
            await observer_frames_until_quiet(observer)
            seats = observer.last_snapshot["table"]["seats"]
            assert [s["player"] for s in seats] == ["bob"]
            assert [s[1] for s in await seats_of(table)] == ["bob"]

    run(scenario)


def fold_or_first(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A fold when one is allowed, else the viewer's first legal move."""
    kinds = [option["kind"] for option in snapshot["hand"]["legal_actions"]]
    if "fold" in kinds:
        return {"type": "act", "action": "fold", "turn": snapshot["hand"]["turn"]}
    return first_move(snapshot)


def test_a_table_short_of_players_says_it_waits_for_them(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, cookies["alice"]), await join(table.pk)
            assert observer.last_snapshot["table"]["waiting"] == "players"
            await sit(alice, 1)
            assert (await observer.receive_snapshot())["table"]["waiting"] == "players"
            bob = await join(table.pk, cookies["bob"])
            await sit(bob, 2)  # a hand starts
            assert (await observer.receive_snapshot())["table"]["waiting"] is None
            await alice.receive_snapshot()
            await alice.send({"type": "sit_out"})  # she is dealt out of the next hand
            await alice.receive_snapshot()
            assert alice.last_snapshot["table"]["waiting"] is None  # this hand plays on

    run(scenario)


# ------------------------------------------------------------ the turn clock


def test_a_running_turn_sends_everyone_a_timer_matching_the_hand(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            hand = await current_hand(table)
            for socket in (alice, bob, observer):
                while not socket.timers:
                    await socket.receive_any()
                timer = socket.timers[-1]
                assert timer["seat"] == to_act(socket.last_snapshot)
                assert timer["seats"] == [timer["seat"]]
                assert timer["deadline"] == hand.turn_deadline.isoformat()
                assert timer["expires_at"] == hand.turn_expires_at.isoformat()
                assert timer["time_bank_ms"] == 20_000  # the stakes' whole countdown
                assert timer["clock"] == "per_turn"
                assert socket.last_snapshot["hand_info"]["timer"] == {
                    key: timer[key]
                    for key in ("seat", "seats", "deadline", "expires_at", "time_bank_ms", "clock")
                }

    run(scenario)


def test_an_idle_table_sends_no_timer(table: Table, cookies: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(table.pk, cookies["carol"])
            await sit(carol, 3)
            assert await carol.quiet()
            assert carol.timers == []
            assert carol.last_snapshot["hand"] is None

    run(scenario)


# ------------------------------------------------------------- reconnecting


def test_a_dropped_player_shows_as_disconnected_and_back_as_playing(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            await bob.communicator.disconnect()
            snapshot = await observer.receive_snapshot()
            states = {seat["number"]: seat["state"] for seat in snapshot["table"]["seats"]}
            assert states == {1: "playing", 2: "disconnected"}

            bob = await join(table.pk, cookies["bob"])
            snapshot = await observer.receive_snapshot()
            states = {seat["number"]: seat["state"] for seat in snapshot["table"]["seats"]}
            assert states == {1: "playing", 2: "playing"}

    run(scenario)


def test_closing_one_of_two_tabs_leaves_the_seat_playing_until_the_last_closes(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            first, second = (
                await join(table.pk, cookies["alice"]),
                await join(table.pk, cookies["alice"]),
            )
            observer = await join(table.pk)
            await sit(first, 1)
            await second.receive_snapshot()
            await observer.receive_snapshot()
            await first.communicator.disconnect()
            assert await observer.quiet() and await second.quiet()
            assert await seats_of(table) == [(1, "alice", 200, "playing")]
            await second.communicator.disconnect()
            snapshot = await observer.receive_snapshot()
            assert snapshot["table"]["seats"][0]["state"] == "disconnected"
            assert await seats_of(table) == [(1, "alice", 200, "disconnected")]

    run(scenario)


def test_an_open_tab_keeps_vouching_for_its_connection(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its process's heartbeat refreshes the row, so only a dead process's rows go stale."""
    monkeypatch.setattr(services, "CONNECTION_HEARTBEAT_SECONDS", 0.05)

    @database_sync_to_async
    def seen() -> Any:
        return TableConnection.objects.get(table=table).seen_at

    async def scenario() -> None:
        async with room() as join:
            await join(table.pk, cookies["alice"])
            opened = await seen()
            for _ in range(100):
                if await seen() > opened:
                    return
                await asyncio.sleep(0.05)
            raise AssertionError("the connection's row was never refreshed")

    run(scenario)


def test_a_reconnected_player_gets_the_hand_as_stored_and_one_extension(
    table: Table, cookies: dict[str, str], settings: Any
) -> None:
    settings.CARDROOM_RECONNECT_EXTENSION_SECONDS = 20

    async def scenario() -> None:
        async with room() as join:
            alice, bob, _ = await heads_up(join, table, cookies)
            sockets = {1: alice, 2: bob}
            names = {1: "alice", 2: "bob"}
            seat = to_act(sockets[1].last_snapshot)
            before = await current_hand(table)

            for _ in range(2):  # the second time round there is no more time to give
                await sockets[seat].communicator.disconnect()
                sockets[seat] = await join(table.pk, cookies[names[seat]])
            hand = await current_hand(table)
            assert hand.turn_expires_at == before.turn_expires_at + timedelta(seconds=20)

            mine = next(frame for frame in sockets[seat].frames if frame["type"] == "snapshot")
            user = await database_sync_to_async(User.objects.get)(username=names[seat])
            stored = await database_sync_to_async(services.hand_view)(
                hand_id=hand.pk, player_id=user.pk
            )
            assert mine["hand"] == stored
            assert mine["hand"]["legal_actions"]  # it is still their turn, buttons and all
            while sockets[seat].timers == [] or sockets[seat].timers[-1]["expires_at"] != (
                hand.turn_expires_at.isoformat()
            ):
                await sockets[seat].receive_any()

    run(scenario)
