"""Small reads about a table: whether it is there, and which of its seats a hand is dealt to."""

from __future__ import annotations

from tables.models import Seat, Table

# Seats dealt into the next hand (if they have chips). A disconnected player is
# dealt in, as in online rooms: the turn clock, not the socket, decides. The
# services deal by it and the snapshots show why a table waits by it.
DEALT_IN_STATES = (Seat.State.PLAYING, Seat.State.DISCONNECTED)


def table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()
