"""A table's notices reach each process once, through its relay, and from
there every viewer of that table in the process and nobody else.

The sockets are real (the ASGI app, real sessions) over the project's Redis
channel layer, whose subscriptions are read in Redis itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from cardroom.asgi import application
from tables import broadcast
from tables.consumers import TableConsumer
from tables.consumers.relay import TABLE_RELAY
from tables.models import Stakes, Table
from tests.tables.test_consumers import SAME_SITE, first_move, heads_up, room, run, to_act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_layer")]


def _group_name(table_id: int) -> str:
    """The name this process's layer subscribes to for the table's group."""
    layer = get_channel_layer()._get_layer()
    return str(layer._get_group_channel_name(broadcast.table_group(table_id)))


async def subscribers(table_id: int) -> int:
    """How many connections Redis has subscribed to the table's group."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    client = redis.asyncio.Redis.from_url(config["hosts"][0]["address"])
    try:
        ((_, subscribed),) = await client.pubsub_numsub(_group_name(table_id))
    finally:
        await client.aclose()
    return int(subscribed)


async def members(table_id: int) -> int:
    """How many of this process's channels the table's group holds, checked
    against Redis (with no join or leave under way): the process's connection
    is subscribed to the group's messages while it has any there, and not
    once it has none."""
    subscribed = await subscribers(table_id)
    channels = len(get_channel_layer()._get_layer().groups.get(_group_name(table_id), ()))
    assert subscribed == min(channels, 1)
    return channels


@pytest.fixture
def other(stakes: Stakes) -> Table:
    return Table.objects.create(name="Table 2", stakes=stakes)


def test_a_tables_group_holds_the_process_once_however_many_watch(
    table: Table, other: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            await join(other.pk)
            assert (await members(table.pk), await members(other.pk)) == (1, 1)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            await mover.send(first_move(mover.last_snapshot))
            turns = {(await s.receive_snapshot())["hand"]["turn"] for s in (alice, bob, observer)}
            assert len(turns) == 1
            await observer.communicator.disconnect()
            assert await members(table.pk) == 1  # alice and bob still watch
        # Everyone has gone: the process has left both groups and keeps no inbox.
        assert (await members(table.pk), await members(other.pk)) == (0, 0)
        assert TABLE_RELAY.inboxes == {}

    run(scenario)


def test_a_tables_notices_reach_its_viewers_and_no_other_tables(
    table: Table, other: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, watcher = await join(table.pk, cookies["alice"]), await join(table.pk)
            elsewhere = await join(other.pk, cookies["bob"])
            await alice.send({"type": "chat", "text": "gl"})
            for socket in (alice, watcher):
                assert (await socket.receive())["text"] == "gl"
            assert await elsewhere.idle(0.3)

    run(scenario)


def test_a_notice_naming_no_table_is_dropped_and_the_next_still_arrives(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, cookies["alice"])
            group = broadcast.table_group(table.pk)
            for table_id in (None, "1", table.pk + 1000):
                notice = {"type": broadcast.CHANGED, "table": table_id}
                await get_channel_layer().group_send(group, notice)
            assert await alice.idle(0.3)
            await alice.send({"type": "chat", "text": "still here"})
            assert (await alice.receive())["text"] == "still here"

    run(scenario)


def test_a_connection_that_fails_leaves_its_inbox_and_the_tables_group_behind(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: TableConsumer, message: dict[str, Any]) -> None:
        raise RuntimeError("a bug in the chat handler")

    async def scenario() -> None:
        headers = [*SAME_SITE, (b"cookie", f"sessionid={cookies['alice']}".encode())]
        alice = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
        assert (await alice.connect())[0]
        while (await alice.receive_json_from())["type"] != "snapshot":
            pass
        assert len(TABLE_RELAY.inboxes[table.pk]) == 1
        monkeypatch.setattr(TableConsumer, "table_chat", broken)
        await alice.send_json_to({"type": "chat", "text": "boom"})
        with pytest.raises(RuntimeError, match="chat handler"):
            await alice.wait(timeout=3)
        assert table.pk not in TABLE_RELAY.inboxes
        # She was its last viewer here: the process leaves the group too, soon after.
        for _ in range(100):
            if await subscribers(table.pk) == 0:
                break
            await asyncio.sleep(0.05)
        assert await members(table.pk) == 0

    run(scenario)
