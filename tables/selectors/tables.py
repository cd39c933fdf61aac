"""Small reads about a table, and who may see it.

A table of the room is open to everyone. A home game (``Table.host`` set) is
seen only by its host, its members (players who opened its invite link) and
staff; to everyone else it does not exist, and every page, socket and list
answers as for a table that doesn't (``tables_visible_to``).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from tables.models import Table, TableMember


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


def home_games_of(player_id: int | None) -> list[Table]:
    """The open home games ``player_id`` hosts or has joined, the hosted first."""
    if player_id is None:
        return []
    member = TableMember.objects.filter(table=OuterRef("pk"), player_id=player_id)
    games = (
        Table.objects.filter(is_open=True, host__isnull=False)
        .filter(Q(host_id=player_id) | Q(Exists(member)))
        .select_related("stakes", "host")
        .order_by("name")
    )
    return sorted(games, key=lambda table: table.host_id != player_id)
