"""The turn clock: timing each turn, charging time banks, and sending the timeout tasks.

Whenever a player is to act, the hand's ``turn_deadline`` is the end of their
action time (``Stakes.action_seconds`` from the moment the turn began) and
``turn_expires_at`` adds their extra time. By default
(``Stakes.Clock.PER_TURN``) that is a whole countdown every turn, whatever
earlier turns took. With ``Stakes.Clock.TIME_BANK`` it is what is left of the
seat's time bank: a move made after the deadline spends the time it took out
of the bank, the bank is refilled as the player is dealt hands, and it is
kept for a player who stands up and comes back
(:func:`tables.services.seats.time_bank_kept_for`). Each turn's timeout is a
Celery task sent for a moment after ``turn_expires_at`` (:func:`timeout_due`)
and naming the hand and its version; a sweep run by beat
(:func:`tables.services.timeouts.hands_expire_overdue`) catches any task that
was lost. Both end in
:func:`tables.services.timeouts.hand_timeout`, which acts only on the turn it
was sent for, so a late, early or repeated task changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tables import scheduling
from tables.models import Hand, Seat, Stakes
from tables.rules import HandState
from tables.services.common import SWEEP_BATCH, HandSeats, _lock_hand


def timeout_wait() -> timedelta:
    """How long after a clock runs out its timeout acts: ``CARDROOM_TIMEOUT_WAIT_MS``."""
    return timedelta(milliseconds=settings.CARDROOM_TIMEOUT_WAIT_MS)


def timeout_due(expires_at: datetime) -> datetime:
    """When the timeout of a clock that runs out at ``expires_at`` acts.

    A move is judged by when it reached the server (``received_at``), but it is
    served when a database thread is free, which on a busy server may be a
    little after its clock ran out. Were the timeout to act at once, a move in
    time would lose to it and be refused as stale; so the timeout waits
    :func:`timeout_wait`, and a move served meanwhile is made as usual. The
    tasks are sent for this moment, and the services act only from it.
    """
    return expires_at + timeout_wait()


@transaction.atomic
def hand_reconnect(*, hand_id: int, player_id: int, now: datetime | None = None) -> Hand | None:
    """Give a player who reconnects on their turn more time, once per hand.

    The turn's expiry moves ``CARDROOM_RECONNECT_EXTENSION_SECONDS`` later if it
    is ``player_id``'s turn, it has not yet expired at ``now``, and they have
    not had the extension this hand. Otherwise returns None and changes nothing.
    """
    hand, now = _lock_hand(hand_id), now or timezone.now()
    if hand.is_finished or hand.turn_expires_at is None or now >= hand.turn_expires_at:
        return None
    player = hand.engine_player(player_id)
    state = HandState.from_dict(hand.state)
    if player is None or (player != state.to_act and player not in state.deciding()):
        return None
    if player_id in hand.reconnect_extended:
        return None
    extra = timedelta(seconds=settings.CARDROOM_RECONNECT_EXTENSION_SECONDS)
    hand.turn_expires_at += extra
    hand.reconnect_extended = [*hand.reconnect_extended, player_id]
    _schedule_timeout(hand, now)  # a task already sent arrives early and does nothing
    hand.save(update_fields=["turn_expires_at", "reconnect_extended", "timeout_sent_for"])
    return hand


def _turn_clock_start(hand: Hand, state: HandState, seats: HandSeats, now: datetime) -> None:
    """Time the turn that begins at ``now``, or stop the clock if nobody is to act.

    Sets the hand's clock fields; the caller saves the hand.
    """
    deciding = [state.to_act] if state.to_act is not None else state.deciding()
    if state.finished or not deciding:
        hand.turn_deadline = hand.turn_expires_at = None
        return
    stakes = hand.table.stakes
    # A choice made at once has one clock for everyone still to choose: it
    # runs as long as the longest of their times.
    extra = max(_extra_ms(seats[player], stakes) for player in deciding)
    hand.turn_deadline = now + timedelta(seconds=stakes.action_seconds)
    hand.turn_expires_at = hand.turn_deadline + timedelta(milliseconds=extra)
    _schedule_timeout(hand, now)


def _turn_clock_keep(hand: Hand, now: datetime) -> None:
    """The turn under way keeps its expiry, and its timeout is sent again for
    the hand's new version; the caller saves the hand."""
    hand.timeout_sent_for = None
    _schedule_timeout(hand, now)


def _extra_ms(seat: Seat, stakes: Stakes) -> int:
    """The player's time after the action time: a whole countdown, or their bank left."""
    if stakes.clock == Stakes.Clock.TIME_BANK:
        return _bank_ms(seat, stakes)
    return stakes.time_bank_seconds * 1000


