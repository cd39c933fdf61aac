"""The chip audit: is every chip in the system accounted for?

Chips enter only through grants and adjustments. They then sit in a balance, in a
seat's stack, in the pot of a hand being played, or were taken as rake, so::

    balances + seat stacks + pots of unfinished hands + rake == grants + adjustments

Each player's balance must also equal the sum of their ledger transfers and the
``balance_after`` of their latest transfer.

``manage.py audit_chips`` and the staff page beside the reports both ask
:func:`chip_audit`, so the two can't disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery, Sum

from accounts.models import ChipTransfer, User
from tables.models import Hand, RakeEntry, Seat


@dataclass(frozen=True)
class ChipAudit:
    held: dict[str, int]  # where the chips are now: balances, seat stacks, pots, rake
    put_in: int  # by grants and adjustments
    problems: list[str]  # every difference found, in words; none when all is well

    @property
    def total_held(self) -> int:
        return sum(self.held.values())

    @property
    def balanced(self) -> bool:
        return not self.problems


def chip_audit() -> ChipAudit:
    """Where the chips are, what was put in, and every difference between them."""
    with one_moment():
        held, put_in = chips_held(), chips_put_in()
        problems = total_problems(held, put_in) + ledger_problems()
    return ChipAudit(held=held, put_in=put_in, problems=problems)


@contextmanager
def one_moment() -> Iterator[None]:
    """Every read of the audit sees the database as it was at one moment.

    A move committed between two reads would otherwise show as a difference:
    PostgreSQL's repeatable read gives the whole transaction one snapshot. An
    audit run inside a transaction already (a test's) reads in that one.
    """
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def chips_held() -> dict[str, int]:
    """Where the chips are now."""
    pots = Hand.objects.filter(ended_at__isnull=True).values_list("state__committed", flat=True)
    return {
        "balances": User.objects.aggregate(chips=Sum("balance", default=0))["chips"],
        "seat stacks": Seat.objects.aggregate(chips=Sum("stack", default=0))["chips"],
        "pots of unfinished hands": sum(sum(committed) for committed in pots),
        "rake": RakeEntry.objects.aggregate(chips=Sum("amount", default=0))["chips"],
    }


def chips_put_in() -> int:
    kinds = [ChipTransfer.Kind.GRANT, ChipTransfer.Kind.ADJUSTMENT]
    transfers = ChipTransfer.objects.filter(kind__in=kinds)
    total: int = transfers.aggregate(chips=Sum("amount", default=0))["chips"]
    return total


def total_problems(held: dict[str, int], put_in: int) -> list[str]:
    total = sum(held.values())
    if total == put_in:
        return []
    return [f"the system holds {total} chips but {put_in} were put in ({total - put_in:+})"]


def ledger_problems() -> list[str]:
    """Players whose balance disagrees with their own ledger."""
    latest = ChipTransfer.objects.filter(user=OuterRef("pk")).order_by("-id")
    users = User.objects.annotate(
        ledger=Sum("transfers__amount", default=0),
        last_after=Subquery(latest.values("balance_after")[:1]),
    ).order_by("pk")
    problems = []
    for user in users:
        who = f"{user.username} (#{user.pk})"
        if user.balance != user.ledger:
            problems.append(
                f"{who}: balance {user.balance} but their transfers sum to {user.ledger}"
            )
        last_after = 0 if user.last_after is None else user.last_after
        if user.balance != last_after:
            problems.append(
                f"{who}: balance {user.balance} but their latest transfer left {last_after}"
            )
    return problems
