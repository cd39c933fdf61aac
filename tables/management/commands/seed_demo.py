"""``manage.py seed_demo``: demo stakes, open tables and an admin, for trying Cardroom.

Besides a table for each game, two deal a game that changes hand by hand: a
stud mix (a rotation of the stud games of HORSE) and a dealer's-choice home
game. The stud mix is the table for the demo bots that `make run` starts
(``BOT_TABLE``), so a newcomer finds its game and counter moving in the lobby.

Safe to run again and again (`make run` does, every time): it creates only what
is missing, matching rows by name, and leaves existing rows as they are. The
admin's generated password is printed once, when the admin is created, last and
in a box with the address to sign in at (``--site``, the address `make run`
serves), so it stands out from the output around it.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any, TypeVar

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.urls import reverse

from accounts.models import User
from tables.models import RakeRule, Stakes, Table, TableGame

ADMIN_USERNAME = "admin"

M = TypeVar("M", RakeRule, Stakes, Table)  # the demo rows looked up by name

DEMO_RAKE = {"name": "Demo rake", "percent": Decimal("5"), "cap": 3}

# One fixed-limit game per variant (of the home games, one of each kind), at
# the same sizes, so the lobby has each,
# and one game in each of the other structures: London lowball at pot limit
# (its usual structure, seed 003), stud at no limit and razz spread 5-20.
_SIZES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
_BUY_IN = {"min_buy_in": 100, "max_buy_in": 1000}
DEMO_STAKES = [
    {"name": "Stud 5/10", "variant": "stud", **_SIZES, **_BUY_IN},
    {"name": "Razz 5/10", "variant": "razz", **_SIZES, **_BUY_IN},
    {"name": "Stud Hi-Lo 5/10", "variant": "stud8", **_SIZES, **_BUY_IN},
    {"name": "Mississippi 5/10", "variant": "mississippi", **_SIZES, **_BUY_IN},
    {"name": "Deuces Wild 5/10", "variant": "deuces", **_SIZES, **_BUY_IN},
    {"name": "Queens and After 5/10", "variant": "queens", **_SIZES, **_BUY_IN},
    {"name": "High Chicago 5/10", "variant": "high_chicago", **_SIZES, **_BUY_IN},
    {"name": "Man with the Axe 5/10", "variant": "man_with_the_axe", **_SIZES, **_BUY_IN},
    # Baseball is dealt to seven at most (its extra cards could empty the deck).
    {"name": "Baseball 5/10", "variant": "baseball", **_SIZES, **_BUY_IN, "seats": 7},
    # Roll your own and English stud are dealt to six at most (seeds 000, 003).
    {"name": "Roll Your Own 5/10", "variant": "roll_your_own", **_SIZES, **_BUY_IN, "seats": 6},
    {"name": "English Stud 5/10", "variant": "english", **_SIZES, **_BUY_IN, "seats": 6},
    {
        "name": "Aces Straights Flushes 5/10",
        "variant": "aces_straights_flushes",
        **_SIZES,
        **_BUY_IN,
    },  # fmt: skip
    {"name": "Hi-Lo Declare 5/10", "variant": "declare", **_SIZES, **_BUY_IN},
    {"name": "London Lowball PL 5", "variant": "london", "structure": "pot", **_SIZES, **_BUY_IN},
    {"name": "Stud NL 5", "variant": "stud", "structure": "no", **_SIZES, **_BUY_IN},
    {
        "name": "Razz spread 5-20",
        "variant": "razz",
        "structure": "spread",
        **_SIZES,
        "big_bet": 20,
        **_BUY_IN,
    },
]

# The stakes of the dealer's-choice home game (seed 003's "$5-20 spread limit
# dealer's choice"): its list's games are dealt at these sizes. Seven seats,
# so Baseball always fits; roll your own and English stud wait for six.
HOME_STAKES = {
    "name": "Dealer's choice spread 5-20",
    "variant": "stud",
    "structure": "spread",
    **_SIZES,
    "big_bet": 20,
    **_BUY_IN,
    "seats": 7,
}
# The terms of the bots' table: six seats leave room for three people.
BOT_STAKES = {"name": "Stud 5/10, six seats", "variant": "stud", **_SIZES, **_BUY_IN, "seats": 6}

# Tables whose game changes hand by hand, with the stakes of their terms. Each
# game of a list is a stakes' whole game ({"stakes": name}) or a variant dealt
# at the table's sizes ({"variant": code}).
STUD_MIX = "Stud mix"
DEALERS_CHOICE = "Dealer's choice"
MIXED_TABLES: dict[str, dict[str, Any]] = {
    # The stud games of HORSE, each with its own fixed-limit stakes, four hands
    # each: few enough for the lobby's counter to move while one watches.
    STUD_MIX: {
        "terms": BOT_STAKES["name"],
        "policy": Table.Policy.ROTATION,
        "rotate_hands": 4,
        "games": [{"stakes": "Stud 5/10"}, {"stakes": "Razz 5/10"}, {"stakes": "Stud Hi-Lo 5/10"}],
    },
    # A home game: stud, the wild-card games and the games of decisions.
    DEALERS_CHOICE: {
        "terms": HOME_STAKES["name"],
        "policy": Table.Policy.DEALERS_CHOICE,
        "games": [
            {"variant": variant}
            for variant in (
                "stud",
                "baseball",
                "queens",
                "low_hole",
                "high_chicago",
                "roll_your_own",
                "english",
                "declare",
            )
        ],
    },
}

# Where `make run` seats its bots (``run_bots --demo``), so there is a game to
# watch and join at once.
BOT_TABLE = STUD_MIX

# Every stakes the demo makes.
ALL_STAKES = [*DEMO_STAKES, BOT_STAKES, HOME_STAKES]

# Table name -> stakes name.
DEMO_TABLES = {
    "Demo Stud 1": "Stud 5/10",
    "Demo Stud 2": "Stud 5/10",
    "Demo Razz 1": "Razz 5/10",
    "Demo Hi-Lo 1": "Stud Hi-Lo 5/10",
    "Demo Mississippi 1": "Mississippi 5/10",
    "Demo Deuces Wild 1": "Deuces Wild 5/10",
    "Demo Queens and After 1": "Queens and After 5/10",
    "Demo High Chicago 1": "High Chicago 5/10",
    "Demo Man with the Axe 1": "Man with the Axe 5/10",
    "Demo Baseball 1": "Baseball 5/10",
    "Demo Roll Your Own 1": "Roll Your Own 5/10",
    "Demo English Stud 1": "English Stud 5/10",
    "Demo Aces Straights Flushes 1": "Aces Straights Flushes 5/10",
    "Demo Hi-Lo Declare 1": "Hi-Lo Declare 5/10",
    "Demo London Lowball 1": "London Lowball PL 5",
    "Demo No-Limit Stud 1": "Stud NL 5",
    "Demo Spread Razz 1": "Razz spread 5-20",
}


class Command(BaseCommand):
    help = "Create demo stakes (every game, each structure), open tables and an admin user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--site",
            default="http://127.0.0.1:8000",
            help="the site's address, for the admin's sign-in link (http://127.0.0.1:8000)",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        rake, rake_created = _get_or_create(RakeRule, DEMO_RAKE)
        stakes: dict[str, Stakes] = {}
        created_stakes = 0
        for fields in ALL_STAKES:
            stakes[str(fields["name"])], created = _get_or_create(Stakes, {**fields, "rake": rake})
            created_stakes += created
        created_tables = sum(
            _get_or_create(Table, {"name": name, "stakes": stakes[stakes_name]})[1]
            for name, stakes_name in DEMO_TABLES.items()
        )
        created_tables += sum(
            _mixed_table(name, stakes, **mix) for name, mix in MIXED_TABLES.items()
        )
        self.stdout.write(demo_summary(int(rake_created), created_stakes, created_tables))
        self._seed_admin(options["site"].rstrip("/") + reverse("admin:index"))

    def _seed_admin(self, sign_in_url: str) -> None:
        if User.objects.filter(username=ADMIN_USERNAME).exists():
            self.stdout.write(
                f"The admin user {ADMIN_USERNAME!r} already exists; its password was "
                f"printed when it was created. Sign in at {sign_in_url}"
            )
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(username=ADMIN_USERNAME, email="", password=password)
        self.stdout.write(
            boxed(
                "Created the admin user. Note its password now: it is shown only this once.",
                "",
                f"  Sign in at  {sign_in_url}",
                f"  Username    {ADMIN_USERNAME}",
                f"  Password    {password}",
            )
        )


def _mixed_table(
    name: str, stakes: dict[str, Stakes], *, terms: str, games: list[dict[str, str]], **options: Any
) -> bool:
    """The mixed table ``name`` with its list of games, if it is missing; whether
    it was created. A table there already keeps its list, as an operator left it."""
    table, created = _get_or_create(Table, {"name": name, "stakes": stakes[terms], **options})
    if not created:
        return False
    for position, game in enumerate(games):
        entry = TableGame(table=table, position=position, variant=game.get("variant", ""))
        if "stakes" in game:
            entry.stakes = stakes[game["stakes"]]
        entry.full_clean()  # a variant is checked with the table's stakes
        entry.save()
    return True


def demo_summary(rake_rules: int, stakes: int, tables: int) -> str:
    """What this run created, and what was there already, counted exactly."""
    wanted = {
        "rake_rules": 1,
        "stakes": len(ALL_STAKES),
        "tables": len(DEMO_TABLES) + len(MIXED_TABLES),
    }
    created = {"rake_rules": rake_rules, "stakes": stakes, "tables": tables}
    existing = {kind: wanted[kind] - count for kind, count in created.items()}
    if not any(existing.values()):
        return f"Demo data: created {_counts(created)}."
    if not any(created.values()):
        return f"Demo data: nothing to create; {_counts(existing)} were already there."
    return f"Demo data: created {_counts(created)}; {_counts(existing)} were already there."


def _counts(counts: dict[str, int]) -> str:
    """``1 rake rule, 4 stakes and 5 tables``, leaving out kinds counted 0."""
    names = {"rake_rules": ("rake rule", "rake rules"), "stakes": ("stakes", "stakes")}
    names["tables"] = ("table", "tables")
    parts = [f"{n} {names[kind][n != 1]}" for kind, n in counts.items() if n]
    return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]


def boxed(*lines: str) -> str:
    """``lines`` framed in a box of ``#``, with blank lines around it."""
    width = max(len(line) for line in lines)
    rule = "#" * (width + 4)
    body = "\n".join(f"# {line.ljust(width)} #" for line in lines)
    return f"\n{rule}\n{body}\n{rule}\n"


def _get_or_create(model: type[M], fields: dict[str, Any]) -> tuple[M, bool]:
    """The row named ``fields["name"]``, created and validated if it is missing."""
    existing = model.objects.filter(name=fields["name"]).first()
    if existing is not None:
        return existing, False
    row = model(**fields)
    row.full_clean()
    row.save()
    return row, True
