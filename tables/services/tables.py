"""Opening and closing a table."""

from __future__ import annotations

from django.db import transaction

from tables.models import Table, WaitingPlayer
from tables.services.common import _lock_table, _unfinished_hand
from tables.services.games import _call_off
from tables.services.seats import _seats_stand_up_all


@transaction.atomic
def table_open(*, table_id: int) -> Table:
    """Let players sit down and new hands start."""
    return _table_set_open(table_id, is_open=True)


@transaction.atomic
def table_close(*, table_id: int) -> Table:
    """Start no new hands and seat nobody new; a hand in progress plays to the end.

    Every seat is stood up, its chips back in its player's balance: at once
    when no hand is running, else as soon as that hand ends
    (``hands._hand_end_write``). The waiting list is emptied, and a dealer's
    call under way is called off.
    """
    table = _table_set_open(table_id, is_open=False)
    WaitingPlayer.objects.filter(table=table).delete()
    if table.call_seat is not None:
        _call_off(table)
    if _unfinished_hand(table) is None:
        _seats_stand_up_all(table)
    return table


def _table_set_open(table_id: int, *, is_open: bool) -> Table:
    table = _lock_table(table_id)
    if table.is_open != is_open:
        table.is_open = is_open
        table.save(update_fields=["is_open"])
    return table
