"""Sending the Celery tasks that the services ask for.

The services decide what follows a change (a turn's timeout, the next hand
after a pause) and when; this module is how it reaches a worker. The tasks
call the services, so the services don't import the tasks (an import contract
in pyproject.toml): they send through here, and only here are the tasks
imported, inside the functions that send them.

A failure to send is logged, not raised: the change is saved, and beat's
sweeps (``tables.tasks.sweep_overdue_turns`` and ``deal_due_hands``) do
the work of a task that was lost.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger(__name__)


def timeout_send(hand_id: int, turn: int, due: datetime) -> None:
    """Send ``expire_turn`` for the moment turn ``turn`` of the hand times out
    (``due``: a little after it expires, ``tables.services.clock.timeout_due``)."""
    from tables.tasks import expire_turn

    _send_at(expire_turn, (hand_id, turn), due, f"hand {hand_id}")


def next_hand_send(table_id: int) -> None:
    """Send ``start_next_hand`` for ``CARDROOM_NEXT_HAND_DELAY_SECONDS`` from now."""
    from tables.tasks import start_next_hand

    delay = settings.CARDROOM_NEXT_HAND_DELAY_SECONDS
    expires = delay + settings.CARDROOM_TURN_TASK_EXPIRY_SECONDS
    queue = settings.CARDROOM_TURN_QUEUE
    try:
        start_next_hand.apply_async((table_id,), countdown=delay, expires=expires, queue=queue)
    except Exception:
        logger.exception("could not send start_next_hand for table %s", table_id)


def call_timeout_send(table_id: int, call: int, due: datetime) -> None:
    """Send ``expire_call`` for the moment the dealer's call number ``call`` times
    out (``due``, as for a turn)."""
    from tables.tasks import expire_call

    _send_at(expire_call, (table_id, call), due, f"table {table_id}")


def _send_at(task: Task[..., Any], args: tuple[int, int], at: datetime, what: str) -> None:
    """Send a timeout ``task`` for the moment ``at``, on the turn queue; one
    still queued ``CARDROOM_TURN_TASK_EXPIRY_SECONDS`` later is dropped (the
    sweeps do its work)."""
    expires = at + timedelta(seconds=settings.CARDROOM_TURN_TASK_EXPIRY_SECONDS)
    try:
        task.apply_async(args, eta=at, expires=expires, queue=settings.CARDROOM_TURN_QUEUE)
    except Exception:
        logger.exception("could not send %s for %s", task.name, what)
