"""``manage.py run_bots --table ID --count N``: bot players over real websockets.

``--demo`` instead of ``--table`` picks the table seed_demo makes for bots.

Each bot is a player account (``bot-1``, ``bot-2``…, made on first use with a
random password), logged in by a fresh session, that plays at the table through
the same websocket protocol as a browser (``tables.bots``). Ctrl-C disconnects
them all. Chips won and lost are real play chips in the ledger.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import signal
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.services import MODEL_BACKEND, user_signup
from tables.bots import Bot, ThinkTime, run_bots
from tables.management.commands.seed_demo import BOT_TABLE
from tables.models import Table


class Command(BaseCommand):
    help = "Seat N bot players at a table and let them play over the websocket."

    def add_arguments(self, parser: Any) -> None:
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--table", type=int, help="the table's id")
        where.add_argument(
            "--demo", action="store_true", help=f"the demo table seed_demo makes ({BOT_TABLE!r})"
        )
        parser.add_argument("--count", type=int, default=2, help="how many bots (1 to 8)")
        parser.add_argument("--url", default="ws://127.0.0.1:8000", help="the server")
        parser.add_argument("--buy-in", type=int, help="chips per buy-in (default: the maximum)")
        parser.add_argument("--seconds", type=float, help="stop after this long")
        parser.add_argument("--seed", type=int, help="seed the bots' choices")
        parser.add_argument(
            "--think", type=float, default=0.0, help="seconds each bot waits before a move (0)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
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
        if options["think"] < 0:
            raise CommandError("--think must be 0 or more seconds")
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
                hooks=ThinkTime(options["think"]),
            )
            for user in (bot_user(number) for number in range(1, options["count"] + 1))
        ]
        self.stdout.write(f"{len(bots)} bots playing at {table.name}; Ctrl-C stops them.")
        asyncio.run(_main(bots, options["seconds"]))
        self.stdout.write("Bots disconnected.")


def bot_user(number: int) -> User:
    """The account of bot ``number``, created (with the signup grant) on first use."""
    user = User.objects.filter(username=f"bot-{number}").first()
    if user is not None:
        return user
    password = secrets.token_urlsafe(24)  # nobody logs in as a bot with a password
    return user_signup(username=f"bot-{number}", password=password, display_name=f"Bot {number}")


def session_cookie(user: User) -> str:
    """A ``Cookie`` header holding a new logged-in session for ``user``, as login() makes."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    # The backend that loads the user back from the session (django-axes's,
    # listed first, only refuses logins).
    session[BACKEND_SESSION_KEY] = MODEL_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


async def _main(bots: list[Bot], seconds: float | None) -> None:
    """Run the bots; SIGINT or SIGTERM cancels them, which closes every socket."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(signum, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await run_bots(bots, seconds=seconds)
