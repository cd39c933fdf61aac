"""The lobby websocket: rows on connect, filters, pushes after a table changes.

An anonymous visitor is enough for most: the lobby shows nothing private. Only
which tables a player sits at is theirs: alice's socket marks hers, a
visitor's marks none, from the same change notice.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connection

from accounts.models import User
from cardroom.asgi import application
from tables import broadcast, services
from tables.consumers.lobby import LobbyConsumer
from tables.models import Stakes, Table, TableMember
from tables.selectors.lobby import lobby_rows
from tests.tables.conftest import session_of
from tests.tables.test_consumers import SAME_SITE, run

pytestmark = pytest.mark.django_db(transaction=True)

# How long a frame that is due may take to arrive before the test fails. A
# push waits out the lobby's refresh and reads the rows, which on a busy
# two-core machine running browser tests alongside has taken over 3 s.
DUE = 10


@pytest.fixture
def razz_table(db: None) -> Table:
    stakes = Stakes.objects.create(
        name="Razz 2/4", variant="razz", bring_in=1, small_bet=2, big_bet=4,
        min_buy_in=40, max_buy_in=400, seats=6,
    )  # fmt: skip
    return Table.objects.create(name="Razz table", stakes=stakes)


@asynccontextmanager
async def lobby(session: str | None = None) -> AsyncIterator[WebsocketCommunicator]:
    """The lobby's socket, for a visitor or for the player with this session cookie."""
    headers = list(SAME_SITE)
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    try:
        yield communicator
    finally:
        await communicator.disconnect()


def names(message: dict[str, Any]) -> list[str]:
    return [row["name"] for row in message["tables"]]


def test_connecting_sends_every_open_table_as_the_page_shows_it(
    table: Table, razz_table: Table
) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            message = await socket.receive_json_from(timeout=DUE)
            assert (message["type"], message["seq"]) == ("lobby", 1)
            assert message["tables"] == await database_sync_to_async(lobby_rows)()
            assert sorted(names(message)) == ["Razz table", "Table 1"]

    run(scenario)


def test_a_filter_message_narrows_the_rows(table: Table, razz_table: Table) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            await socket.send_json_to({"type": "filter", "variant": "razz", "stakes": None})
            assert names(await socket.receive_json_from(timeout=DUE)) == ["Razz table"]
            stakes = razz_table.stakes_id
            await socket.send_json_to({"type": "filter", "variant": "", "stakes": stakes})
            assert names(await socket.receive_json_from(timeout=DUE)) == ["Razz table"]

    run(scenario)


def test_a_filter_message_narrows_the_rows_by_structure(table: Table, razz_table: Table) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            await socket.send_json_to({"type": "filter", "structure": "pot"})
            assert names(await socket.receive_json_from(timeout=DUE)) == []
            await socket.send_json_to({"type": "filter", "structure": "fixed", "variant": "razz"})
            assert names(await socket.receive_json_from(timeout=DUE)) == ["Razz table"]

    run(scenario)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "filter", "variant": "canasta"},
        {"type": "filter", "structure": "half-pot"},
        {"type": "filter", "structure": 3},
        {"type": "filter", "stakes": 999999},
        {"type": "filter", "colour": "red"},
        {"type": "sit", "seat": 1},
        ["filter"],
    ],
    ids=[
        "unknown-variant",
        "unknown-structure",
        "structure-not-text",
        "unknown-stakes",
        "unknown-field",
        "wrong-type",
        "not-an-object",
    ],
)
def test_a_bad_message_gets_an_error_and_keeps_the_filters(
    message: Any, table: Table, razz_table: Table
) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            await socket.send_json_to({"type": "filter", "variant": "razz"})
            await socket.receive_json_from(timeout=DUE)
            await socket.send_json_to(message)
            error = await socket.receive_json_from(timeout=DUE)
            assert error["type"] == "error" and error["code"] == "bad_message"
            assert error["message"]
            await socket.send_json_to({"type": "filter", "variant": "razz"})
            assert names(await socket.receive_json_from(timeout=DUE)) == ["Razz table"]

    run(scenario)


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(
            '{"type": "filter", "variant": ' + "[" * 100_000 + "]" * 100_000 + "}", id="deep"
        ),
        pytest.param('{"type": "filter", "variant": ["razz"]}', id="variant-a-list"),
        pytest.param('{"type": "filter", "stakes": {"k": 1}}', id="stakes-an-object"),
        pytest.param('{"type": "filter", "stakes": Infinity}', id="stakes-infinity"),
        pytest.param('{"type": "filter", "stakes": 1.0}', id="stakes-a-float"),
        pytest.param('{"type": "filter", "variant": "\\ud800"}', id="lone-surrogate"),
    ],
)
def test_a_malformed_frame_gets_bad_message_and_the_socket_carries_on(
    raw: str, table: Table, razz_table: Table
) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            await socket.send_json_to({"type": "filter", "variant": "razz"})
            await socket.receive_json_from(timeout=DUE)
            await socket.send_to(text_data=raw)
            error = await socket.receive_json_from(timeout=DUE)
            assert (error["type"], error["code"]) == ("error", "bad_message"), error
            await socket.send_json_to({"type": "filter"})  # the filters were kept till now
            assert sorted(names(await socket.receive_json_from(timeout=DUE))) == [
                "Razz table",
                "Table 1",
            ]

    run(scenario)


