"""The house's bot process: it plays the bots home games' hosts add.

``manage.py run_bots --home`` runs a :class:`BotHouse` until stopped. Every
``tick`` seconds it reads the bots to play (one query,
:func:`~tables.selectors.home_bots.home_bots_to_play`), starts a
:class:`~tables.bots.Bot` client for each new one, logged in by a fresh
session, and cancels the client of each one gone (the host removed it, the
game closed and its last hand is over). A client that stopped by itself (it
was refused a seat too often) is started again after ``restart`` seconds,
while its bot is still wanted. Each round also tops up the bots' balances for
their next rebuy (:func:`~tables.services.home_bots.home_bots_stake`). With no
home bots anywhere, a round is two small queries.

The clients play over the websocket like a browser (``docs/protocol.md``),
through the same server any player reaches, so a bot at a home game passes
the same membership check as a friend, and plays whatever the table deals.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError

from accounts.models import User
from tables import services
from tables.bot_accounts import session_cookie
from tables.bots import Bot, ThinkTime
from tables.selectors.home_bots import BotToPlay, home_bots_to_play

logger = logging.getLogger(__name__)

TICK_SECONDS = 1.5
RESTART_SECONDS = 10.0
THINK_SECONDS = 1.0  # a human pace, so friends can follow the bot's play


@dataclass
class Playing:
    """A bot the house plays, and its client's task."""

    row: BotToPlay
    bot: Bot
    task: asyncio.Task[None]


@dataclass
class BotHouse:
    """Plays every home game's bots at the server ``url`` (``ws://host:port``)."""

    url: str
    think: float = THINK_SECONDS
    tick: float = TICK_SECONDS
    restart: float = RESTART_SECONDS
    rng: random.Random = field(default_factory=random.Random)
    say: Callable[[str], None] = logger.info
    playing: dict[int, Playing] = field(default_factory=dict)  # by HomeBot row id
    stopped: dict[int, float] = field(default_factory=dict)  # when a client stopped by itself

    async def run(self, seconds: float | None = None) -> None:
        """Play until cancelled (or ``seconds`` pass); every client is stopped on the way out."""
        deadline = None if seconds is None else time.monotonic() + seconds
        try:
            while deadline is None or time.monotonic() < deadline:
                try:
                    await self.round()
                except (DatabaseError, ObjectDoesNotExist) as error:
                    # A deadlock, a lost connection, a row deleted meanwhile: the
                    # clients already playing play on, and the next round reads again.
                    logger.warning("The bots' round failed (%r); trying again.", error)
                await asyncio.sleep(self.tick)
        finally:
            await self.stop_all()

    async def round(self) -> None:
        """One look at the rows: start the new bots, stop those gone."""
        await database_sync_to_async(services.home_bots_stake)()
        wanted = {row.id: row for row in await database_sync_to_async(home_bots_to_play)()}
        for row_id in [row_id for row_id in self.playing if row_id not in wanted]:
            await self.stop(row_id)
        self.stopped = {row_id: at for row_id, at in self.stopped.items() if row_id in wanted}
        for row in wanted.values():
            if self.due(row.id, time.monotonic()):
                await self.start(row)

    def due(self, row_id: int, now: float) -> bool:
        """Whether bot ``row_id`` needs a client started now."""
        playing = self.playing.get(row_id)
        if playing is not None and not playing.task.done():
            return False
        if playing is not None:  # it stopped by itself: start it again in a while
            del self.playing[row_id]
            self.stopped[row_id] = now
            failure = None if playing.task.cancelled() else playing.task.exception()
            why = f" ({failure!r})" if failure is not None else ""
            self.say(f"{playing.row.username} stopped at table #{playing.row.table_id}{why}")
        stopped_at = self.stopped.get(row_id)
        return stopped_at is None or now - stopped_at >= self.restart

    async def start(self, row: BotToPlay) -> None:
        cookie = await database_sync_to_async(_cookie_of)(row.player_id)
        bot = Bot(
            name=row.username,
            cookie=cookie,
            url=self.url,
            table_id=row.table_id,
            buy_in=row.buy_in,
            seats=row.seats,
            rng=random.Random(self.rng.random()),
            hooks=ThinkTime(self.think),
        )
        task = asyncio.create_task(bot.run(), name=f"{row.username}@{row.table_id}")
        self.playing[row.id] = Playing(row, bot, task)
        self.stopped.pop(row.id, None)
        self.say(f"{row.username} plays at table #{row.table_id}")

    async def stop(self, row_id: int) -> None:
        playing = self.playing.pop(row_id)
        playing.task.cancel()  # leaving ``async with connect`` closes its socket
        await asyncio.gather(playing.task, return_exceptions=True)
        self.say(f"{playing.row.username} left table #{playing.row.table_id}")

    async def stop_all(self) -> None:
        for row_id in list(self.playing):
            await self.stop(row_id)


def _cookie_of(player_id: int) -> str:
    return session_cookie(User.objects.get(pk=player_id))
