"""Opening and closing a table."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tables.models import Table, WaitingPlayer
from tables.services.common import _lock_table, _unfinished_hand
from tables.services.games import _call_off
from tables.services.seats import _seats_stand_up_all


@transaction.atomic
def table_open(*, table_id: int) -> Table:
    """Let players sit down and new hands start; a reopened table forgets when
    it closed (``closed_at``) and keeps when it reopened (``reopened_at``)."""
    return _table_set_open(table_id, is_open=True)


@transaction.atomic
def table_close(*, table_id: int) -> Table:
    """Start no new hands and seat nobody new; a hand in progress plays to the end.

    Every seat is stood up, its chips back in its player's balance: at once
    when no hand is running, else as soon as that hand ends
    (``hands._hand_end_write``). The waiting list is emptied, and a dealer's
    call under way is called off. The moment it closes is kept in
    ``closed_at`` (a closed table's is kept as it was).
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
        now = timezone.now()
        table.closed_at = None if is_open else now
        fields = ["is_open", "closed_at"]
        if is_open:
            table.reopened_at = now
            fields.append("reopened_at")
        table.save(update_fields=fields)
    return table