def test_messages_past_the_connections_limit_get_rate_limited(
    table: Table, razz_table: Table, settings: Any
) -> None:
    settings.CARDROOM_WS_MESSAGE_LIMIT, settings.CARDROOM_WS_MESSAGE_WINDOW_SECONDS = 2, 3600

    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            for variant in ("razz", "stud", "stud8", "razz"):
                await socket.send_json_to({"type": "filter", "variant": variant})
            frames = [await socket.receive_json_from(timeout=DUE) for _ in range(4)]
            assert [f["type"] for f in frames] == ["lobby", "lobby", "error", "error"]
            assert {f["code"] for f in frames[2:]} == {"rate_limited"}
            assert names(frames[1]) == ["Table 1"]  # stud: the last filter that was taken
            assert await socket.receive_nothing(timeout=0.2)

    run(scenario)


def test_a_player_sitting_down_is_pushed_to_the_lobby(table: Table, alice: User) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            assert (await socket.receive_json_from(timeout=DUE))["tables"][0]["seats_taken"] == 0
            await database_sync_to_async(services.seat_take)(
                table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100
            )
            await broadcast.announce_changed(table.pk)
            pushed = await socket.receive_json_from(timeout=DUE)
            assert (pushed["type"], pushed["tables"][0]["seats_taken"]) == ("lobby", 1)

    run(scenario)


def test_a_burst_of_changes_is_pushed_once(table: Table) -> None:
    async def scenario() -> None:
        async with lobby() as socket:
            await socket.receive_json_from(timeout=DUE)
            for _ in range(20):
                await broadcast.announce_changed(table.pk)
            assert (await socket.receive_json_from(timeout=DUE))["type"] == "lobby"
            assert await socket.receive_nothing(timeout=1.5)

    run(scenario)


def test_a_processs_burst_of_changes_costs_the_lobby_group_two_messages(table: Table) -> None:
    """The first change's notice leaves at once; those within the next
    LOBBY_NOTICE_SECONDS are told by one notice at its end."""

    async def scenario() -> None:
        layer = get_channel_layer()
        listener = await layer.new_channel()
        await layer.group_add(broadcast.LOBBY_GROUP, listener)
        for _ in range(20):
            await broadcast.announce_changed(table.pk)
        first = await asyncio.wait_for(layer.receive(listener), 1)
        later = await asyncio.wait_for(layer.receive(listener), 2 * broadcast.LOBBY_NOTICE_SECONDS)
        assert first == later == {"type": broadcast.LOBBY_CHANGED}
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(listener), 2 * broadcast.LOBBY_NOTICE_SECONDS)

    run(scenario)


def seated(message: dict[str, Any]) -> list[str]:
    return [row["name"] for row in message["tables"] if row["seated"]]


def test_each_socket_marks_its_own_players_tables_after_a_shared_notice(
    table: Table, razz_table: Table, alice: User
) -> None:
    session = session_of(alice)

    async def scenario() -> None:
        async with lobby(session) as hers, lobby() as visitor:
            assert seated(await hers.receive_json_from(timeout=DUE)) == []
            assert seated(await visitor.receive_json_from(timeout=DUE)) == []
            await database_sync_to_async(services.seat_take)(
                table_id=razz_table.pk, player_id=alice.pk, seat_number=1, buy_in=100
            )
            await broadcast.announce_changed(razz_table.pk)  # one notice to the whole group
            assert seated(await hers.receive_json_from(timeout=DUE)) == ["Razz table"]
            assert seated(await visitor.receive_json_from(timeout=DUE)) == []

    run(scenario)


