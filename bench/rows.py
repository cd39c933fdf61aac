"""Rows made into model instances: Django's ``Model.from_db`` against ours.

    python bench/rows.py [--rows 200000]

For each model a move reads (the table, its stakes, the hand, the seats, their
players, the waiting list), the same row of values is loaded ``--rows`` times
through Django's ``Model.from_db`` and through ``cardroom.rows.RowLoaded``'s,
taking turns every 10,000 so that a slower moment of the machine slows both
alike. It prints the microseconds per instance each way. No database: the
values are made up, as a read would return them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

TURN = 10_000  # rows loaded one way before the other way's turn


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rows", type=int, default=200_000, help="rows loaded each way per model (200000)"
    )
    return parser.parse_args(argv)


def a_row(model: Any) -> tuple[list[str], list[Any]]:
    """Every column's attribute name, and a value for each (the id 1, the rest 0)."""
    names = [field.attname for field in model._meta.concrete_fields]
    return names, [1, *[0] * (len(names) - 1)]


def timed(load: Callable[[], object], rows: int) -> float:
    start = time.perf_counter()
    for _ in range(rows):
        load()
    return time.perf_counter() - start


def per_row(model: Any, rows: int) -> tuple[float, float]:
    """Microseconds per instance: Django's ``from_db``, then ours."""
    from django.db import models

    from cardroom.rows import RowLoaded

    names, values = a_row(model)
    djangos = super(RowLoaded, model).from_db  # Model.from_db, bound to the model

    def theirs() -> object:
        return djangos("default", names, values)

    def ours() -> object:
        return model.from_db("default", names, values)

    assert isinstance(model.from_db("default", names, values), models.Model)
    spent = [0.0, 0.0]
    done = 0
    while done < rows:
        turn = min(TURN, rows - done)
        spent[0] += timed(theirs, turn)
        spent[1] += timed(ours, turn)
        done += turn
    return spent[0] / rows * 1e6, spent[1] / rows * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script, not in a test
        os.environ["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
        import django

        django.setup()
    from accounts.models import User
    from tables.models import Hand, Seat, Stakes, Table, WaitingPlayer

    print(f"Rows made into instances, {args.rows} of each model each way, µs per instance:")
    print("| model | columns | Django's from_db | ours | ratio |")
    print("|---|---|---|---|---|")
    for model in (Table, Stakes, Hand, Seat, User, WaitingPlayer):
        theirs, ours = per_row(model, args.rows)
        columns = len(model._meta.concrete_fields)
        print(
            f"| {model.__name__} | {columns} | {theirs:.2f} | {ours:.2f} | {theirs / ours:.1f}x |"
        )


if __name__ == "__main__":
    main()
