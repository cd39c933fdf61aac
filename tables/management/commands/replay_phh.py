"""``manage.py replay_phh PATH [PATH ...]``: replay PHH hand histories through the engine.

Prints one JSON line per hand, ``{"path": ..., "finishing_stacks": [...]}`` or
``{"path": ..., "error": ...}``; each hand of a ``.phhs`` file gets its own
line, its path ending ``#`` and the hand's table name (``hands.phhs#2``). Exits
with status 1 when any file or hand failed. It needs no database.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.rules.formats.phh import HandHistory, PHHError, phhs_sections, read_phh, replay


class Command(BaseCommand):
    help = "Replay PHH hand histories (.phh, or .phhs holding many) and print the results."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="a .phh or .phhs file")

    def handle(self, *args: Any, paths: list[str], **options: Any) -> None:
        failed = False
        for path in paths:
            for line in replay_file(path):
                self.stdout.write(json.dumps(line))
                failed = failed or "error" in line
        if failed:
            sys.exit(1)


def replay_file(path: str) -> list[dict[str, Any]]:
    """One result line per hand in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [{"path": path, "error": f"can't read the file: {_reason(exc)}"}]
    if not path.endswith(".phhs"):
        return [_result(path, lambda: read_phh(text))]
    try:
        sections = phhs_sections(text)
    except PHHError as exc:
        return [{"path": path, "error": str(exc)}]
    return [
        _result(f"{path}#{label}", partial(HandHistory.from_fields, fields))
        for label, fields in sections.items()
    ]


def _result(path: str, read: Callable[[], HandHistory]) -> dict[str, Any]:
    """Read and replay one hand; reading is deferred so its errors land on this line."""
    try:
        state = replay(read())
    except PHHError as exc:
        return {"path": path, "error": str(exc)}
    return {"path": path, "finishing_stacks": state.stacks}


def _reason(exc: OSError | UnicodeDecodeError) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)
