"""What every services module shares: the errors, the locks and the reads each move starts with.

Every service runs in one transaction and first locks the table's row
(:func:`_lock_table`), so moves, buy-ins and hand starts at one table happen
one after another.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from tables.compiled import CompiledRead, CompiledUpdate, one_trip
from tables.jsontext import json_bytes
from tables.models import Hand, Seat, Table, WaitingPlayer
from tables.rules import GameConfig, HandState
from tables.rules.cards import card_str
from tables.rules.state import FIELDS
from tables.selectors.players import LoginCheck, only_row_fields
from tables.selectors.snapshots import SEATS, WAITING
from tables.services.live import LIVE_HANDS

# Rows a sweep run by beat handles per run (hands, tables, players); the next
# run, seconds later, takes the rest.
SWEEP_BATCH = 100


class ServiceError(ValueError):
    """A request the table refuses; the message says why. Nothing was changed."""


class StaleMove(ServiceError):
    """A move made against an old version of the hand, or after it ended."""


class IllegalMove(ServiceError):
    """A move the rules engine refused; the message is the engine's."""


def deck_commitment(salt: str, deck: Sequence[int]) -> str:
    """The SHA-256 published when a hand starts, before any card is dealt.

    It is the hex digest of ``"<salt>:<cards>"`` in UTF-8, where the cards are
    the whole shuffled deck in dealing order, written like ``Ah`` and joined by
    single spaces. Once the hand is over, ``Hand.deck`` and ``Hand.deck_salt``
    let anyone recompute it and check that the deck was fixed before the deal.

    >>> deck_commitment("00", [50, 0])  # sha256(b"00:Ah 2c")
    '00ffb24fa792789f3c2d6e702e9d89f5005111200ebcc75bbf89649db75e204b'
    """
    text = f"{salt}:{' '.join(card_str(card) for card in deck)}"
    return hashlib.sha256(text.encode()).hexdigest()


def saved_state(state: HandState) -> dict[str, Any]:
    """What ``state.to_dict()`` gives, as the hand's row keeps it, made by
    orjson in about a fifth of the time: every move stores its hand's state.

    Keys come back as text, as from PostgreSQL's JSON. The new lists and
    dicts are the caller's: the state changes on without them.
    """
    fields = {name: getattr(state, name) for name in FIELDS}
    fields["config"] = _config_data(state.config)
    data: dict[str, Any] = orjson.loads(json_bytes(fields, default=_as_list))
    return data


@functools.lru_cache(maxsize=256)
def _config_data(config: GameConfig) -> dict[str, Any]:
    """The game's data, worked out once per game: orjson only reads it."""
    return config.to_dict()


