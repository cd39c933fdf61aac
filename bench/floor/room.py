"""The tables one floor process serves: their live hands in memory, their moves, clocks and deals.

Each process keeps, per table it has served, the seats and the latest hand as
a live :class:`HandState`. A move is checked against that copy and written
with the version it was made at (:data:`bench.floor.store.MOVE`): if another
process moved the hand on meanwhile, the write changes nothing, the copy is
dropped and the move is answered ``stale``; the next one reads the table
afresh. A move that names a later version than the copy's also reads afresh.
So no process owns a table, and none can write over another's move.

Moves at one table are taken one at a time in a process (a lock per table),
and each change is sent, after it has committed, as one frame per player at
the table, each built for its player alone (``view(state, seat)``). How the
frames travel is ``FLOOR_FANOUT``:

- ``process`` (the default): as ONE channel-layer message to the table's
  group, ``floor-<table>``, whose members are the processes serving a
  connection to the table (each process's own channel, :meth:`Room.join`);
  each process hands each of its connections its own player's frame. The
  channel layer carries one message per process, not per viewer.
- ``player``: one message per player, to the player's own group
  (``floor-<table>-p<player>``), which their connections join.

The turn's clock is an asyncio timer in the process that started the turn;
it is cancelled when a later frame of the table reaches this process, and
otherwise finds the hand moved on when it fires. The process whose move ends
a hand deals the next one ``CARDROOM_NEXT_HAND_DELAY_SECONDS`` later; a
``sit`` deals at once when the table is ready.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import orjson
from channels.layers import get_channel_layer
from django.conf import settings

from bench.floor import store
from tables.rules import GameConfig, HandState, IllegalAction
from tables.rules.views import view

logger = logging.getLogger(__name__)

# What the clock does for a player, the first one allowed: check when free,
# else fold, and post a bring-in due (as tables.services.timeouts, whose
# all-in policy the bench's stakes don't use).
TIMEOUT_MOVES = ("check", "fold", "bring_in")
# A clock may fire a little early; a turn this close to its expiry has expired.
CLOCK_SLACK = timedelta(milliseconds=20)

Stamp = tuple[int, int]  # (hand id, version): frames of a table in the order they were made
FANOUTS = ("process", "player")


class Viewer(Protocol):
    """A connection this process serves (:class:`bench.floor.consumer.FloorConsumer`)."""

    channel_name: str

    async def deliver(self, text: str, stamp: Stamp) -> None: ...


class Refusal(Exception):
    """A message the table says no to: ``code`` as docs/protocol.md's errors, and why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Terms:
    """A table's game, seats, clock and buy-ins: fixed for the run."""

    config: GameConfig
    seat_count: int
    action_seconds: int
    min_buy_in: int
    max_buy_in: int


@dataclass
class Hand:
    id: int
    number: int
    dealer: int
    seating: list[list[Any]]  # [[seat, player id, name], ...] in engine order
    players: list[int]
    version: int
    state: HandState
    expires_at: datetime | None
    ended_at: datetime | None

    @property
    def finished(self) -> bool:
        return self.ended_at is not None

    @property
    def stamp(self) -> Stamp:
        return (self.id, self.version)


@dataclass
class Live:
    """A table as this process last knew it: its seats (seat number as text ->
    player, name and stack between hands) and its latest hand."""

    seats: dict[str, dict[str, Any]]
    hand: Hand | None

    @property
    def stamp(self) -> Stamp:
        return (0, 0) if self.hand is None else self.hand.stamp


def group_of(table_id: int, player_id: int) -> str:
    """The channel-layer group of one player's connections to one table (``player`` fan-out)."""
    return f"floor-{table_id}-p{player_id}"


def table_group(table_id: int) -> str:
    """The group of the processes serving a connection to one table (``process`` fan-out)."""
    return f"floor-{table_id}"


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


