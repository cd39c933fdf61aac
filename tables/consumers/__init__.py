"""Websocket consumers: the live lobby (``ws/lobby/``) and the live table (``ws/tables/<id>/``).

The table consumer is thin: it checks who is connected, checks each message
against an allow-list of types and fields (:mod:`.messages`), calls one
service through ``database_sync_to_async`` and then tells the table that it
changed. Every consumer at the table answers that notice by rebuilding a
snapshot for its own viewer, so each viewer only ever receives what
:func:`tables.rules.views.view` and :func:`tables.rules.views.events_for` give
*them*. The protocol is in ``docs/protocol.md``.

The table's rows that snapshots are built from are read once per change per
process, not once per viewer (:func:`.shared.read_table_shared`); after a
move they are not read at all: the process that made it keeps them
(:class:`.shared.MadeHere`), and its notice carries them to the others
(:class:`.shared.ChangeRows`). The notice itself reaches each process once,
and the process hands it to the table's viewers there (:mod:`.relay`).

The consumers touch no model: reads go through ``tables.selectors`` and
changes through ``tables.services``.
"""

from __future__ import annotations

from tables.consumers.lobby import LobbyConsumer
from tables.consumers.table import TableConsumer

__all__ = ["LobbyConsumer", "TableConsumer"]
