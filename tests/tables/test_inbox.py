"""A viewer's inbox holds at most one change notice: a change that finds
another still waiting takes its place, as the one of the two to build from.

The last test runs real sockets over the project's Redis channel layer, with
one viewer held back while three moves are made.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from tables import broadcast
from tables.consumers import TableConsumer, shared
from tables.consumers.relay import Inbox
from tables.models import Table
from tables.selectors.snapshots import TableRows
from tests.tables.test_consumers import heads_up, room, run, to_act

TABLE = 7


def change(stamp: list[int] | None = None, token: str | None = None) -> dict[str, Any]:
    notice: dict[str, Any] = {"type": broadcast.CHANGED, "table": TABLE}
    if token is not None:
        notice["change"] = token
    if stamp is not None:
        notice["stamp"] = stamp
    return notice


def chat(text: str) -> dict[str, Any]:
    return {"type": broadcast.CHAT, "table": TABLE, "line": {"text": text}}


def drained(inbox: Inbox) -> list[dict[str, Any]]:
    taken = []
    while not inbox.empty():
        taken.append(inbox.get_nowait())
    return taken


def filled(*notices: dict[str, Any]) -> Inbox:
    inbox = Inbox()
    for notice in notices:
        inbox.put_nowait(notice)
    return inbox


def test_a_newer_change_takes_the_waiting_ones_place_and_chat_keeps_its_order() -> None:
    older, newer = change([1, 3], "a"), change([1, 5], "b")
    inbox = filled(older, chat("gl"), newer, chat("nh"))
    assert drained(inbox) == [newer, chat("gl"), chat("nh")]


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        ([1, 5], [1, 3], [1, 5]),  # the older move's notice came late
        ([1, 9], [2, 1], [2, 1]),  # a new hand is newer than any move of the last
        ([2, 1], [1, 9], [2, 1]),
        ([1, 4], [1, 4], [1, 4]),  # the same move told twice
    ],
)
def test_of_two_stamped_changes_the_later_rows_are_kept(
    first: list[int], second: list[int], kept: list[int]
) -> None:
    [notice] = drained(filled(change(first, "x"), change(second, "y")))
    assert notice["stamp"] == kept


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (change([1, 3], "a"), change()),  # a change with no rows: a seat taken, say
        (change(), change([1, 3], "a")),
        (change(None, "a"), change([1, 3], "b")),  # rows whose stamp nobody told
    ],
)
def test_a_change_with_no_stamp_makes_the_viewer_read_the_table(
    first: dict[str, Any], second: dict[str, Any]
) -> None:
    assert drained(filled(first, second)) == [change()]


def test_a_change_already_taken_is_not_merged_with_the_next() -> None:
    inbox = filled(change([1, 3], "a"))
    assert inbox.get_nowait() == change([1, 3], "a")
    inbox.put_nowait(change([1, 4], "b"))
    inbox.put_nowait(change([1, 5], "c"))
    assert drained(inbox) == [change([1, 5], "c")]


def test_chat_lines_are_never_merged() -> None:
    lines = [chat("one"), chat("two"), chat("three")]
    assert drained(filled(*lines)) == lines


def carried(stamp: list[int], token: str, viewers: int) -> dict[str, Any]:
    """A move's notice from another process, as the relay hands it to ``viewers`` here."""
    return shared.with_change_rows({**change(stamp, token), "rows": b"packed"}, viewers)


def rows_of(notice: dict[str, Any]) -> shared.ChangeRows:
    rows = notice[shared.CHANGE_ROWS]
    assert isinstance(rows, shared.ChangeRows)
    return rows


def test_a_changes_rows_are_unpacked_once_and_let_go_after_the_last_viewer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unpacked: list[bytes] = []

    def counted_uncarry(data: bytes) -> Any:
        unpacked.append(data)
        return object()  # stands in for the rows: only who holds it matters here

    monkeypatch.setattr(shared, "uncarry", counted_uncarry)
    notice = carried([1, 3], "elsewhere-1", viewers=3)
    assert "rows" not in notice  # the packed rows travel on inside the ChangeRows
    rows = rows_of(notice)
    first = rows.take()
    assert rows.take() is first and unpacked == [b"packed"]
    assert rows.rows is first  # one viewer is not done yet
    rows.pass_by()  # the third was past them
    assert rows.rows is None and rows.packed is None


def test_the_rows_of_a_change_whose_place_a_newer_one_took_are_let_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shared, "uncarry", lambda data: object())
    older, newer = carried([1, 3], "elsewhere-1", 1), carried([1, 4], "elsewhere-2", 1)
    assert drained(filled(older, newer)) == [newer]
    assert rows_of(older).packed is None  # nobody here will take them
    assert rows_of(newer).take() is not None


def test_the_rows_a_move_made_here_travel_with_its_own_notice_once() -> None:
    """The mover's process keeps its rows until its notice comes back, then
    hands them over with it; the same notice again finds none."""
    rows = cast(TableRows, object())
    token = shared.MADE_HERE.keep(rows)
    notice = shared.with_change_rows({**change([1, 3], token), "rows": b"packed"}, 2)
    assert rows_of(notice).rows is rows and token not in shared.MADE_HERE.rows
    again = shared.with_change_rows(change([1, 3], token), 2)
    assert rows_of(again).take() is None  # the viewer reads the table instead


def test_a_notice_with_no_rows_is_handed_on_as_it_came() -> None:
    for notice in (change(), chat("gl"), change([1, 3])):
        assert shared.with_change_rows(notice, 2) is notice


def answer(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A check or call where there is one, else the first move (the bring-in)."""
    options = snapshot["hand"]["legal_actions"]
    kind = next((o["kind"] for o in options if o["kind"] in ("check", "call")), options[0]["kind"])
    return {"type": "act", "action": kind, "turn": snapshot["hand"]["turn"]}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("redis_layer")
def test_a_viewer_held_up_through_three_moves_gets_two_snapshots_and_every_event(
    table: Table, cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The observer's process is busy with the first move's notice while two
    more moves come: the observer gets that move's snapshot, then one for
    both of the others, with every event of the three, as the players saw,
    and built from the rows the last move left (its notice's stamp says
    they are the newer), with no read of the table."""
    handle = TableConsumer.table_changed
    reads: list[int] = []
    read = shared.read_table

    def counted(table_id: int) -> Any:
        reads.append(table_id)
        return read(table_id)

    async def scenario() -> None:
        gate = asyncio.Event()

        async def held(self: TableConsumer, message: dict[str, Any]) -> None:
            if self.player_id is None:
                await gate.wait()
            await handle(self, message)

        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            monkeypatch.setattr(TableConsumer, "table_changed", held)
            monkeypatch.setattr(shared, "read_table", counted)
            start, alice_start = len(observer.frames), len(alice.frames)
            turns = []
            for _ in range(3):
                mover = alice if to_act(alice.last_snapshot) == 1 else bob
                await mover.send(answer(mover.last_snapshot))
                for socket in (alice, bob):
                    turns.append((await socket.receive_snapshot())["hand"]["turn"])
            assert turns[0] < turns[2] < turns[4] and len(set(turns)) == 3
            gate.set()
            while not await observer.quiet():
                pass
            later = observer.frames[start:]
            snapshots = [f["hand"]["turn"] for f in later if f["type"] == "snapshot"]
            assert snapshots == [turns[0], turns[4]]
            events = [f["index"] for f in later if f["type"] == "event"]
            assert events == [
                f["index"] for f in alice.frames[alice_start:] if f["type"] == "event"
            ]
            assert reads == []

    run(scenario)
