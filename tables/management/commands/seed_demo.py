"""``manage.py seed_demo``: demo stakes, open tables and an admin, for trying Cardroom.

One of the tables is for the demo bots that `make run` starts (``BOT_TABLE``).

Safe to run again and again (`make run` does, every time): it creates only what
is missing, matching rows by name, and leaves existing rows as they are. The
admin's generated password is printed once, when the admin is created.
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any, TypeVar

from django.core.management.base import BaseCommand
from django.db import models, transaction

from accounts.models import User
from tables.models import RakeRule, Stakes, Table

ADMIN_USERNAME = "admin"

M = TypeVar("M", bound=models.Model)

DEMO_RAKE = {"name": "Demo rake", "percent": Decimal("5"), "cap": 3}

# One fixed-limit game per variant, at the same sizes, so the lobby has each.
_SIZES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
_BUY_IN = {"min_buy_in": 100, "max_buy_in": 1000}
DEMO_STAKES = [
    {"name": "Stud 5/10", "variant": "stud", **_SIZES, **_BUY_IN},
    {"name": "Razz 5/10", "variant": "razz", **_SIZES, **_BUY_IN},
    {"name": "Stud Hi-Lo 5/10", "variant": "stud8", **_SIZES, **_BUY_IN},
]

# Where `make run` seats its bots (``run_bots --demo``), so there is a game to
# watch and join at once; six seats leave room for three people.
BOT_TABLE = "Stud with bots"
BOT_STAKES = {"name": "Stud 5/10, six seats", "variant": "stud", **_SIZES, **_BUY_IN, "seats": 6}

# Table name -> stakes name.
DEMO_TABLES = {
    BOT_TABLE: BOT_STAKES["name"],
    "Demo Stud 1": "Stud 5/10",
    "Demo Stud 2": "Stud 5/10",
    "Demo Razz 1": "Razz 5/10",
    "Demo Hi-Lo 1": "Stud Hi-Lo 5/10",
}


class Command(BaseCommand):
    help = "Create demo stakes (stud, razz, stud hi-lo), open tables and an admin user."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        rake, rake_created = _get_or_create(RakeRule, DEMO_RAKE)
        stakes = {}
        created_stakes = 0
        for fields in [*DEMO_STAKES, BOT_STAKES]:
            stakes[fields["name"]], created = _get_or_create(Stakes, {**fields, "rake": rake})
            created_stakes += created
        created_tables = sum(
            _get_or_create(Table, {"name": name, "stakes": stakes[stakes_name]})[1]
            for name, stakes_name in DEMO_TABLES.items()
        )
        self.stdout.write(
            f"Demo data: created {int(rake_created)} rake rule, {created_stakes} stakes "
            f"and {created_tables} tables (the rest already existed)."
        )
        self._seed_admin()

    def _seed_admin(self) -> None:
        if User.objects.filter(username=ADMIN_USERNAME).exists():
            self.stdout.write(
                f"The admin user {ADMIN_USERNAME!r} already exists; its password was "
                "printed when it was created."
            )
            return
        password = secrets.token_urlsafe(12)
        User.objects.create_superuser(username=ADMIN_USERNAME, email="", password=password)
        self.stdout.write(
            f"Created the admin user {ADMIN_USERNAME!r} with password {password} "
            "(shown only this once). Sign in at /admin/."
        )


def _get_or_create(model: type[M], fields: dict[str, Any]) -> tuple[M, bool]:
    """The row named ``fields["name"]``, created and validated if it is missing."""
    existing = model.objects.filter(name=fields["name"]).first()
    if existing is not None:
        return existing, False
    row = model(**fields)
    row.full_clean()
    row.save()
    return row, True
