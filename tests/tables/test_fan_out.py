"""One change, many viewers: the rows a move leaves behind serve this process's
viewers without a read, and never a viewer who already has newer ones.

The sockets are real (the ASGI app, real sessions, the project's Redis
channel layer); "another process" is a change made as the Celery worker
makes it: a service called directly, then a notice with no rows kept here.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from tables import broadcast, services
from tables.consumers import shared
from tables.models import Hand, Seat, Table
from tables.rules import HandState
from tables.selectors.carried import carry
from tables.selectors.snapshots import TableRows, build_snapshot, read_table, rows_after_move
from tests.tables.test_consumers import Socket, first_move, heads_up, room, run, to_act

pytestmark = pytest.mark.django_db(transaction=True)

SEATS_FROM = f'FROM "{Seat._meta.db_table}"'


def _played_hand(table: Table, alice: User, bob: User) -> Hand:
    """Alice and bob sit; their hand has had its bring-in."""
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    hand = services.hand_start(table_id=table.pk)
    return services.hand_act(
        hand_id=hand.pk,
        player_id=hand.seating["players"][hand.state["to_act"]]["player"],
        kind="bring_in",
        version=hand.version,
        table_id=table.pk,
    )


def test_the_rows_a_move_leaves_build_the_snapshot_a_fresh_read_builds(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    table.stakes.seats = 2  # full, so that carol can wait: the waiting list shows too
    table.stakes.save(update_fields=["seats"])
    hand = _played_hand(table, alice, bob)
    services.waiting_join(table_id=table.pk, player_id=carol.pk)
    hand = Hand.objects.select_related("table__stakes").get(pk=hand.pk)
    kept, fresh = rows_after_move(hand), read_table(table.pk)
    assert fresh is not None and kept.stamp == fresh.stamp == (1, hand.version)
    for viewer in (alice.pk, bob.pk, carol.pk, None):
        mine = build_snapshot(kept, viewer, None, with_events=True, balance=0)
        theirs = build_snapshot(fresh, viewer, None, with_events=True, balance=0)
        assert mine.payload == theirs.payload
        assert mine.events == theirs.events and mine.cursor == theirs.cursor


def test_a_moves_rows_come_with_the_seats_it_locked_and_build_what_a_fresh_read_builds(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    hand = _played_hand(table, alice, bob)
    services.seat_take(table_id=table.pk, player_id=carol.pk, seat_number=4, buy_in=100)
    state = HandState.from_dict(hand.state)
    assert state.to_act is not None
    mover = hand.seating["players"][state.to_act]["player"]
    kind = next(o.kind for o in state.legal_actions() if o.kind in ("check", "call"))
    with CaptureQueriesContext(connection) as queries:
        rows = services.hand_play(
            table_id=table.pk, player_id=mover, kind=kind, version=hand.version, hand_id=hand.pk
        )
    assert rows is not None
    seats_read = [
        q["sql"] for q in queries if q["sql"].startswith("SELECT") and SEATS_FROM in q["sql"]
    ]
    assert len(seats_read) == 1  # under the table's lock, with the players; not again after
    fresh = read_table(table.pk)
    assert fresh is not None and rows.stamp == fresh.stamp
    assert [s.number for s in rows.seats] == [1, 2, 4]  # carol, sitting out, too
    for viewer in (alice.pk, bob.pk, carol.pk, None):
        mine = build_snapshot(rows, viewer, None, with_events=True, balance=0)
        theirs = build_snapshot(fresh, viewer, None, with_events=True, balance=0)
        assert mine.payload == theirs.payload
        assert mine.events == theirs.events


def test_a_finished_hands_rows_are_read_afresh(table: Table, alice: User, bob: User) -> None:
    hand = _played_hand(table, alice, bob)
    hand.ended_at = timezone.now()  # as the last move leaves it: seats and balances move too
    with pytest.raises(ValueError, match="read the table afresh"):
        rows_after_move(hand)


@pytest.mark.usefixtures("redis_layer")
def test_a_move_reaches_this_process_viewers_without_reading_the_table(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    original = shared.read_table

    def counted(table_id: int) -> Any:
        reads.append(table_id)
        return original(table_id)

    monkeypatch.setattr(shared, "read_table", counted)

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            before = mover.last_snapshot["hand"]["turn"]
            reads.clear()
            await mover.send(first_move(mover.last_snapshot))
            for socket in (alice, bob, observer):
                assert (await socket.receive_snapshot())["hand"]["turn"] == before + 1
            assert reads == []

    run(scenario)


@dataclass(frozen=True)
class Kept:
    """Rows a move made through this process kept for its notice, as a weak reference."""

    token: str
    stamp: tuple[int, int]
    rows: weakref.ref[TableRows]


@pytest.fixture
def made_here(monkeypatch: pytest.MonkeyPatch) -> list[Kept]:
    """Each move's rows kept for its notice (``MadeHere.keep``), as they are kept."""
    made: list[Kept] = []
    keep = shared.MADE_HERE.keep

    def recorded_keep(rows: TableRows) -> str:
        token = keep(rows)
        made.append(Kept(token, rows.stamp, weakref.ref(rows)))
        return token

    monkeypatch.setattr(shared.MADE_HERE, "keep", recorded_keep)
    return made


