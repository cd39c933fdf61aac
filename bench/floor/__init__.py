"""The floor: the least this stack can do for a move, to measure the real server against.

``bench/load.py --floor`` runs it instead of ``cardroom.web``, the Celery worker
and beat, with the same tables, bots and measurements (issue 31, part 1). It is
Daphne serving one Channels consumer (:mod:`bench.floor.consumer`), the channel
layer in Redis as ``cardroom.settings`` configures it, the real rules engine
(:mod:`tables.rules`), and PostgreSQL through psycopg (:mod:`bench.floor.store`):

- each process keeps the live :class:`~tables.rules.HandState` of the tables it
  has served (:mod:`bench.floor.room`), checks a move against it in memory, and
  commits the move and the new state in ONE statement (one transaction) that
  names the version the move was made at, so a stale move, or a stale copy in
  memory, changes nothing;
- then each player at the table gets one frame, built for them alone
  (``view(state, seat)``), through the channel layer: by default one message
  per process serving the table, which hands each connection its own
  player's frame (``FLOOR_FANOUT=player``: one message per player, to the
  player's own group);
- a turn's clock is an asyncio timer in the process that started it, and the
  next hand is dealt ``CARDROOM_NEXT_HAND_DELAY_SECONDS`` after one ends.

Left out, because the bots never ask for them: observers, chat, events, the
``timer`` message, the lobby, history, reports, the chip ledger, sitting out
and every home-game message. See bench/README.md ("The floor").
"""