def test_a_players_home_games_are_pushed_to_them_alone(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    """Alice hosts a home game bob joined: their sockets list it, live as bob
    sits and as it closes; carol's and a visitor's never hear of it."""
    Table.objects.filter(pk=table.pk).update(host=alice)
    TableMember.objects.create(table=table, player=bob)
    sessions = {user.username: session_of(user) for user in (alice, bob, carol)}

    def games(message: dict[str, Any]) -> list[tuple[str, bool, int, bool]]:
        return [
            (game["name"], game["you_host"], game["seated"], game["is_open"])
            for game in message["home_games"]
        ]

    async def scenario() -> None:
        async with (
            lobby(sessions["alice"]) as hers,
            lobby(sessions["bob"]) as his,
            lobby(sessions["carol"]) as stranger,
            lobby() as visitor,
        ):
            assert games(await hers.receive_json_from(timeout=DUE)) == [("Table 1", True, 0, True)]
            assert games(await his.receive_json_from(timeout=DUE)) == [("Table 1", False, 0, True)]
            assert games(await stranger.receive_json_from(timeout=DUE)) == []
            assert "home_games" not in await visitor.receive_json_from(timeout=DUE)
            await database_sync_to_async(services.seat_take)(
                table_id=table.pk, player_id=bob.pk, seat_number=1, buy_in=100
            )
            await broadcast.announce_changed(table.pk)
            assert games(await his.receive_json_from(timeout=DUE)) == [("Table 1", False, 1, True)]
            await database_sync_to_async(services.home_close)(table_id=table.pk, player_id=alice.pk)
            await broadcast.announce_changed(table.pk)
            # Hers may first show bob's seat: each push is the rows when it is read.
            closed = [("Table 1", True, 0, False)]
            assert await until(hers, lambda message: games(message) == closed)
            assert games(await stranger.receive_json_from(timeout=DUE)) == []
            assert "home_games" not in await visitor.receive_json_from(timeout=DUE)

    run(scenario)


async def until(
    socket: WebsocketCommunicator, wanted: Callable[[dict[str, Any]], bool], pushes: int = 3
) -> bool:
    """Whether one of the socket's next few pushes is ``wanted``."""
    for _ in range(pushes):
        if wanted(await socket.receive_json_from(timeout=DUE)):
            return True
    return False


def test_a_change_told_while_the_rows_are_read_is_read_again(
    table: Table, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read answering one notice may begin before the next change
    commits; the next notice, come meanwhile, gets a read of its own."""
    reading, release = threading.Event(), threading.Event()
    read_rows, lobby_changed = LobbyConsumer.read_rows, LobbyConsumer.lobby_changed
    notices = []  # the notices the socket has taken in, as they come

    def read_then_wait(consumer: LobbyConsumer) -> dict[str, Any]:
        rows = read_rows(consumer)
        if not release.is_set():  # the first push's read: held once it has read
            reading.set()
            release.wait(DUE)
        return rows

    async def counted(consumer: LobbyConsumer, message: dict[str, Any]) -> None:
        await lobby_changed(consumer, message)
        notices.append(message)

    def sit(player: User) -> None:
        try:
            services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=1, buy_in=100)
        finally:
            connection.close()

    async def taken_in(count: int) -> None:
        async with asyncio.timeout(DUE):
            while len(notices) < count:
                await asyncio.sleep(0.01)

    async def scenario() -> None:
        async with lobby() as socket:
            assert (await socket.receive_json_from(timeout=DUE))["tables"][0]["seats_taken"] == 0
            monkeypatch.setattr(LobbyConsumer, "read_rows", read_then_wait)
            monkeypatch.setattr(LobbyConsumer, "lobby_changed", counted)
            await broadcast.announce_changed(table.pk)  # something else changed
            assert await asyncio.to_thread(reading.wait, DUE)
            # That read is done, not yet sent, when alice sits down and the
            # socket is told. (She sits from a thread of her own: the read
            # holds the one that database_sync_to_async shares.)
            await asyncio.to_thread(sit, alice)
            await broadcast.announce_changed(table.pk)
            await taken_in(2)
            release.set()
            assert (await socket.receive_json_from(timeout=DUE))["tables"][0]["seats_taken"] == 0
            again = await socket.receive_json_from(timeout=DUE)
            assert (again["type"], again["tables"][0]["seats_taken"]) == ("lobby", 1)

    run(scenario)
