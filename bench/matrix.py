"""The load benchmark over a grid: tables by Daphne processes, real and floor side by side.

    .venv/bin/python bench/matrix.py --tables 10 100 300 --daphnes 1 2 4 --seconds 30

runs ``bench/load.py --compare`` once per pair (the real server, then the
floor, in one invocation, so each pair's two columns share the machine's
mood), keeps each run's figures as JSON in ``--out``, and prints one
Markdown table: moves recorded per second, p99 move-to-last-viewer, and
the whole machine's CPU per move for each, with real ÷ floor. Each pair
takes two full runs; at 300 tables with the default warm-up that is about
eight minutes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from load import MACHINE, cpu_ms_per_move  # this folder comes first on a script's path

HERE = Path(__file__).resolve().parent


def parse(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 30, 100, 200, 300])
    parser.add_argument("--daphnes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--out", type=Path, default=Path("bench-matrix"), help="JSON folder")
    # Everything else (--seconds, --warmup, --database-url, ...) goes to load.py.
    return parser.parse_known_args(argv)


def run_pair(tables: int, daphnes: int, out: Path, rest: list[str]) -> dict[str, Any]:
    path = out / f"t{tables}-d{daphnes}.json"
    argv = [sys.executable, str(HERE / "load.py"), "--compare", "--tables", str(tables)]
    argv += ["--daphnes", str(daphnes), "--json", str(path), *rest]
    subprocess.run(argv, check=True)
    figures: dict[str, Any] = json.loads(path.read_text())
    return figures


def per_move(figures: dict[str, Any]) -> float:
    """The whole machine's CPU milliseconds per recorded move."""
    return cpu_ms_per_move(figures, figures["cpu_percent_of_all_cores"][MACHINE])


def row(tables: int, daphnes: int, pair: dict[str, Any]) -> str:
    real, floor = pair["real"], pair["floor"]

    def p99(figures: dict[str, Any]) -> str:
        value = figures["latency_p99_ms"]
        return "n/a" if value is None else f"{value:.0f} ms"

    cells = [
        str(tables),
        str(daphnes),
        f"{real['moves_recorded_per_second']:.1f} / {floor['moves_recorded_per_second']:.1f}",
        f"{p99(real)} / {p99(floor)}",
        f"{per_move(real):.1f} / {per_move(floor):.1f} ms",
        f"{per_move(real) / per_move(floor):.1f}x",
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = [
    "| tables | Daphnes | moves/s recorded, real / floor | p99, real / floor "
    "| machine CPU per move, real / floor | real ÷ floor |",
    "|---|---|---|---|---|---|",
]


def main(argv: Sequence[str] | None = None) -> int:
    args, rest = parse(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = list(HEADER)
    for tables in args.tables:
        for daphnes in args.daphnes:
            lines.append(row(tables, daphnes, run_pair(tables, daphnes, args.out, rest)))
            print("\n".join(lines), flush=True)  # the table so far, after each pair
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