@contextmanager
def no_collector() -> Iterator[None]:
    """Python's collector off: what is freed inside is freed by its reference
    count, when the last reference goes, not by a pass that found a cycle."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@pytest.mark.usefixtures("redis_layer")
def test_a_moves_rows_are_freed_once_every_viewer_here_has_its_snapshot(
    table: Table, cookies: dict[str, str], made_here: list[Kept]
) -> None:
    """The rows a move made here leave this process's keeping when its notice
    comes back, and are freed once the last viewer has built its snapshot,
    though each consumer still holds the notice it handled last."""

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            before = mover.last_snapshot["hand"]["turn"]
            with no_collector():
                await mover.send(first_move(mover.last_snapshot))
                await _all_shown((alice, bob, observer), before + 1)
                [kept] = made_here
                assert kept.token not in shared.MADE_HERE.rows
                assert kept.rows() is None

    run(scenario)


@pytest.mark.usefixtures("redis_layer")
def test_rows_from_another_process_are_freed_once_every_viewer_here_has_its_snapshot(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows carried from another process, unpacked here by the first viewer,
    are freed once the last viewer here has built its snapshot from them."""
    unpacked: list[weakref.ref[TableRows]] = []
    original_uncarry = shared.uncarry

    def recorded_uncarry(data: bytes) -> TableRows:
        rows = original_uncarry(data)
        unpacked.append(weakref.ref(rows))
        return rows

    monkeypatch.setattr(shared, "uncarry", recorded_uncarry)

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            newer = await database_sync_to_async(_bring_in_elsewhere)(table.pk)
            rows = await database_sync_to_async(_rows_now)(table.pk)
            with no_collector():
                await _tell_from_elsewhere(rows, stamped=True)
                await _all_shown((alice, bob, observer), newer)
                [kept] = unpacked
                assert kept() is None

    run(scenario)


@pytest.mark.usefixtures("redis_layer")
def test_a_move_kept_here_is_not_shown_after_a_newer_change_from_elsewhere(
    table: Table, cookies: dict[str, str], made_here: list[Kept]
) -> None:
    """The notice of a move made here can reach a viewer after a later change's
    (its rows were kept, then another process moved and told the table first):
    the viewer keeps the newer snapshot."""

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            mover = alice if to_act(bob.last_snapshot) == 1 else bob
            await mover.send(first_move(mover.last_snapshot))
            for socket in (alice, bob, observer):
                await socket.receive_snapshot()
            [kept] = made_here
            assert kept.token not in shared.MADE_HERE.rows  # its notice took them
            newer = await database_sync_to_async(_move_elsewhere)(table.pk)
            await broadcast.announce_changed(table.pk)  # the worker's notice: no rows kept
            for socket in (alice, bob, observer):
                assert (await socket.receive_snapshot())["hand"]["turn"] == newer
            assert kept.stamp < (kept.stamp[0], newer)
            # The older move's notice, late: nobody goes back to it.
            seen = {socket: len(socket.frames) for socket in (alice, bob, observer)}
            notice = {"type": broadcast.CHANGED, "table": table.pk, "change": kept.token}
            await get_channel_layer().group_send(broadcast.table_group(table.pk), notice)
            for socket, start in seen.items():
                while not await socket.quiet():
                    pass
                later = [f for f in socket.frames[start:] if f["type"] == "snapshot"]
                assert [f["hand"]["turn"] for f in later] in ([], [newer])

    run(scenario)


