"""``manage.py audit_chips``: check that every chip in the system is accounted for.

The audit itself is :func:`tables.selectors.audit.chip_audit`, which the staff
page beside the reports shows too. This prints its figures, and exits with
status 1 (a ``CommandError``) naming every difference found.

Its reads see the database at one moment (on PostgreSQL), so play going on
while it runs doesn't show as a difference.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tables.selectors.audit import chip_audit


class Command(BaseCommand):
    help = "Check that balances, stacks, pots and rake add up to the chips ever put in."

    def handle(self, *args: Any, **options: Any) -> None:
        audit = chip_audit()
        for name, chips in audit.held.items():
            self.stdout.write(f"{name:>28}: {chips}")
        self.stdout.write(f"{'total held':>28}: {audit.total_held}")
        self.stdout.write(f"{'put in (grants, adjustments)':>28}: {audit.put_in}")
        if audit.problems:
            raise CommandError("chip audit failed:\n  " + "\n  ".join(audit.problems))
        self.stdout.write(self.style.SUCCESS("Every chip is accounted for."))
