"""Celery tasks for the tables app.

Each task takes ids, calls one service and returns JSON, but for beat's
:func:`sweep_safety_nets`, which runs several of the others. The timeout tasks are
idempotent: the services they call do nothing for a turn that has moved on.
So are :func:`start_next_hand` and :func:`deal_due_hands`: both deal through
``services.hand_start_and_tell``, which deals only at an open, idle table past
its pause, so a repeated or late task finds the hand already dealt, and tells
the table nothing.
"""

from __future__ import annotations

import logging

from celery import shared_task

from tables import broadcast, scheduling, services
from tables.models import Hand

logger = logging.getLogger(__name__)


@shared_task
def ping() -> str:
    """Answer ``"pong"``: proof that a worker is taking tasks from the broker."""
    return "pong"


@shared_task(ignore_result=True)
def expire_turn(hand_id: int, turn: int) -> bool:
    """Time out turn ``turn`` of hand ``hand_id`` if it is still being played; whether it was."""
    hand = services.hand_timeout(hand_id=hand_id, turn=turn)
    if hand is not None:
        _announce(hand)
    return hand is not None


@shared_task(ignore_result=True)
def send_due_timeouts() -> int:
    """Send the timeout task of every open turn near its expiry that has none; how many."""
    due = services.turn_timeouts_claim_due()
    for hand_id, turn, at in due:
        scheduling.timeout_send(hand_id, turn, at)
    return len(due)


@shared_task(ignore_result=True)
def sweep_overdue_turns() -> int:
    """Time out every turn whose own task is overdue (lost or late); how many."""
    return services.hands_expire_overdue(on_expired=_announce)


@shared_task(ignore_result=True)
def deal_due_hands() -> int:
    """Deal at every ready table idle past its pause (its own task lost, say), or
    begin its dealer's call; how many hands were dealt."""
    return services.hands_start_due(on_started=_announce, on_calling=broadcast.table_changed)


@shared_task(ignore_result=True)
def expire_overdue_calls() -> int:
    """Deal the default game wherever a dealer's call is past its time (its own
    task lost or late); how many calls ran out."""
    changes = services.calls_expire_overdue()
    for change in changes:
        _announce_deal(change)
    return len(changes)


@shared_task(ignore_result=True)
def pass_expired_seat_offers() -> int:
    """Pass each waiting-list seat offer that ran out to the next in line; how many."""
    return services.waiting_offers_expire(on_changed=broadcast.table_changed)


# The safety nets beat runs every CARDROOM_TURN_SWEEP_SECONDS, in this order.
SAFETY_NETS = (sweep_overdue_turns, deal_due_hands, expire_overdue_calls, pass_expired_seat_offers)


@shared_task(ignore_result=True)
def sweep_safety_nets() -> dict[str, int | None]:
    """Run each of :data:`SAFETY_NETS`: what each did, by its task's name (None: it failed).

    One task for all of them, so beat sends one message where it would send
    four, and the worker takes one. Each net is on its own as a task of its
    own would be: one that fails is logged, and the rest still run.
    """
    done: dict[str, int | None] = {}
    for net in SAFETY_NETS:
        try:
            done[net.name] = net()
        except Exception:
            logger.exception("the safety net %s failed; the next sweep tries again", net.name)
            done[net.name] = None
    return done


@shared_task(ignore_result=True)
def expire_stale_connections() -> int:
    """Forget websockets whose Daphne process stopped vouching for them; seats changed."""
    return services.connections_expire_stale(on_changed=broadcast.table_changed)


@shared_task(ignore_result=True)
def stand_up_idle_seats() -> int:
    """Stand up players long away from tables that deal no hand, and every seat
    at a closed table with no hand running; how many."""
    return services.seats_stand_up_idle(on_changed=broadcast.table_changed)


@shared_task(ignore_result=True)
def close_idle_home_games() -> int:
    """Close every home game where no hand has been dealt for the operator's
    idle limit (``HomeRules.idle_minutes``); how many."""
    return services.home_games_close_idle(on_closed=broadcast.table_changed)


@shared_task(ignore_result=True)
def start_next_hand(table_id: int) -> bool:
    """Deal the table's next hand if it is ready for one, or begin the dealer's
    call of its game, and tell its viewers; whether a hand was dealt. A task
    that finds the hand dealt already (beat's sweep was first) tells nobody."""
    hand = services.hand_start_and_tell(
        table_id=table_id, on_started=_announce, on_calling=broadcast.table_changed
    )
    return hand is not None


@shared_task(ignore_result=True)
def expire_call(table_id: int, call: int) -> bool:
    """Deal the default game if the dealer's call number ``call`` is still under
    way and out of time; whether it was."""
    hand = services.game_call_timeout(table_id=table_id, call=call)
    if hand is not None:
        _announce(hand)
    return hand is not None


def _announce_deal(change: Hand | int) -> None:
    """Announce a hand dealt, or a change at a table (by id) that dealt none: its
    dealer may have begun a call of its game, or had one timed out."""
    if isinstance(change, Hand):
        _announce(change)
    else:
        broadcast.table_changed(change)


def _announce(hand: Hand) -> None:
    """What follows the hand's change (``services.hand_follow_up``), then tell
    the table's viewers, once that is committed.

    A hand that has just ended (by a timeout, or on the antes as it was dealt)
    gets its successor scheduled there.
    """
    services.hand_follow_up(hand=hand)
    broadcast.table_changed(hand.table_id)
