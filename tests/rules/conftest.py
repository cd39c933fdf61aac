"""The rules tests' report: what the differential tests against pokerkit found."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per differential run: how many hands agreed, and which rule explains the rest."""
    from tests.rules.test_pokerkit_phh import TALLIES

    if not TALLIES:
        return
    terminalreporter.section("pokerkit's PHH files, replayed")
    for name, verdicts in TALLIES.items():
        counts = ", ".join(f"{count} {what}" for what, count in verdicts.most_common())
        terminalreporter.write_line(f"{name}: {counts}")
