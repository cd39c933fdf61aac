"""Celery tasks for the tables app.

Each task takes ids, calls one service and returns JSON. The timeout tasks are
idempotent: the services they call do nothing for a turn that has moved on.
"""

from __future__ import annotations

import importlib

from celery import shared_task

from tables import services
from tables.models import Hand


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
def sweep_overdue_turns() -> int:
    """Time out every turn whose own task is overdue (lost or late); how many."""
    return services.hands_expire_overdue(on_expired=_announce)


def _announce(hand: Hand) -> None:
    """Tell the table's viewers that the hand changed, once that is committed."""
    try:
        broadcast = importlib.import_module("tables.broadcast")
    except ModuleNotFoundError as missing:
        if missing.name != "tables.broadcast":
            raise
        return  # no broadcasting yet: viewers see the change on their next load
    broadcast.table_changed(hand.table_id)
