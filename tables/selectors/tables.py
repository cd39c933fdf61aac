"""Small reads about a table, and who may see it.

A table of the room is open to everyone. A home game (``Table.host`` set) is
seen only by its host, its members (players who opened its invite link) and
staff; to everyone else it does not exist, and every page, socket and list
answers as for a table that doesn't (``tables_visible_to``).
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from tables.models import Table, TableMember
from tables.selectors.lobby import dealings

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# How long a closed home game stays in its players' list, for its settle-up.
CLOSED_LISTED = datetime.timedelta(days=7)


def tables_visible_to(player_id: int | None, *, staff: bool = False) -> QuerySet[Table]:
    """The tables ``player_id`` (None: a visitor) may see: the room's, and the
    home games they host or are a member of; staff see every table."""
    tables = Table.objects.all()
    if staff:
        return tables
    room = Q(host__isnull=True)
    if player_id is None:
        return tables.filter(room)
    member = TableMember.objects.filter(table=OuterRef("pk"), player_id=player_id)
    return tables.filter(room | Q(host_id=player_id) | Q(Exists(member)))


def table_visible(table_id: int, player_id: int | None, *, staff: bool = False) -> bool:
    """Whether the table exists for ``player_id``: the same answer for a table
    that doesn't and one they may not see."""
    return tables_visible_to(player_id, staff=staff).filter(pk=table_id).exists()


class _Seated(TypedDict):
    seated: int


def home_game_rows(player_id: int | None) -> list[dict[str, Any]]:
    """The home games ``player_id`` hosts or has joined, as plain data for the
    lobby's page, JSON and socket: the open ones, the hosted first, then those
    closed in the last ``CLOSED_LISTED``, the latest first, whose pages keep
    their final settle-up."""
    if player_id is None:
        return []
    member = TableMember.objects.filter(table=OuterRef("pk"), player_id=player_id)
    since = timezone.now() - CLOSED_LISTED
    games: QuerySet[WithAnnotations[Table, _Seated]] = (
        Table.objects.filter(host__isnull=False)
        .filter(Q(is_open=True) | Q(closed_at__gte=since))
        .filter(Q(host_id=player_id) | Q(Exists(member)))
        .select_related("stakes", "host")
        .annotate(seated=Count("seat_set"))
        .order_by("name")
    )
    latest = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    # An open game says what it deals now, and at a mixed one what is coming.
    dealing = dealings([table for table in games if table.is_open])
    listed = sorted(
        games,
        key=lambda table: (
            not table.is_open,
            table.host_id != player_id,
            latest - (table.closed_at or latest),
        ),
    )
    return [
        {
            "id": table.pk,
            "name": table.name,
            "url": reverse("table", args=[table.pk]),
            "stakes": dealing[table.pk].words if table.is_open else table.stakes.describe(),
            "coming": dealing[table.pk].coming if table.is_open else "",
            "host": table.host.username if table.host else "",
            "you_host": table.host_id == player_id,
            "seated": table.seated,
            "is_open": table.is_open,
            "closed_at": table.closed_at.isoformat() if table.closed_at else None,
            # Where its host deals a closed game again (``tables.home.views.home_again``).
            "again_url": (
                reverse("home_again", args=[table.pk])
                if not table.is_open and table.host_id == player_id
                else None
            ),
        }
        for table in listed
    ]