def _as_list(value: object) -> list[Any]:
    """What orjson won't write by itself: a named tuple (a card held)."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"a hand's state holds no {type(value).__name__}")


def _lock_table(table_id: int) -> Table:
    """The table's row, locked until the transaction ends, with its stakes and
    their rake, its host and the player calling its game: everything its rows
    after the move need of it (``rows_after_move``, ``carry``).

    Only the table's row is locked (``of``): every table of the same stakes
    must not wait on one another.
    """
    return _table_found(_TABLE_LOCKED(table_id), table_id)


def _last_hand(table: Table, *fields: str) -> Hand | None:
    """The table's latest hand, with only ``fields`` read (and its table's id).

    The table's id is read with them because the related manager sets each
    hand's table as it builds it: left deferred, that id would be read back
    in a query of its own, one more per call.
    """
    return table.hands.order_by("-number").only("table", *fields).first()


def _table_found(found: list[Table], table_id: int) -> Table:
    if not found:
        raise ServiceError(f"there is no table #{table_id}")
    return found[0]


# The reads every move makes, compiled once (see tables.compiled). Each runs in
# the move's transaction, as select_for_update needs.
_TABLE_LOCKED = CompiledRead(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",))
        .select_related("stakes__rake", "host", "call_player")
        .defer(*only_row_fields("host", "call_player"))
        .filter(pk=table_id)
    )
)
_HAND_AT = CompiledRead(
    lambda hand_id, table_id: Hand.objects.filter(pk=hand_id, table_id=table_id), arity=2
)
# The same without the state, for a move whose state this process holds (LIVE_HANDS).
_HAND_AT_NO_STATE = CompiledRead(
    lambda hand_id, table_id: Hand.objects.filter(pk=hand_id, table_id=table_id).defer("state"),
    arity=2,
)


def _lock_hand(hand_id: int) -> Hand:
    """Lock the hand's table, then read the hand: its state is now ours alone.
    (A move locks and reads more, in one trip: :func:`_lock_live_hand`.)"""
    table = _lock_table(_table_of(hand_id))
    # Read (again) now that moves are serialized.
    return _hand_found(_HAND_AT(hand_id, table.pk), hand_id, table)


def _table_of(hand_id: int) -> int:
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise ServiceError(f"there is no hand #{hand_id}")
    return table_id


def _hand_found(found: list[Hand], hand_id: int, table: Table) -> Hand:
    if not found:
        raise ServiceError(f"there is no hand #{hand_id} at {table.name}")
    hand = found[0]
    hand.table = table  # locked, with its stakes: no second read
    return hand


def _lock_live_hand(
    hand_id: int, table_id: int | None, *, expected: object, login: LoginCheck | None = None
) -> tuple[Hand, HandState, list[Seat], list[WaitingPlayer]]:
    """A move's rows: :func:`_lock_hand`'s, with the hand's state, every seat
    at the table (with its player, for :meth:`HandSeats.load`) and the
    table's waiting list, all read in the lock's round trip
    (:func:`tables.compiled.one_trip`).

    The state is the one this process left the hand in where the row is still
    at that version (:mod:`tables.services.live`), else the row's, decoded;
    it is the caller's to change. ``expected`` is the version the caller
    expects the row at (the move's): where this process holds another, the
    row's state is read with the row, not after it.

    PostgreSQL runs the reads once the lock is granted, so they see what every
    change before this one left, as reads made one by one after it would:
    every change to a table's seats or waiting list locks the table's row first.

    With ``login``, the mover's login is checked in the same trip, and
    :class:`~tables.selectors.players.NoLongerCurrent` raised before anything
    read is looked at if it no longer speaks for them.
    """
    if table_id is None:
        table_id = _table_of(hand_id)
    held = type(expected) is int and LIVE_HANDS.holds(hand_id, expected)
    with one_trip():
        if login is not None:
            login.send()
        locked = _TABLE_LOCKED.send(table_id)
        hand_read = (_HAND_AT_NO_STATE if held else _HAND_AT).send(hand_id, table_id)
        seats_read, waiting_read = SEATS.send(table_id), WAITING.send(table_id)
    if login is not None:
        login.confirm()
    table = _table_found(locked.rows(), table_id)
    hand = _hand_found(hand_read.rows(), hand_id, table)
    at_table, waiting = seats_read.rows(), waiting_read.rows()
    state = LIVE_HANDS.take(hand.pk, hand.version, hand.deck_commitment) if held else None
    if state is None:
        state = HandState.from_dict(hand.state)  # read now if it was left out
    return hand, state, at_table, waiting


class HandSeats:
    """The seats of a hand's players in engine order, read once and saved once.

    A move touches up to three seats (the mover's stack and clock, the next
    player's time bank, everyone's stack at the showdown); collecting the
    changes here keeps a move to one read and one write per changed seat.
    """

    def __init__(self, seats: list[Seat], at_table: list[Seat] | None = None) -> None:
        self.seats = seats
        # Every seat at the table, these among them, in order, with their
        # players, as load() read them; a hand being dealt has only its own.
        self.at_table = seats if at_table is None else at_table
        self.changed: dict[int, set[str]] = {}

    @classmethod
    def load(cls, hand: Hand, at_table: list[Seat] | None = None) -> HandSeats:
        """The hand's seats, from ``at_table`` (every seat at the table, with
        its player, read under the table's lock) or read now."""
        numbers, players = hand.seat_numbers(), hand.player_ids()
        if at_table is None:
            at_table = SEATS(hand.table_id)
        found = {s.number: s for s in at_table if s.number in numbers}
        seats = []
        for number, player_id in zip(numbers, players, strict=True):
            seat = found.get(number)
            if seat is None or seat.player_id != player_id:
                # Leaving is refused mid-hand, so this is a bug: roll back.
                raise ServiceError(f"seat {number} of hand #{hand.number} lost its player")
            seats.append(seat)
        return cls(seats, at_table)

    def __getitem__(self, player: int) -> Seat:
        return self.seats[player]

    def set(self, player: int, **fields: Any) -> None:
        seat = self.seats[player]
        for name, value in fields.items():
            if getattr(seat, name) != value:
                setattr(seat, name, value)
                self.changed.setdefault(player, set()).add(name)

    def take_stacks(self, stacks: Sequence[int]) -> None:
        """Copy the engine's stacks (the chips behind each player) to the seats."""
        for player, stack in enumerate(stacks):
            self.set(player, stack=stack)

    def save(self) -> None:
        """Write the changed seats, each its changed fields (a move changes one or two).

        The writes are sent, not waited for: inside :func:`one_trip` they go
        with the hand's. A seat's row is not deleted while it plays a hand."""
        for player in sorted(self.changed):
            _SEAT_WRITE.send(self.seats[player], sorted(self.changed[player]))
        self.changed.clear()


_SEAT_WRITE = CompiledUpdate(Seat)


def _seat_for_update(table_id: int, player_id: int) -> Seat:
    return _seat_at(_lock_table(table_id), player_id)


def _seat_at(table: Table, player_id: int) -> Seat:
    seat = Seat.objects.filter(table=table, player_id=player_id).first()
    if seat is None:
        raise ServiceError(f"you have no seat at {table.name}")
    return seat


def _is_dealt_in(table: Table, player_id: int) -> bool:
    hand = _unfinished_hand(table)
    return hand is not None and hand.engine_player(player_id) is not None


def _unfinished_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).first()


def _tables_sweep(
    table_ids: list[int],
    change: Callable[[int], int],
    on_changed: Callable[[int], object] | None,
) -> int:
    """What a sweep does at each table: ``change`` (a transaction of its own,
    returning how many things it changed there), then ``on_changed`` with the
    table's id where it changed any; how many in all."""
    total = 0
    for table_id in table_ids:
        count = change(table_id)
        if count:
            total += count
            if on_changed is not None:
                on_changed(table_id)
    return total
