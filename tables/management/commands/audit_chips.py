"""``manage.py audit_chips``: check that every chip in the system is accounted for.

Chips enter only through grants and adjustments. They then sit in a balance, in a
seat's stack, in the pot of a hand being played, or were taken as rake, so::

    balances + seat stacks + pots of unfinished hands + rake == grants + adjustments

Each player's balance must also equal the sum of their ledger transfers and the
``balance_after`` of their latest transfer. Prints a short report; exits with
status 1 (a ``CommandError``) naming every difference found.

Run it on a quiet system, or accept that a move committed between two of its
queries can show up as a one-off difference.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import OuterRef, Subquery, Sum

from accounts.models import ChipTransfer, User
from tables.models import Hand, RakeEntry, Seat


class Command(BaseCommand):
    help = "Check that balances, stacks, pots and rake add up to the chips ever put in."

    def handle(self, *args: Any, **options: Any) -> None:
        held = chips_held()
        put_in = chips_put_in()
        for name, chips in held.items():
            self.stdout.write(f"{name:>28}: {chips}")
        self.stdout.write(f"{'total held':>28}: {sum(held.values())}")
        self.stdout.write(f"{'put in (grants, adjustments)':>28}: {put_in}")
        problems = total_problems(held, put_in) + ledger_problems()
        if problems:
            raise CommandError("chip audit failed:\n  " + "\n  ".join(problems))
        self.stdout.write(self.style.SUCCESS("Every chip is accounted for."))


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
    return transfers.aggregate(chips=Sum("amount", default=0))["chips"]


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
