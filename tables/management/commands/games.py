"""``manage.py games [--json]``: every game the room deals, from the engine's registry.

One row per variant × betting structure (:func:`tables.rules.games.games`):
its name, the seed documents that describe it, the structures the variant may
be dealt in, how many players it seats, and an example config that
``GameConfig.from_dict`` accepts. The plain table gives only the example's
options that differ from the defaults; ``--json`` prints a JSON list with the
whole config. It needs no database.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.rules.config import GameConfig
from tables.rules.games import Game, games

HEADINGS = ("Game", "Seed", "Structures", "Players", "Example config")
# The plain table always gives the game and its stakes, even where they are the
# defaults, so each example reads whole.
GAME_OPTIONS = ("variant", "structure", "ante", "bring_in", "small_bet", "big_bet")


class Command(BaseCommand):
    help = "List every variant and betting structure the room deals, with an example config."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--json", action="store_true", help="print a JSON list, each with its whole config"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["json"]:
            self.stdout.write(json.dumps([game.to_dict() for game in games()], indent=2))
            return
        rows = [HEADINGS, *(game_row(game) for game in games())]
        widths = [max(len(row[column]) for row in rows) for column in range(len(HEADINGS))]
        for row in rows:
            cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            self.stdout.write("  ".join(cells).rstrip())


def game_row(game: Game) -> tuple[str, str, str, str, str]:
    """One game as the plain table's cells."""
    about = game.to_dict()
    low, high = about["players"]
    return (
        about["name"],
        about["seed"],
        ", ".join(about["structures"]),
        f"{low}-{high}",
        json.dumps(short_config(game.example())),
    )


def short_config(config: GameConfig) -> dict[str, Any]:
    """Enough of ``config`` for ``GameConfig.from_dict`` to rebuild it: the game
    and its stakes, then any other option that differs from its default."""
    options, defaults = config.to_dict(), GameConfig().to_dict()
    short = {name: options[name] for name in GAME_OPTIONS}
    short.update((name, value) for name, value in options.items() if value != defaults[name])
    return short
