"""A Celery worker's change notices leave on one event loop of the process's
own (``tables.broadcast.NoticeLoop``), over one connection to Redis, where
``async_to_sync`` made a new loop, and the channel layer a new connection,
for every notice. Tested on the real Redis channel layer and a real worker.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any
from uuid import uuid4

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from tables import broadcast, services
from tables.models import Stakes, Table
from tests.tables.conftest import Worker, wait_until
from tests.tables.test_timers import _short_clock, _timed_out

pytestmark = pytest.mark.django_db(transaction=True)

NOTICES = 4
RECEIVE_SECONDS = 10.0


@pytest.fixture
def client_name(settings: Any, redis_layer: None) -> str:
    """The name the channel layer's connections give themselves in Redis (``CLIENT SETNAME``)."""
    name = f"notice-test-{uuid4().hex[:12]}"
    layer = copy.deepcopy(settings.CHANNEL_LAYERS)
    layer["default"]["CONFIG"]["hosts"][0]["client_name"] = name
    settings.CHANNEL_LAYERS = layer
    return name


def connections_named(name: str) -> set[int]:
    """The ids Redis gave the open connections called ``name``: a new id is a new connection."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return {int(found["id"]) for found in client.client_list() if found["name"] == name}
    finally:
        client.close()


def test_a_process_on_the_loop_sends_every_notice_on_one_connection(
    client_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = broadcast.NoticeLoop()
    loop.use()
    monkeypatch.setattr(broadcast, "NOTICE_LOOP", loop)

    async def notices() -> tuple[list[dict[str, Any]], list[set[int]]]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(broadcast.table_group(7), channel)
        received, open_then = [], []
        for _ in range(NOTICES):
            # Sync code, on a thread with no event loop: as a Celery task sends.
            await asyncio.to_thread(broadcast.deliver, broadcast.announce_changed, 7)
            received.append(await asyncio.wait_for(layer.receive(channel), RECEIVE_SECONDS))
            open_then.append(await asyncio.to_thread(connections_named, client_name))
        return received, open_then

    received, open_then = asyncio.run(notices())
    assert [(notice["type"], notice["table"]) for notice in received] == [
        (broadcast.CHANGED, 7)
    ] * NOTICES
    # The reader's connection and the loop's, the same two after every notice.
    assert len(open_then[0]) == 2
    assert all(found == open_then[0] for found in open_then)


def test_a_forked_worker_process_tells_the_table_of_each_turn_it_times_out(
    start_worker: Callable[..., Worker], redis_layer: None, stakes: Stakes, seated: Table
) -> None:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    start_worker(pool="prefork", env={"CHANNEL_LAYER_PREFIX": prefix})
    _short_clock(stakes, 1)

    async def told() -> list[dict[str, Any]]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(broadcast.table_group(seated.pk), channel)
        # Each timeout's notice: the bring-in posted, then a turn checked or folded.
        await asyncio.to_thread(services.hand_start, table_id=seated.pk)
        return [await asyncio.wait_for(layer.receive(channel), RECEIVE_SECONDS) for _ in range(2)]

    notices = asyncio.run(told())
    assert [(notice["type"], notice["table"]) for notice in notices] == [
        (broadcast.CHANGED, seated.pk)
    ] * 2
    hand = seated.hands.get()
    wait_until(lambda: len(_timed_out(hand)) >= 2, "both timeouts stored")


def test_a_notice_that_hangs_is_given_up_and_raised() -> None:
    loop = broadcast.NoticeLoop()
    loop.WAIT_SECONDS = 0.2
    cancelled: list[bool] = []

    async def hangs() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    with pytest.raises(TimeoutError):
        loop.run(hangs())
    # It doesn't go on running on the loop, to send long after it was given up.
    wait_until(lambda: cancelled, "the notice to be cancelled", seconds=5)
