"""Requests that may let the table deal, each one call: the change, then what follows it.

A player who sits, sits in or buys back in may be the second player a table
needs, and a table opened may find players waiting in their seats: each of
these deals the next hand if the table is ready (:func:`hand_start_if_ready`).
A move that ends the hand schedules the next one (:func:`hand_follow_up`).
The websocket and the admin ask for these; the requests that need nothing to
follow them call the section's service itself (``seat_leave``, ``waiting_join``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from tables.models import Hand
from tables.selectors.players import LoginCheck
from tables.selectors.snapshots import TableRows, rows_after_move
from tables.services.calls import game_call
from tables.services.chips import seat_auto_rebuy_set, seat_rebuy
from tables.services.common import StaleMove
from tables.services.hands import hand_act_seated, hand_follow_up, hand_start_if_ready
from tables.services.seats import seat_sit_in, seat_take
from tables.services.tables import table_open


def table_open_and_deal(*, table_id: int) -> None:
    """Open the table, and deal if players are waiting in their seats."""
    table_open(table_id=table_id)
    hand_start_if_ready(table_id=table_id)


def seat_take_and_deal(*, table_id: int, player_id: int, seat_number: int, buy_in: int) -> None:
    seat_take(table_id=table_id, player_id=player_id, seat_number=seat_number, buy_in=buy_in)
    hand_start_if_ready(table_id=table_id)


def seat_sit_in_and_deal(*, table_id: int, player_id: int) -> None:
    seat_sit_in(table_id=table_id, player_id=player_id)
    hand_start_if_ready(table_id=table_id)


def seat_rebuy_and_deal(*, table_id: int, player_id: int, amount: int) -> None:
    seat_rebuy(table_id=table_id, player_id=player_id, amount=amount)
    hand_start_if_ready(table_id=table_id)  # a busted player is dealt in again


def seat_auto_rebuy_set_and_deal(*, table_id: int, player_id: int, amount: int | None) -> None:
    seat_auto_rebuy_set(table_id=table_id, player_id=player_id, amount=amount)
    hand_start_if_ready(table_id=table_id)  # it may have bought a busted seat back in


def game_call_and_deal(*, table_id: int, player_id: int, game: int) -> None:
    """The dealer calls the next game, which is dealt at once; then what follows the deal."""
    hand = game_call(table_id=table_id, player_id=player_id, game=game)
    if hand is not None:
        hand_follow_up(hand=hand)


def hand_play(
    *,
    table_id: int,
    player_id: int,
    kind: str,
    amount: int | None = None,
    cards: Sequence[int] | None = None,
    version: int,
    hand_id: int | None = None,
    login: LoginCheck | None = None,
    received_at: datetime | None = None,
) -> TableRows | None:
    """Make a player's move in the table's hand (``hand_id``, or the one being
    played), then what follows it (:func:`hand_follow_up`).

    Returns the table's rows just after the move while the hand runs on, so
    this process's viewers need not read them (``tables.consumers.shared.MadeHere``);
    None once the hand has ended, when the next hand is on its way.

    With ``login`` (a socket's), the mover's login is checked in the move's
    first round trip: :class:`~tables.selectors.players.NoLongerCurrent` if
    it no longer speaks for them, and nothing changes. ``received_at``: when
    the socket received the move; the mover's time bank is charged up to
    then, not for the time the move waited to be served.
    """
    if hand_id is None:
        hand_id = (
            Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
            .values_list("pk", flat=True)
            .first()
        )
        if hand_id is None:
            if login is not None:
                login.confirm()  # a login that ended hears so first
            raise StaleMove("no hand is being played at this table")
    hand, seats, waiting = hand_act_seated(
        hand_id=hand_id,
        player_id=player_id,
        kind=kind,
        amount=amount,
        cards=cards,
        version=version,
        now=None,
        table_id=table_id,
        login=login,
        received_at=received_at,
    )
    hand_follow_up(hand=hand)
    if hand.is_finished:
        return None
    return rows_after_move(hand, seats, waiting)
