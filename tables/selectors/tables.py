"""Small reads about a table."""

from __future__ import annotations

from tables.models import Table


def table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()