def _clock_charge_move(hand: Hand, seats: HandSeats, player: int, now: datetime) -> None:
    """The player moved: their timeouts are forgiven, and any time they took past
    the action time comes out of their time bank, if the stakes have one."""
    seats.set(player, timeouts_in_a_row=0)
    stakes = hand.table.stakes
    if stakes.clock != Stakes.Clock.TIME_BANK or hand.turn_deadline is None:
        return
    if now > hand.turn_deadline:
        used = (now - hand.turn_deadline) // timedelta(milliseconds=1)
        seats.set(player, time_bank_ms=max(0, _bank_ms(seats[player], stakes) - used))


def _clock_refill_banks(seats: HandSeats, stakes: Stakes) -> None:
    """Count the hand being dealt towards each player's next time bank refill.

    Every ``bank_refill_hands``-th hand a player is dealt into adds
    ``bank_refill_seconds`` to their bank, never past its size. Only with a
    time bank; the per-turn countdown needs no refill.
    """
    if stakes.clock != Stakes.Clock.TIME_BANK:
        return
    size = stakes.time_bank_seconds * 1000
    for player, seat in enumerate(seats.seats):
        dealt = seat.hands_since_refill + 1
        if dealt < stakes.bank_refill_hands:
            seats.set(player, hands_since_refill=dealt)
            continue
        bank = _bank_ms(seat, stakes) + stakes.bank_refill_seconds * 1000
        seats.set(player, hands_since_refill=0, time_bank_ms=min(bank, size))


def _bank_ms(seat: Seat, stakes: Stakes) -> int:
    """The seat's time bank left; empty means untouched, the stakes' whole bank.

    Never more than the bank's size, which the operator may have lowered since.
    """
    size = stakes.time_bank_seconds * 1000
    return size if seat.time_bank_ms is None else min(seat.time_bank_ms, size)


def _schedule_timeout(hand: Hand, now: datetime) -> None:
    """Send the turn's timeout task once this transaction commits, if the turn
    expires within ``CARDROOM_TURN_LOOKAHEAD_SECONDS``; the caller saves the hand.

    Most turns are played long before they expire, so a later turn's task is
    left to beat (:func:`turn_timeouts_claim_due`), which sends it only if the
    turn is still open near its expiry. Without a broker (``CARDROOM_TURN_TASKS``
    off) nothing is sent and only the sweep times turns out.
    """
    expires_at = hand.turn_expires_at
    if not settings.CARDROOM_TURN_TASKS or expires_at is None:
        return
    if expires_at > now + timedelta(seconds=settings.CARDROOM_TURN_LOOKAHEAD_SECONDS):
        return
    hand.timeout_sent_for, turn = expires_at, hand.version
    # hand.pk is read at commit: a new hand's clock starts before its row is written.
    due = timeout_due(expires_at)
    transaction.on_commit(lambda: scheduling.timeout_send(hand.pk, turn, due), robust=True)


@transaction.atomic
def turn_timeouts_claim_due(*, now: datetime | None = None) -> list[tuple[int, int, datetime]]:
    """Claim the turns that expire within ``CARDROOM_TURN_LOOKAHEAD_SECONDS`` and
    have no timeout task for that expiry yet: (hand id, turn, when the timeout
    is due) each (:func:`timeout_due`).

    Beat calls it every ``CARDROOM_TURN_SEND_SECONDS`` and sends each a task
    for its expiry. Each claim is written before the tasks leave, so the next
    call doesn't send them again; a turn whose expiry moved (a reconnect) is
    claimed again. Hands a move has locked are left for the next call.
    """
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.CARDROOM_TURN_LOOKAHEAD_SECONDS)
    rows = (
        Hand.objects.select_for_update(skip_locked=True)
        .filter(ended_at__isnull=True, turn_expires_at__lte=horizon)
        .exclude(timeout_sent_for=F("turn_expires_at"))
        .order_by("turn_expires_at")
        .values_list("pk", "version", "turn_expires_at")[:SWEEP_BATCH]
    )
    # The column is nullable, but no null is ever at or before the horizon.
    due = cast("list[tuple[int, int, datetime]]", list(rows))
    if due:
        claimed = [hand_id for hand_id, _, _ in due]
        Hand.objects.filter(pk__in=claimed).update(timeout_sent_for=F("turn_expires_at"))
    return [(hand_id, turn, timeout_due(expires_at)) for hand_id, turn, expires_at in due]
