"""A table's rows as a move left them, carried in its change notice to the
other Daphne processes, so that their viewers need not read the table again.

The channel layer delivers a group message once per process (each process
subscribes to the table's group once, for all its viewers: see
``tables.consumers.relay``), so the rows travel once to each process that
has a viewer of the table, however many viewers it has there. They are server
data: a process builds each of its viewers' snapshots from them
(:func:`tables.selectors.snapshots.build_snapshot`) exactly as from rows it
read, and never sends them on. Even so they leave out what no snapshot
needs and nobody may learn early: the deck, what is left of it and the
burned cards, the deck's salt, and every account field but a player's name
and balance. A field left out is deferred: reading it would read the row.

:func:`carry` packs the rows into plain values (lists, strings, numbers)
written as JSON; :func:`uncarry` makes them rows again. The channel layer
carries the JSON as one opaque value, so a process pays for unpacking the
rows only when it needs them: not for its own notice, which Redis hands back
to it too (it kept the rows themselves), nor for a notice its viewers are
already past.
"""

from __future__ import annotations

import decimal
import functools
from collections.abc import Mapping
from typing import Any, cast

import orjson
from django.db import DEFAULT_DB_ALIAS, models

from accounts.models import User
from tables.jsontext import json_bytes
from tables.models import Hand, Seat, SeatRequest, Table, TableGame, WaitingPlayer
from tables.rules import UNKNOWN, HandState
from tables.selectors.players import ROW_FIELDS
from tables.selectors.snapshots import TableRows

# Which related rows come with each row, as the reads that make the rows
# select them (tables.selectors.snapshots): name -> what comes with that.
Follow = Mapping[str, Any]  # name -> the same again, for that row
TABLE: Follow = {"stakes": {"rake": {}}, "call_player": {}, "host": {}}
WITH_PLAYER: Follow = {"player": {}}
GAME: Follow = {"stakes": {"rake": {}}}

# The fields each model's rows carry; every other model carries them all.
KEPT: dict[type[models.Model], tuple[str, ...]] = {User: ROW_FIELDS}
LEFT_OUT: dict[type[models.Model], tuple[str, ...]] = {Hand: ("deck", "deck_salt")}
# Parsed back from the strings they travel as.
PARSED = (models.DateTimeField, models.DateField, models.DecimalField, models.UUIDField)


def carry(rows: TableRows) -> bytes:
    """The rows as JSON, for a change notice."""
    hand = rows.hand
    plain = {
        "table": _pack(rows.table, TABLE),
        "seats": [_pack(seat, WITH_PLAYER) for seat in rows.seats],
        "hand": None if hand is None else _pack(hand, {}),
        "waiting": [_pack(entry, WITH_PLAYER) for entry in rows.waiting],
        "games": [_pack(game, GAME) for game in rows.games],
        "books": rows.books,
        "requests": [_pack(request, WITH_PLAYER) for request in rows.requests],
        "bots": rows.bots,
    }
    return json_bytes(plain, default=_text)


def uncarry(packed: bytes) -> TableRows:
    """Rows again from :func:`carry`'s JSON, with nothing read."""
    data = orjson.loads(packed)
    table = _unpack(Table, data["table"], TABLE)
    hand = None if data["hand"] is None else _unpack(Hand, data["hand"], {})
    state = None
    if hand is not None:
        hand.table = table
        state = HandState.from_dict(hand.state, adopt=True)
    return TableRows(
        table,
        [_unpack(Seat, seat, WITH_PLAYER) for seat in data["seats"]],
        hand,
        state,
        [_unpack(WaitingPlayer, entry, WITH_PLAYER) for entry in data["waiting"]],
        [_unpack(TableGame, game, GAME) for game in data["games"]],
        data["books"],
        requests=[_unpack(SeatRequest, request, WITH_PLAYER) for request in data["requests"]],
        bots=list(data["bots"]),
    )


def _hidden(state: dict[str, Any]) -> dict[str, Any]:
    """A hand's state without its deck, the rest of the deck and its burns'
    faces: as a scripted hand's, whose cards to come are unknown."""
    burns = state.get("burns") or []
    return {**state, "deck": None, "stub": None, "burns": [UNKNOWN] * len(burns)}


@functools.cache
def _fields(model: type[models.Model]) -> tuple[models.Field[Any, Any], ...]:
    kept, left_out = KEPT.get(model), LEFT_OUT.get(model, ())
    return tuple(
        field
        for field in model._meta.concrete_fields
        if (kept is None or field.attname in kept) and field.attname not in left_out
    )


@functools.cache
def _names(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(field.attname for field in _fields(model))


def _pack(obj: models.Model, follow: Follow) -> list[Any]:
    """The row's carried fields in order, then each followed row (or None)."""
    values = [getattr(obj, name) for name in _names(type(obj))]
    if isinstance(obj, Hand):
        values[_STATE_AT] = _hidden(obj.state)
    related = {}
    for name, further in follow.items():
        other = getattr(obj, name)
        related[name] = None if other is None else _pack(other, further)
    return [values, related]


_STATE_AT = _names(Hand).index("state")


def _text(value: Any) -> str:
    """What orjson won't write by itself: a decimal, as its digits. (It writes
    dates and times as ``isoformat`` does, and UUIDs as ``str``.)"""
    if isinstance(value, decimal.Decimal):
        return str(value)
    raise TypeError(f"a carried row holds no {type(value).__name__}")


def _unpack(model: type[Any], packed: list[Any], follow: Follow) -> Any:
    """The row :func:`_pack` packed, with its followed rows in place."""
    values, related = packed
    row_model = cast(type[models.Model], model)
    fields = _fields(row_model)
    parsed = [
        field.to_python(value) if value is not None and isinstance(field, PARSED) else value
        for field, value in zip(fields, values, strict=True)
    ]
    obj = model.from_db(DEFAULT_DB_ALIAS, _names(row_model), parsed)
    for name, further in follow.items():
        other = related[name]
        if other is not None:
            field = model._meta.get_field(name)
            setattr(obj, name, _unpack(field.related_model, other, further))
    return obj
