"""Closing the home games nobody deals at any more.

A home game with nobody left to play, or whose host paused it and went home,
would stay open for good, and count against its host's open games. The
operator's ``HomeRules.idle_minutes`` says how long a home game may go with no
hand dealt: counted from the latest hand's start, or from the table's
creation before its first hand, and at the earliest from when staff last
reopened it. A paused game is idle like any other (its
host chose not to deal), while a hand in play, however long it takes, keeps
its table open: the turn clock will end it. 0 turns the limit off.

Beat's sweep closes each such game with :func:`~tables.services.tables.table_close`,
as its host would: every seat cashed out to its player's balance, and the
books left for the settle-up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from tables.models import Hand, HomeRules, Table
from tables.services.common import SWEEP_BATCH, _last_hand, _lock_table, _tables_sweep
from tables.services.tables import table_close

logger = logging.getLogger(__name__)


def home_games_close_idle(
    *, now: datetime | None = None, on_closed: Callable[[int], object] | None = None
) -> int:
    """Close every open home game with no hand dealt for the operator's
    ``idle_minutes`` (at ``now``, default the clock's) and none in play; how many.

    Run by beat's sweep. Each game is checked again and closed under its
    table's lock, in a transaction of its own, and ``on_closed`` is called
    with its id after that.
    """
    minutes = HomeRules.current().idle_minutes
    if not minutes:
        return 0
    cutoff = (now or timezone.now()) - timedelta(minutes=minutes)
    tables = list(_idle_home_games(cutoff)[:SWEEP_BATCH])
    return _tables_sweep(
        tables, lambda table_id: _home_game_close_idle(table_id, cutoff), on_closed
    )


def _idle_home_games(cutoff: datetime) -> QuerySet[Table, int]:
    """The open home games idle since ``cutoff`` or earlier, by id.

    Each table's latest hand, the one that may be running, is found through
    its unique (table, number) index.
    """
    latest = Hand.objects.filter(table=OuterRef("pk")).order_by("-number")
    games = Table.objects.filter(host__isnull=False, is_open=True).annotate(
        idle_since=Greatest(
            Coalesce(Subquery(latest.values("started_at")[:1]), "created_at"),
            Coalesce("reopened_at", "created_at"),
        ),
        dealt=Subquery(latest.values("pk")[:1]),
        last_ended=Subquery(latest.values("ended_at")[:1]),
    )
    no_hand_running = Q(dealt__isnull=True) | Q(last_ended__isnull=False)
    idle = games.filter(no_hand_running, idle_since__lte=cutoff)
    return idle.order_by("pk").values_list("pk", flat=True)


@transaction.atomic
def _home_game_close_idle(table_id: int, cutoff: datetime) -> int:
    """Close the home game if, under its lock, it is still open and idle since
    ``cutoff``: 1 if it was closed, else 0."""
    table = _lock_table(table_id)
    if not table.is_open or table.host_id is None:
        return 0  # closed meanwhile, by its host or staff
    last = _last_hand(table, "started_at", "ended_at")
    if last is not None and last.ended_at is None:
        return 0  # a hand was dealt meanwhile, and is in play
    idle_since = max(
        last.started_at if last is not None else table.created_at,
        table.reopened_at or table.created_at,
    )
    if idle_since > cutoff:
        return 0
    table_close(table_id=table.pk)
    logger.info(
        "closed the home game %s (#%s): no hand dealt since %s", table.name, table.pk, idle_since
    )
    return 1