@pytest.mark.usefixtures("redis_layer")
def test_a_move_made_in_another_process_reaches_viewers_here_in_its_notice_without_a_read(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's move: its notice carries the rows it left, under a
    token this process never kept, through the Redis layer's msgpack; every
    viewer here is shown them, unpacked once for all, and nobody reads."""
    reads: list[int] = []
    unpacked: list[int] = []
    original_read, original_uncarry = shared.read_table, shared.uncarry

    def counted_read(table_id: int) -> Any:
        reads.append(table_id)
        return original_read(table_id)

    def counted_uncarry(data: bytes) -> Any:
        unpacked.append(1)
        return original_uncarry(data)

    monkeypatch.setattr(shared, "read_table", counted_read)
    monkeypatch.setattr(shared, "uncarry", counted_uncarry)

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            reads.clear()
            newer = await database_sync_to_async(_bring_in_elsewhere)(table.pk)
            rows = await database_sync_to_async(_rows_now)(table.pk)
            await _tell_from_elsewhere(rows, stamped=False)
            for socket in (alice, bob, observer):
                assert (await socket.receive_snapshot())["hand"]["turn"] == newer
            assert (reads, unpacked) == ([], [1])
            for socket in (alice, bob):  # each their own down cards, the other's hidden
                hand = socket.last_snapshot["hand"]
                for player in hand["players"]:
                    down = player["cards"][0]["card"]
                    assert (down is not None) == (player["player"] == hand["viewer"])

    run(scenario)


@pytest.mark.usefixtures("redis_layer")
def test_another_process_notice_its_viewers_are_past_is_neither_unpacked_nor_sent(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's notice from another process reaching viewers who already have a
    snapshot as new (Redis was slow, or a read overtook it): its rows stay packed."""
    unpacked: list[int] = []
    original_uncarry = shared.uncarry

    def counted_uncarry(data: bytes) -> Any:
        unpacked.append(1)
        return original_uncarry(data)

    monkeypatch.setattr(shared, "uncarry", counted_uncarry)

    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            newer = await database_sync_to_async(_bring_in_elsewhere)(table.pk)
            await broadcast.announce_changed(table.pk)  # no rows: every viewer reads
            for socket in (alice, bob, observer):
                assert (await socket.receive_snapshot())["hand"]["turn"] == newer
            rows = await database_sync_to_async(_rows_now)(table.pk)
            seen = {socket: len(socket.frames) for socket in (alice, bob, observer)}
            await _tell_from_elsewhere(rows, stamped=True)
            for socket, start in seen.items():
                assert await socket.quiet()
                assert [f for f in socket.frames[start:] if f["type"] == "snapshot"] == []
            assert unpacked == []

    run(scenario)


def _bring_in_elsewhere(table_id: int) -> int:
    """The hand's first move, the bring-in, applied as another process applies it; the new turn."""
    hand = Hand.objects.get(table_id=table_id, ended_at__isnull=True)
    state = HandState.from_dict(hand.state)
    assert state.to_act is not None
    moved = services.hand_act(
        hand_id=hand.pk,
        player_id=hand.seating["players"][state.to_act]["player"],
        kind="bring_in",
        version=hand.version,
        table_id=table_id,
    )
    return moved.version


async def _all_shown(sockets: tuple[Socket, ...], turn: int) -> None:
    """Each socket is sent a snapshot at ``turn``, then nothing more for a while."""
    for socket in sockets:
        assert (await socket.receive_snapshot())["hand"]["turn"] == turn
    for socket in sockets:
        assert await socket.quiet()


async def _tell_from_elsewhere(rows: TableRows, *, stamped: bool) -> None:
    """The notice another process sends after a move that left ``rows``:
    they travel packed, under a token this process never made."""
    notice: dict[str, Any] = {
        "type": broadcast.CHANGED,
        "table": rows.table.pk,
        "change": "elsewhere-1",
        "rows": carry(rows),
    }
    if stamped:
        notice["stamp"] = list(rows.stamp)
    await get_channel_layer().group_send(broadcast.table_group(rows.table.pk), notice)


def _rows_now(table_id: int) -> TableRows:
    rows = read_table(table_id)
    assert rows is not None
    return rows


def _move_elsewhere(table_id: int) -> int:
    """The player to act checks or calls, applied as another process applies it; the new turn."""
    hand = Hand.objects.get(table_id=table_id, ended_at__isnull=True)
    state = HandState.from_dict(hand.state)
    assert state.to_act is not None
    kind = next(o.kind for o in state.legal_actions() if o.kind in ("check", "call"))
    moved = services.hand_act(
        hand_id=hand.pk,
        player_id=hand.seating["players"][state.to_act]["player"],
        kind=kind,
        version=hand.version,
        table_id=table_id,
    )
    return moved.version
