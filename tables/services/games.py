"""Which game a mixed table deals next: a rotation's turn, or the dealer's call.

A fixed table deals its stakes' game. A rotation deals each game of the
table's list (:class:`TableGame`) in turn, moving on after ``rotate_hands``
hands, or with 0 after an orbit: when the deal comes back round to the seat
where the game began. At dealer's choice the next hand's dealer calls the
game, for the hand or for the orbit (``choice_for``), with the table's action
time and countdown to do it; when that runs out, or the dealer is away
(disconnected), the table deals its default (``choice_default``).

A game dealt to fewer players than are dealt in (roll your own, English stud
and Baseball take at most six or seven) is skipped by the rotation and not
offered to the dealer. The game always changes between hands: the pick is
made at the deal, under the table's lock, and the state it keeps on the table
moves only then.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from tables import scheduling
from tables.models import Seat, Stakes, Table, TableGame
from tables.rules import GameConfig
from tables.selectors.games import entry_at, fitting, next_fitting, orbit_done, table_games
from tables.services.clock import timeout_due

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pick:
    """The game a hand is dealt: its config, its place in the table's list
    (None at a fixed table), and the dealer's call that chose it, if one did."""

    config: GameConfig
    position: int | None = None
    call: dict[str, Any] | None = None


def pick_game(
    table: Table, seats: Sequence[Seat], dealer: int, last_dealer: int | None, now: datetime
) -> Pick | None:
    """The game for the hand about to be dealt at the locked ``table`` to
    ``seats`` with the button at ``dealer``; None when the dealer must call it
    first (the call is begun: :func:`_call_begin`).

    Moves the table's rotation on, and takes the call just made. The caller
    saves the table with the hand.
    """
    games = table_games(table)
    if not games:
        return Pick(table.stakes.game_config())
    players = len(seats)
    current = entry_at(games, table.game_position)
    call = table.called  # a call just made is for this deal
    stays = (
        current is not None
        and current in fitting(games, players)
        and not _stretch_over(table, last_dealer, dealer)
    )
    if not stays:
        call = None
        if table.policy == Table.Policy.ROTATION:
            current = next_fitting(games, current, players)
        else:
            seat = next(seat for seat in seats if seat.number == dealer)
            if seat.state != Seat.State.DISCONNECTED:
                _call_begin(table, seat, now)
                return None
            current, call = _default(table, games, players), _call_note(seat, "away")
        table.game_hands = 0
    if current is None:
        # The admin refuses a list without a game for a full table, but the
        # stakes' seats may have grown since: their own game fits them.
        logger.warning("no game of %s's list fits %s players", table.name, players)
        return Pick(table.stakes.game_config())
    if table.game_hands == 0:
        table.game_position, table.game_began_seat = current.position, dealer
    table.called = None
    table.game_hands += 1
    return Pick(current.game_config(table.stakes), current.position, call)


def _stretch_over(table: Table, last_dealer: int | None, dealer: int) -> bool:
    """Whether the game now dealt has had its hands: its count in a rotation,
    its one hand at dealer's choice by the hand, or its orbit."""
    if table.game_hands == 0:
        return False  # just called, or just rotated to: not yet dealt
    per_orbit = (
        table.choice_for == Table.ChoiceFor.ORBIT
        if table.policy == Table.Policy.DEALERS_CHOICE
        else table.rotate_hands == 0
    )
    if not per_orbit:
        if table.policy == Table.Policy.DEALERS_CHOICE:
            return True
        return table.game_hands >= table.rotate_hands
    began = table.game_began_seat
    return began is None or last_dealer is None or orbit_done(began, last_dealer, dealer)


def _default(table: Table, games: Sequence[TableGame], players: int) -> TableGame | None:
    """The game dealt when the dealer doesn't call: the last dealt, or the list's
    first, by the table's option; the list's first that fits if that doesn't."""
    fits = fitting(games, players)
    if table.choice_default == Table.ChoiceDefault.LAST:
        last = entry_at(games, table.game_position)
        if last in fits:
            return last
    return fits[0] if fits else None


def _call_note(seat: Seat, how: str) -> dict[str, Any]:
    return {"by": seat.player.username, "how": how}


# ------------------------------------------------------------ the dealer's call


# The table's fields that hold a call under way.
CALL_FIELDS = ("call_number", "call_seat", "call_player", "call_deadline", "call_expires_at")


def _call_begin(table: Table, seat: Seat, now: datetime) -> None:
    """Ask the dealer at ``seat`` to call the next game, with the table's action
    time and, on the countdown clock, its countdown as well; the table is saved."""
    terms = table.stakes
    extra = terms.time_bank_seconds if terms.clock == Stakes.Clock.PER_TURN else 0
    table.call_number += 1
    table.call_seat, table.call_player = seat.number, seat.player
    table.call_deadline = now + timedelta(seconds=terms.action_seconds)
    table.call_expires_at = table.call_deadline + timedelta(seconds=extra)
    table.called = None
    table.save(update_fields=[*CALL_FIELDS, "called"])
    if not settings.CARDROOM_TURN_TASKS:
        return  # no broker, no clock: as for the turns (tables.services.clock)
    number, due = table.call_number, timeout_due(table.call_expires_at)
    transaction.on_commit(lambda: scheduling.call_timeout_send(table.pk, number, due), robust=True)


def _call_off(table: Table) -> None:
    """No call under way any more (the table closed, or nobody is left to deal to)."""
    table.call_seat = table.call_player = table.call_deadline = table.call_expires_at = None
    table.save(update_fields=list(CALL_FIELDS))


def _call_end(table: Table, position: int, note: dict[str, Any]) -> None:
    """The call is made (or defaulted): the next deal deals game ``position``,
    with the button at the seat asked to call (:func:`called_dealer`)."""
    table.game_began_seat = table.call_seat
    table.call_seat = table.call_player = table.call_deadline = table.call_expires_at = None
    table.game_position, table.game_hands = position, 0
    table.called = note
    fields = [*CALL_FIELDS, "game_position", "game_hands", "game_began_seat", "called"]
    table.save(update_fields=fields)


def called_dealer(table: Table, seats: Sequence[Seat]) -> int | None:
    """The button for the deal after a call: the seat that was asked to call,
    while it is still dealt in. A player who sat down during the call, between
    the last button and the caller, doesn't take the deal from them. None
    when no call was made, or when the caller's seat is no longer dealt in."""
    if table.called is None or table.game_began_seat is None:
        return None
    numbers = {seat.number for seat in seats}
    return table.game_began_seat if table.game_began_seat in numbers else None
