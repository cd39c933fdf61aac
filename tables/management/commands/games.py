"""``manage.py games [--json | --markdown]``: every game the room deals, from the
engine's registry.

One row per variant × betting structure (:func:`tables.rules.games.games`):
its name, the seed documents that describe it, the structures the variant may
be dealt in, how many players it seats, and an example config that
``GameConfig.from_dict`` accepts. The plain table gives only the example's
options that differ from the defaults, then how each variant plays
(:attr:`Variant.about`); ``--json`` prints a JSON list with the whole config,
the variant's words and how the example plays (``how_it_plays``).
``--markdown`` prints docs/rules.md's section "How each game plays", which a
test holds the file to. It needs no database.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.rules.config import GameConfig
from tables.rules.games import Game, games, how_it_plays
from tables.rules.variants import VARIANTS

HEADINGS = ("Game", "Seed", "Structures", "Players", "Example config")
# The plain table always gives the game and its stakes, even where they are the
# defaults, so each example reads whole.
GAME_OPTIONS = ("variant", "structure", "ante", "bring_in", "small_bet", "big_bet")


class Command(BaseCommand):
    help = "List every variant and betting structure the room deals, with an example config."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        output = parser.add_mutually_exclusive_group()
        output.add_argument(
            "--json", action="store_true", help="print a JSON list, each with its whole config"
        )
        output.add_argument(
            "--markdown",
            action="store_true",
            help="print docs/rules.md's section on how each game plays",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["json"]:
            self.stdout.write(json.dumps([game.to_dict() for game in games()], indent=2))
            return
        if options["markdown"]:
            self.stdout.write(rules_markdown(), ending="")
            return
        self.write_table()
        self.write_how_each_plays()

    def write_table(self) -> None:
        rows = [HEADINGS, *(game_row(game) for game in games())]
        widths = [max(len(row[column]) for row in rows) for column in range(len(HEADINGS))]
        for row in rows:
            cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            self.stdout.write("  ".join(cells).rstrip())

    def write_how_each_plays(self) -> None:
        """Each variant's words (Variant.about), after a blank line, wrapped."""
        self.stdout.write("\nHow each game plays")
        for variant in VARIANTS.values():
            self.stdout.write(f"\n{variant.name} ({variant.code})")
            self.stdout.write(
                textwrap.fill(variant.about, 78, initial_indent="  ", subsequent_indent="  ")
            )


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


# The lines that open and close docs/rules.md's generated section.
MARKDOWN_START = "<!-- how-each-game-plays: printed by `python manage.py games --markdown` -->"
MARKDOWN_END = "<!-- end of how-each-game-plays -->"


def rules_markdown() -> str:
    """docs/rules.md's section on how each game plays, between its markers:
    each variant's words, then what the table page adds from a table's
    config, for seven-card stud's example in each structure."""
    lines = [MARKDOWN_START, ""]
    lines += [f"- **{v.name}** (`{v.code}`): {v.about}" for v in VARIANTS.values()]
    lines += [
        "",
        "After the game's words the table page says what its table's config changes: the",
        "ante and who opens, the betting structure, and options such as high-low declare,",
        "how declarations are made, the prices of payments and exchanges. For seven-card",
        "stud's example stakes (`python manage.py games`) in each structure:",
        "",
    ]
    for game in games():
        if game.variant.code == "stud":
            example = game.example()
            betting = game.structure.plays(example)
            rest = [words for words in how_it_plays(example)[1:] if words != betting]
            lines.append(f"- {' '.join([betting, *rest])}")
    return "\n".join([*lines, "", MARKDOWN_END, ""])
