"""bench/load.py's comparison over several rounds: the pieces that need no servers."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.test_bench_history import load_script

load = load_script("load")


def figures(machine_percent: float) -> dict[str, Any]:
    """A run's figures as load.py keeps them: 100 moves in 10 s."""
    return {
        "moves_recorded_per_second": 10.0,
        "seconds": 10.0,
        "cpu_percent_of_all_cores": {load.MACHINE: machine_percent},
    }


def test_each_rounds_machine_ratio_is_printed_with_their_median() -> None:
    rounds = [
        {"real": figures(real), "floor": figures(floor)}
        for real, floor in ((36.0, 20.0), (40.0, 16.0), (42.0, 21.0))
    ]
    out = io.StringIO()
    load.report_rounds(rounds, out)
    assert out.getvalue() == (
        "Machine CPU per move, real ÷ floor, by round: 1.80x, 2.50x, 2.00x; median 2.00x\n"
    )


@pytest.mark.parametrize("argv", [["--rounds", "2"], ["--compare", "--rounds", "0"]])
def test_rounds_are_refused_without_the_comparison_or_below_one(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        load.parse_args(argv)
    assert load.parse_args(["--compare", "--rounds", "3"]).rounds == 3
