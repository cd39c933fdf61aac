"""The move a player makes when their turn's time runs out, and the sweep behind the tasks."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.compiled import CompiledRead
from tables.models import Hand, Seat, Stakes
from tables.rules import HandState
from tables.rules.state import PROTECT
from tables.services.clock import timeout_due, timeout_wait
from tables.services.common import SWEEP_BATCH, HandSeats, _lock_hand
from tables.services.hands import _hand_apply, _hand_store

# The moves a timeout makes, the first one allowed. Under the all-in policy a
# player with chips in beyond the ante is protected: all in for the pot so far
# (seed 002; the engine's ``protect``, never a player's choice). Otherwise: free
# to check, else fold. The bring-in is a forced bet with no fold, so a player
# who lets it time out posts it.
TIMEOUT_MOVES = (PROTECT, "check", "fold", "bring_in")
# Timeouts in a row after which a player is sat out.
TIMEOUTS_TO_SIT_OUT = 2
# What a timeout task looks at first: whether the hand is still at its turn, and till when.
_TURN_OF = CompiledRead(
    lambda hand_id: Hand.objects.filter(pk=hand_id).only("version", "ended_at", "turn_expires_at")
)


def hand_timeout(*, hand_id: int, turn: int, now: datetime | None = None) -> Hand | None:
    """Make the move of a player whose time for ``turn`` (a ``Hand.version``) ran out.

    Returns None and changes nothing when there is nothing to do: the hand is
    gone or over, it has moved past ``turn``, or its turn has not yet expired at
    ``now`` (default: the current time). So a timeout sent twice, late, or for a
    turn the reconnect extension lengthened is harmless.

    The move is a check when checking is free, otherwise a fold (a bring-in due
    is posted). With ``Stakes.TimeoutPolicy.ALL_IN``, a player who has put chips
    in beyond the ante is instead protected (seed 002): all in for the pot so
    far, their chips behind kept and never asked to act again this hand. The
    move is recorded with ``timed_out`` set. A second timeout in a row sits the
    player out; with a time bank, the bank is emptied as well. The move is one
    transaction.
    """
    now = now or timezone.now()
    # Most tasks arrive for turns already played: those are answered with one
    # read, compiled once, with no lock and no transaction.
    if not any(_turn_open_past(hand, turn, now) for hand in _TURN_OF(hand_id)):
        return None
    return _hand_time_out(hand_id, turn, now)


@transaction.atomic
def _hand_time_out(hand_id: int, turn: int, now: datetime) -> Hand | None:
    hand = _lock_hand(hand_id)
    if not _turn_open_past(hand, turn, now):
        return None
    seats, state = HandSeats.load(hand), HandState.from_dict(hand.state)
    if state.simultaneous:  # a choice everyone makes at once: all still choosing time out
        for player in state.deciding():
            kind, cards = state.default_decision(player)
            _hand_apply(hand, state, seats, player, kind, None, cards, now, timed_out=True)
            _seat_timed_out(seats, player, hand.table.stakes, now)
        _hand_store(hand, state, seats, now, turn)
        return hand
    # The clock runs (checked above) only while someone is to act, and a choice
    # made in turn names who (_turn_clock_start stops it otherwise).
    assert state.to_act is not None
    player = state.to_act
    if state.decision is not None:
        kind, cards = state.default_decision(player)
    else:
        kind, cards = _timeout_move(state, hand.table.stakes.timeout_policy), None
    _hand_apply(hand, state, seats, player, kind, None, cards, now, timed_out=True)
    _seat_timed_out(seats, player, hand.table.stakes, now)
    _hand_store(hand, state, seats, now, turn)
    return hand


def _turn_open_past(hand: Hand, turn: int, now: datetime) -> bool:
    """Whether the hand is still being played at ``turn`` and that turn's
    timeout is due by ``now`` (:func:`timeout_due`)."""
    expires = hand.turn_expires_at
    if hand.is_finished or hand.version != turn or expires is None:
        return False
    return now >= timeout_due(expires)


def _timeout_move(state: HandState, policy: str) -> str:
    """The first of TIMEOUT_MOVES allowed: the legal moves, and the protection
    when the stakes' policy is all in and the player qualifies."""
    allowed = {option.kind for option in state.legal_actions()}
    if policy == Stakes.TimeoutPolicy.ALL_IN and state.can_protect():
        allowed.add(PROTECT)
    return next(kind for kind in TIMEOUT_MOVES if kind in allowed)


def _seat_timed_out(seats: HandSeats, player: int, stakes: Stakes, now: datetime) -> None:
    """A second timeout in a row sits the player out; a time bank is used up.

    The countdown of the per-turn clock is stored nowhere, so a timeout takes
    nothing from the player's later turns.
    """
    timeouts = seats[player].timeouts_in_a_row + 1
    seats.set(player, timeouts_in_a_row=timeouts)
    if stakes.clock == Stakes.Clock.TIME_BANK:
        seats.set(player, time_bank_ms=0)
    if timeouts >= TIMEOUTS_TO_SIT_OUT:
        if seats[player].state == Seat.State.PLAYING:
            seats.set(player, away_since=now)
        seats.set(player, state=Seat.State.SITTING_OUT, sat_out_for=Seat.SatOutFor.TIMEOUTS)


def hands_expire_overdue(
    *, now: datetime | None = None, on_expired: Callable[[Hand], object] | None = None
) -> int:
    """Time out every turn whose timeout task is overdue; the number timed out.

    The safety net under the per-turn tasks, run by beat every few seconds: a
    turn counts as overdue ``CARDROOM_TURN_GRACE_SECONDS`` after its timeout was
    due (:func:`timeout_due`), so the task normally gets there first and this
    finds nothing. Each hand is its
    own timeout transaction, and ``on_expired`` is called with each
    hand timed out, after that transaction (if this call isn't inside another).
    """
    now = now or timezone.now()
    grace = timedelta(seconds=settings.CARDROOM_TURN_GRACE_SECONDS)
    cutoff = now - timeout_wait() - grace
    overdue = Hand.objects.filter(ended_at__isnull=True, turn_expires_at__lte=cutoff)
    expired = 0
    for hand_id, turn in overdue.order_by("turn_expires_at").values_list("pk", "version")[
        :SWEEP_BATCH
    ]:
        hand = _hand_time_out(hand_id, turn, now)  # just read as overdue: straight to the lock
        if hand is not None:
            expired += 1
            if on_expired is not None:
                on_expired(hand)
    return expired