class Room:
    """This process's tables. One per process (:data:`ROOM`), on Daphne's event loop."""

    def __init__(self) -> None:
        self.pool = store.Pool()
        self.terms: dict[int, Terms] = {}
        self.live: dict[int, Live] = {}
        self.locks: dict[int, asyncio.Lock] = {}
        self.clocks: dict[int, tuple[Stamp, asyncio.TimerHandle]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.next_hand_delay = timedelta(seconds=settings.CARDROOM_NEXT_HAND_DELAY_SECONDS)
        self.fanout = os.environ.get("FLOOR_FANOUT", "process")
        if self.fanout not in FANOUTS:
            raise ValueError(f"FLOOR_FANOUT must be one of {', '.join(FANOUTS)}")
        # The process fan-out: this process's channel, its reader, and its connections.
        self.channel: str | None = None
        self.reader: asyncio.Task[None] | None = None
        self.viewers: dict[int, dict[int, set[Viewer]]] = {}  # table -> player -> connections

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------ reading

    async def load(self, table_id: int) -> Live | None:
        """The table and its latest hand read afresh (and kept); None: no such table."""
        async with self.pool.connection() as connection:
            cursor = await connection.execute(store.LOAD, {"table": table_id})
            row = await cursor.fetchone()
        if row is None:
            self.live.pop(table_id, None)
            return None
        config, seat_count, action_seconds, min_buy_in, max_buy_in, seats, *rest = row
        if table_id not in self.terms:
            self.terms[table_id] = Terms(
                GameConfig.from_dict(config), seat_count, action_seconds, min_buy_in, max_buy_in
            )
        hand_id, number, dealer, seating, players, version, state, expires_at, ended_at = rest
        hand = None
        if hand_id is not None:
            live_state = HandState.from_dict(state, adopt=True)
            hand = Hand(
                hand_id, number, dealer, seating, players, version, live_state, expires_at, ended_at
            )
        live = self.live[table_id] = Live(seats, hand)
        return live

    async def snapshot(self, table_id: int, player_id: int) -> tuple[str, Stamp] | None:
        """The table as ``player_id`` may see it now, read afresh; None: no such table."""
        async with self.lock(table_id):
            live = await self.load(table_id)
        if live is None:
            return None
        return build_frames(table_id, live, [player_id])[player_id], live.stamp

    # -------------------------------------------------------------- moves

    async def act(
        self,
        table_id: int,
        player_id: int,
        *,
        hand_id: int | None,
        turn: int,
        kind: str,
        amount: int | None,
        cards: list[int] | None,
    ) -> None:
        """Make a player's move at ``turn`` of the table's hand, or raise :class:`Refusal`."""
        async with self.lock(table_id):
            live = self.live.get(table_id)
            if not _answers(live, hand_id, turn):
                live = await self.load(table_id)
            hand = _open_hand(live, hand_id, turn)
            assert live is not None  # _open_hand refuses a missing table
            if player_id not in hand.players:
                raise Refusal("refused", f"you are not dealt into hand #{hand.number}")
            now = datetime.now(UTC)
            player = hand.players.index(player_id)
            try:
                hand.state.act(player, kind, amount, cards, at=_iso(now))
            except IllegalAction as exc:  # the engine changed nothing
                raise Refusal("illegal", str(exc)) from None
            action = {"player": player, "kind": kind, "amount": amount}
            await self.commit(table_id, live, hand, action, now, timed_out=False)

    async def commit(
        self,
        table_id: int,
        live: Live,
        hand: Hand,
        action: dict[str, Any],
        now: datetime,
        *,
        timed_out: bool,
    ) -> None:
        """Write the move just applied to ``hand.state`` and the state it left, in
        one statement; then send everyone their frame and start the clock."""
        old, state = hand.version, hand.state
        ending = state.finished
        terms = self.terms[table_id]
        expires_at = None
        if not ending and state.to_act is not None:
            expires_at = now + timedelta(seconds=terms.action_seconds)
        stacks = {}
        if ending:
            stacks = {
                str(seat): {"player": player, "name": name, "stack": state.stacks[index]}
                for index, (seat, player, name) in enumerate(hand.seating)
            }
        params = {
            "table": table_id,
            "hand": hand.id,
            "old": old,
            "version": state.turn,
            "state": store.encode(state.to_dict()),
            "expires_at": expires_at,
            "ended_at": now if ending else None,
            "action": store.encode(action),
            "timed_out": timed_out,
            "at": now,
            "ending": ending,
            "stacks": store.encode(stacks),
        }
        self.live.pop(table_id, None)  # until the write is known to have happened
        async with self.pool.connection() as connection:
            cursor = await connection.execute(store.MOVE, params)
            row = await cursor.fetchone()
        assert row is not None
        written, seats = row
        if not written:
            # Another process moved the hand on: this copy was behind.
            raise Refusal("stale", f"hand #{hand.number} has moved on past version {old}")
        hand.version, hand.expires_at = state.turn, expires_at
        hand.ended_at = now if ending else None
        live.seats = {**seats, **stacks}
        self.live[table_id] = live
        await self.broadcast(table_id, live)
        self.schedule(table_id, live)

    # -------------------------------------------------------------- clock

    def schedule(self, table_id: int, live: Live) -> None:
        """After a change made here: the clock of the turn it started, or the next deal."""
        self.stop_clock(table_id)
        hand = live.hand
        if hand is None:
            return
        loop = asyncio.get_running_loop()
        if hand.finished:
            delay = self.next_hand_delay.total_seconds()
            loop.call_later(delay, self.spawn, lambda: self.deal(table_id))
            return
        if hand.expires_at is None:
            return
        stamp = hand.stamp
        delay = max(0.0, hand.expires_at.timestamp() - time.time())
        handle = loop.call_later(delay, self.spawn, lambda: self.expire(table_id, stamp))
        self.clocks[table_id] = (stamp, handle)

    def stop_clock(self, table_id: int) -> None:
        clock = self.clocks.pop(table_id, None)
        if clock is not None:
            clock[1].cancel()

    def note_seen(self, table_id: int, stamp: Stamp) -> None:
        """A frame of the table past the clock's turn reached this process: the turn was played."""
        clock = self.clocks.get(table_id)
        if clock is not None and clock[0] < stamp:
            self.stop_clock(table_id)

    def spawn(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        task = asyncio.get_running_loop().create_task(work())
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("floor: a clock or a deal failed", exc_info=task.exception())

    async def expire(self, table_id: int, stamp: Stamp) -> None:
        """The clock of turn ``stamp`` ran out: check or fold for the player, if
        the hand is still there (a move beat it, here or elsewhere: nothing)."""
        async with self.lock(table_id):
            if self.clocks.get(table_id, (None,))[0] == stamp:
                del self.clocks[table_id]
            live = self.live.get(table_id)
            if live is None or live.stamp != stamp:
                live = await self.load(table_id)
            if live is None or live.hand is None or live.stamp != stamp or live.hand.finished:
                return
            hand, now = live.hand, datetime.now(UTC)
            if hand.expires_at is None or now + CLOCK_SLACK < hand.expires_at:
                return
            state = hand.state
            player = state.to_act
            if player is None:
                return
            cards = None
            if state.decision is not None:
                kind, cards = state.default_decision(player)
            else:
                allowed = {option.kind for option in state.legal_actions()}
                kind = next(kind for kind in TIMEOUT_MOVES if kind in allowed)
            state.act(player, kind, None, cards, timed_out=True, at=_iso(now))
            action = {"player": player, "kind": kind, "amount": None}
            try:
                await self.commit(table_id, live, hand, action, now, timed_out=True)
            except Refusal:
                return  # a move got there first, in another process

    # -------------------------------------------------------------- seats

    async def terms_of(self, table_id: int) -> Terms:
        if table_id not in self.terms and await self.load(table_id) is None:
            raise Refusal("refused", f"there is no table #{table_id}")
        return self.terms[table_id]

    async def sit(self, table_id: int, player_id: int, name: str, seat: int, buy_in: int) -> None:
        """Take ``seat`` with ``buy_in`` chips (no ledger: the floor's chips are
        the buy-in), then deal if the table is ready."""
        terms = await self.terms_of(table_id)
        if not 1 <= seat <= terms.seat_count:
            raise Refusal("refused", f"there is no seat {seat}")
        if not terms.min_buy_in <= buy_in <= terms.max_buy_in:
            raise Refusal(
                "refused", f"buy in for {terms.min_buy_in} to {terms.max_buy_in}, not {buy_in}"
            )
        entry = {"player": player_id, "name": name, "stack": buy_in}
        params: dict[str, Any] = {"table": table_id, "seat": seat, "player": player_id}
        params["entry"] = store.encode(entry)
        await self.seat_change(table_id, store.SIT, params, f"seat {seat} is taken", player_id)
        await self.deal(table_id)

    async def leave(self, table_id: int, player_id: int) -> None:
        params = {"table": table_id, "player": player_id}
        why = "you have no seat here, or you are dealt into the hand"
        await self.seat_change(table_id, store.LEAVE, params, why, player_id)

    async def seat_change(
        self, table_id: int, statement: str, params: dict[str, Any], why: str, player_id: int
    ) -> None:
        async with self.lock(table_id):
            async with self.pool.connection() as connection:
                cursor = await connection.execute(statement, params)
                changed = await cursor.fetchone()
            if changed is None:
                raise Refusal("refused", why)
            live = await self.load(table_id)
            if live is not None:
                await self.broadcast(table_id, live, also=[player_id])

    async def deal(self, table_id: int) -> None:
        """Deal the next hand if the table is ready: no hand running, the pause
        after the last one over, two seats with chips. Else nothing."""
        terms = await self.terms_of(table_id)
        async with self.lock(table_id):
            now = datetime.now(UTC)
            async with self.pool.connection() as connection, connection.transaction():
                cursor = await connection.execute(store.DEAL_LOCK, {"table": table_id})
                locked = await cursor.fetchone()
                assert locked is not None
                seats = locked[0]
                cursor = await connection.execute(store.DEAL_LAST, {"table": table_id})
                number, last_dealer, ended_at = await cursor.fetchone() or (None, None, None)
                if number is not None and (
                    ended_at is None or now + CLOCK_SLACK < ended_at + self.next_hand_delay
                ):
                    return
                dealt = sorted((int(n), entry) for n, entry in seats.items() if entry["stack"])
                if len(dealt) < 2:
                    return
                hand = _new_hand(terms, dealt, (number or 0) + 1, last_dealer or 0, now)
                hand.id = await _insert_hand(connection, table_id, hand, now)
                stacks = _stacks_if_over(hand)
                if stacks:  # every player all in on the antes: the engine played it out
                    await connection.execute(
                        store.DEAL_STACKS, {"table": table_id, "stacks": store.encode(stacks)}
                    )
            live = self.live[table_id] = Live({**seats, **stacks}, hand)
            await self.broadcast(table_id, live)
            self.schedule(table_id, live)

    # ------------------------------------------------------------ sending

    async def join(self, table_id: int, player_id: int, viewer: Viewer) -> None:
        """A connection opened here: its player's frames of the table reach it."""
        layer = get_channel_layer()
        assert layer is not None
        if self.fanout == "player":
            await layer.group_add(group_of(table_id, player_id), viewer.channel_name)
            return
        if self.channel is None:
            self.channel = await layer.new_channel()
            self.reader = asyncio.get_running_loop().create_task(self.read(self.channel))
        players = self.viewers.get(table_id)
        if players is None:
            players = self.viewers[table_id] = {}
            await layer.group_add(table_group(table_id), self.channel)
        players.setdefault(player_id, set()).add(viewer)

    async def part(self, table_id: int, player_id: int, viewer: Viewer) -> None:
        layer = get_channel_layer()
        assert layer is not None
        if self.fanout == "player":
            await layer.group_discard(group_of(table_id, player_id), viewer.channel_name)
            return
        players = self.viewers.get(table_id, {})
        connections = players.get(player_id, set())
        connections.discard(viewer)
        if not connections:
            players.pop(player_id, None)
        if not players and self.viewers.pop(table_id, None) is not None:
            assert self.channel is not None
            await layer.group_discard(table_group(table_id), self.channel)

    async def read(self, channel: str) -> None:
        """This process's messages: a change's frames, handed to the connections here."""
        layer = get_channel_layer()
        assert layer is not None
        while True:
            message = await layer.receive(channel)
            try:
                await self.hand_out(message)
            except Exception:
                logger.exception("floor: could not hand out a change's frames")

    async def hand_out(self, message: dict[str, Any]) -> None:
        table_id, frames = message["table"], message["frames"]
        stamp: Stamp = (message["stamp"][0], message["stamp"][1])
        self.note_seen(table_id, stamp)
        for player, connections in list(self.viewers.get(table_id, {}).items()):
            text = frames.get(str(player))
            for viewer in list(connections) if text is not None else ():
                await viewer.deliver(text, stamp)

    async def broadcast(self, table_id: int, live: Live, *, also: Iterable[int] = ()) -> None:
        """One frame for each player at the table (and ``also``), to their group."""
        players = {entry["player"] for entry in live.seats.values()} | set(also)
        if live.hand is not None:
            players.update(live.hand.players)
        frames = build_frames(table_id, live, players)
        layer = get_channel_layer()
        assert layer is not None
        stamp = list(live.stamp)
        if self.fanout == "process":
            message = {
                "type": "floor.frames",
                "table": table_id,
                "frames": {str(player): text for player, text in frames.items()},
                "stamp": stamp,
            }
            await layer.group_send(table_group(table_id), message)
            return
        await asyncio.gather(
            *(
                layer.group_send(group_of(table_id, player), _frame(text, stamp))
                for player, text in frames.items()
            )
        )


def _frame(text: str, stamp: list[int]) -> dict[str, Any]:
    return {"type": "floor.frame", "text": text, "stamp": stamp}


def _answers(live: Live | None, hand_id: int | None, turn: int) -> bool:
    """Whether this process's copy can answer a move at (``hand_id``, ``turn``)
    without a read: it is at that turn, or past it (the move is stale)."""
    if live is None or live.hand is None:
        return False
    hand = live.hand
    if hand_id is not None and hand_id != hand.id:
        return hand_id < hand.id
    return turn <= hand.version or hand.finished


def _open_hand(live: Live | None, hand_id: int | None, turn: int) -> Hand:
    """The running hand at ``turn``, or a ``stale`` refusal saying why not."""
    hand = None if live is None else live.hand
    if hand is None or (hand_id is not None and hand_id != hand.id):
        raise Refusal("stale", f"hand #{hand_id} is not being played")
    if hand.finished:
        raise Refusal("stale", f"hand #{hand.number} is over")
    if turn != hand.version:
        raise Refusal(
            "stale",
            f"hand #{hand.number} is at version {hand.version}, not {turn}; "
            "reload it and try again",
        )
    return hand


def _new_hand(
    terms: Terms, dealt: list[tuple[int, dict[str, Any]]], number: int, last: int, now: datetime
) -> Hand:
    """A hand dealt to ``dealt`` (seat, entry), the button one seat on from ``last``."""
    dealer = next((seat for seat, _ in dealt if seat > last), dealt[0][0])
    order = [pair for pair in dealt if pair[0] > dealer] + [
        pair for pair in dealt if pair[0] <= dealer
    ]
    state = HandState.new(terms.config, [entry["stack"] for _, entry in order])
    expires_at = None
    if not state.finished and state.to_act is not None:
        expires_at = now + timedelta(seconds=terms.action_seconds)
    seating = [[seat, entry["player"], entry["name"]] for seat, entry in order]
    return Hand(
        0,
        number,
        dealer,
        seating,
        [entry["player"] for _, entry in order],
        state.turn,
        state,
        expires_at,
        now if state.finished else None,
    )


async def _insert_hand(connection: Any, table_id: int, hand: Hand, now: datetime) -> int:
    cursor = await connection.execute(
        store.DEAL,
        {
            "table": table_id,
            "number": hand.number,
            "dealer": hand.dealer,
            "seating": store.encode(hand.seating),
            "players": hand.players,
            "version": hand.version,
            "state": store.encode(hand.state.to_dict()),
            "expires_at": hand.expires_at,
            "started_at": now,
            "ended_at": hand.ended_at,
        },
    )
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


def _stacks_if_over(hand: Hand) -> dict[str, dict[str, Any]]:
    if not hand.finished:
        return {}
    return {
        str(seat): {"player": player, "name": name, "stack": hand.state.stacks[index]}
        for index, (seat, player, name) in enumerate(hand.seating)
    }


def build_frames(table_id: int, live: Live, players: Iterable[int]) -> dict[int, str]:
    """Each player's snapshot as JSON text (without ``seq``, which each
    connection adds): the table and the hand's facts written once, each
    player's view of the hand (``view(state, seat)``) once for them."""
    hand = live.hand
    running = hand is not None and not hand.finished
    index_of = {} if hand is None else {player: i for i, player in enumerate(hand.players)}
    seats = []
    for number, entry in sorted(live.seats.items(), key=lambda item: int(item[0])):
        stack = entry["stack"]
        if running and entry["player"] in index_of:
            assert hand is not None
            stack = hand.state.stacks[index_of[entry["player"]]]
        seats.append(
            {"number": int(number), "player": entry["name"], "stack": stack, "state": "playing"}
        )
    info = None
    if hand is not None:
        timer = None
        if running and hand.expires_at is not None and hand.state.to_act is not None:
            timer = {
                "seat": hand.seating[hand.state.to_act][0],
                "expires_at": hand.expires_at.isoformat(),
            }
        info = {
            "id": hand.id,
            "number": hand.number,
            "seats": [seat for seat, _, _ in hand.seating],
            "finished": hand.finished,
            "timer": timer,
        }
    head = (
        b'{"type":"snapshot","table":'
        + orjson.dumps({"id": table_id, "seats": seats})
        + b',"hand_info":'
        + orjson.dumps(info)
        + b',"hand":'
    )
    seat_of = {entry["player"]: int(number) for number, entry in live.seats.items()}
    observer: bytes | None = None
    frames = {}
    for player in players:
        if hand is None:
            body = b"null"
        elif player in index_of:
            body = orjson.dumps(view(hand.state, index_of[player]))
        else:
            observer = observer or orjson.dumps(view(hand.state, None))
            body = observer
        you = orjson.dumps({"player": player, "seat": seat_of.get(player)})
        frames[player] = (head + body + b',"you":' + you + b"}").decode()
    return frames


ROOM = Room()
