"""``manage.py run_bots --table ID --count N``: bot players over real websockets.

``--demo`` instead of ``--table`` picks the table seed_demo makes for bots.

Each bot is a player account (``bot-1``, ``bot-2``…, made on first use with a
random password, ``tables.bot_accounts``), logged in by a fresh session, that
plays at the table through the same websocket protocol as a browser
(``tables.bots``). Ctrl-C disconnects them all. Chips won and lost are real
play chips in the ledger.

``--home`` instead runs the house's bot process (``tables.home.bot_house``):
it plays the bots home games' hosts add, starting and stopping them as hosts
add and remove them, until stopped. ``make run`` and docker-compose run it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from collections.abc import Coroutine
from typing import Any

from django.core.management.base import BaseCommand, CommandError

# session_cookie is read from here by bench/load.py too.
from tables.bot_accounts import bot_user, session_cookie
from tables.bots import Bot, ThinkTime, run_bots
from tables.home.bot_house import THINK_SECONDS, BotHouse
from tables.management.commands.seed_demo import BOT_TABLE
from tables.models import Table

__all__ = ["Command", "session_cookie"]


class Command(BaseCommand):
    help = "Seat N bot players at a table and let them play over the websocket."

    def add_arguments(self, parser: Any) -> None:
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--table", type=int, help="the table's id")
        where.add_argument(
            "--demo", action="store_true", help=f"the demo table seed_demo makes ({BOT_TABLE!r})"
        )
        where.add_argument(
            "--home",
            action="store_true",
            help="play the bots home games' hosts add, at every home game, until stopped",
        )
        parser.add_argument("--count", type=int, default=2, help="how many bots (1 to 8)")
        parser.add_argument("--url", default="ws://127.0.0.1:8000", help="the server")
        parser.add_argument("--buy-in", type=int, help="chips per buy-in (default: the maximum)")
        parser.add_argument("--seconds", type=float, help="stop after this long")
        parser.add_argument("--seed", type=int, help="seed the bots' choices")
        parser.add_argument(
            "--think",
            type=float,
            help=f"seconds each bot waits before a move (0; with --home {THINK_SECONDS:g})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["think"] is not None and options["think"] < 0:
            raise CommandError("--think must be 0 or more seconds")
        if options["home"]:
            self.run_house(options)
            return
        tables = Table.objects.select_related("stakes")
        if options["demo"]:
            table = tables.filter(name=BOT_TABLE).first()
            if table is None:
                raise CommandError(f"there is no table {BOT_TABLE!r}: run manage.py seed_demo")
        else:
            table = tables.filter(pk=options["table"]).first()
            if table is None:
                raise CommandError(f"there is no table #{options['table']}")
        if not 1 <= options["count"] <= table.stakes.seats:
            raise CommandError(f"--count must be 1 to {table.stakes.seats}")
        buy_in = options["buy_in"] or table.stakes.max_buy_in
        rng = random.Random(options["seed"])
        bots = [
            Bot(
                name=user.username,
                cookie=session_cookie(user),
                url=options["url"],
                table_id=table.pk,
                buy_in=buy_in,
                seats=table.stakes.seats,
                rng=random.Random(rng.random()),
                hooks=ThinkTime(options["think"] or 0.0),
            )
            for user in (bot_user(number) for number in range(1, options["count"] + 1))
        ]
        self.stdout.write(f"{len(bots)} bots playing at {table.name}; Ctrl-C stops them.")
        asyncio.run(_main(run_bots(bots, seconds=options["seconds"])))
        self.stdout.write("Bots disconnected.")

    def run_house(self, options: dict[str, Any]) -> None:
        think = THINK_SECONDS if options["think"] is None else options["think"]
        house = BotHouse(
            url=options["url"],
            think=think,
            rng=random.Random(options["seed"]),
            say=lambda line: self.stdout.write(line),
        )
        self.stdout.write("Playing the home games' bots; Ctrl-C stops them.")
        asyncio.run(_main(house.run(seconds=options["seconds"])))
        self.stdout.write("Bots disconnected.")


async def _main(bots: Coroutine[Any, Any, None]) -> None:
    """Run the bots; SIGINT or SIGTERM cancels them, which closes every socket."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await bots
