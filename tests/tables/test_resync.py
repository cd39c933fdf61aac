"""A snapshot the page asks for (``{"type": "snapshot"}``) makes its hand log whole.

The page asks after a gap in the messages, or a refused move. The reply
replays the hand from its first event (and before it the hand the socket was
following, if a newer one has begun), each event with its ``index`` in its
hand, so the page logs each line once and misses none: not even those of a
move whose notice hadn't reached the socket when it asked. A client that keeps
no log (a bot) asks with ``"replay": false`` and gets only the events it
hasn't been sent.

Personas: alice (seat 1) and bob (seat 2) play; the observer, anonymous,
watches, and is the one who asks.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables import broadcast, services
from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.narration import Narrator
from tables.rules.views import events_for
from tests.tables.conftest import bet_and_call, play_out, player_to_act
from tests.tables.test_consumers import Socket, first_move, heads_up, room, run, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def logged(socket: Socket) -> list[tuple[int, str]]:
    """The socket's hand log as the page keeps it (static/js/table/state.js):
    each event logged once, by its index, and only in order."""
    count: dict[int, int] = {}
    lines = []
    for frame in socket.frames:
        if frame["type"] != "event" or frame["index"] != count.get(frame["hand_id"], 0):
            continue
        count[frame["hand_id"]] = frame["index"] + 1
        if frame["text"]:
            lines.append((frame["hand_id"], frame["text"]))
    return lines


@database_sync_to_async
def whole_hand(hand_id: int) -> list[tuple[int, str]]:
    """Every line of the hand as stored, told at once, as the log should read it."""
    hand = Hand.objects.get(pk=hand_id)
    state = HandState.from_dict(hand.state)
    usernames = {1: "alice", 2: "bob"}
    names = [f"Seat {p['seat']} ({usernames[p['seat']]})" for p in hand.seating["players"]]
    told = Narrator(names, state).tell(events_for(state))
    return [(hand_id, each.text) for each in told if each.text]


@database_sync_to_async
def running_hand(table: Table) -> Hand:
    return Hand.objects.get(table=table, ended_at__isnull=True)


@database_sync_to_async
def move_unannounced(hand: Hand) -> None:
    """The player to act makes a passive move, and no notice is sent yet."""
    kind, amount = bet_and_call(HandState.from_dict(Hand.objects.get(pk=hand.pk).state))
    hand.refresh_from_db()
    player = player_to_act(hand)
    services.hand_act(
        hand_id=hand.pk, player_id=player, kind=kind, amount=amount, version=hand.version
    )


def without_seq(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in frame.items() if key != "seq"} for frame in frames]


async def ask(socket: Socket, **fields: Any) -> list[dict[str, Any]]:
    """Ask for a snapshot; the events of the reply."""
    start = len(socket.frames)
    await socket.send({"type": "snapshot", **fields})
    await socket.receive_snapshot()
    return [frame for frame in socket.frames[start:] if frame["type"] == "event"]


def test_the_reply_brings_the_lines_of_a_move_whose_notice_has_not_come(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            _, _, observer = await heads_up(join, table, cookies)
            hand = await running_hand(table)
            await move_unannounced(hand)
            replayed = await ask(observer)
            assert replayed[-1]["text"].startswith(("Seat 1 (alice) ", "Seat 2 (bob) "))
            assert replayed[-1]["event"]["type"] in ("bring_in", "complete")
            await broadcast.announce_changed(table.pk)  # the notice comes at last
            late = await observer.receive_snapshot()
            assert observer.frames[-1] is late  # with no events: they came with the reply
            assert logged(observer) == await whole_hand(hand.pk)

    run(scenario)


def test_the_reply_replays_the_hand_from_its_first_event_and_the_next_change_goes_on(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, observer = await heads_up(join, table, cookies)
            had = [frame for frame in observer.frames if frame["type"] == "event"]
            assert [frame["index"] for frame in had] == list(range(len(had)))
            replayed = await ask(observer)
            assert without_seq(replayed) == without_seq(had)
            mover = alice if to_act(alice.last_snapshot) == 1 else bob
            start = len(observer.frames)
            await mover.send(first_move(mover.last_snapshot))
            await observer.receive_snapshot()
            new = [f for f in observer.frames[start:] if f["type"] == "event"]
            assert [frame["index"] for frame in new] == [len(had)]
            hand = await running_hand(table)
            assert logged(observer) == await whole_hand(hand.pk)

    run(scenario)


def test_after_a_hand_ended_and_another_began_unannounced_the_reply_brings_both(
    table: Table, cookies: dict[str, str], settings: Any
) -> None:
    settings.CARDROOM_NEXT_HAND_DELAY_SECONDS = 0

    @database_sync_to_async
    def next_hand_unannounced(hand: Hand) -> Hand:
        play_out(hand, bet_and_call)
        services.hand_start_if_ready(table_id=table.pk)
        return Hand.objects.get(table=table, ended_at__isnull=True)

    async def scenario() -> None:
        async with room() as join:
            _, _, observer = await heads_up(join, table, cookies)
            first = await running_hand(table)
            second = await next_hand_unannounced(first)
            replayed = await ask(observer)
            assert {frame["hand_id"] for frame in replayed} == {first.pk, second.pk}
            assert observer.last_snapshot["hand_info"]["id"] == second.pk
            assert logged(observer) == await whole_hand(first.pk) + await whole_hand(second.pk)

    run(scenario)


def test_a_snapshot_asked_without_replay_brings_only_the_events_not_yet_sent(
    table: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            _, _, observer = await heads_up(join, table, cookies)
            had = [frame for frame in observer.frames if frame["type"] == "event"]
            assert await ask(observer, replay=False) == []
            hand = await running_hand(table)
            await move_unannounced(hand)
            new = await ask(observer, replay=False)
            assert [frame["index"] for frame in new] == [len(had)]
            assert logged(observer) == await whole_hand(hand.pk)

    run(scenario)


def test_replay_must_be_true_or_false(table: Table) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            await observer.send({"type": "snapshot", "replay": 0})
            error = await observer.receive()
            assert (error["type"], error["code"]) == ("error", "bad_message")
            assert await observer.idle(0.2)

    run(scenario)
