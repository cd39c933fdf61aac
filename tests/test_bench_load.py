"""bench/load.py's comparison over several rounds: the pieces that need no servers."""

from __future__ import annotations

import io
import random
import time
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


def test_the_slowest_move_of_each_second_gives_their_median_and_the_seconds_past_the_goal() -> None:
    # As the bots' figures come back through JSON: the seconds are text.
    slowest = {"0": 40.0, "1": 150.0, "2": 90.0, "3": 101.0, "4": 100.0}
    assert load.slowest_each_second(slowest) == {
        "seconds_timed": 5,
        "slowest_p50_ms": 100.0,
        "seconds_over_goal": 2,  # 150 and 101; 100 is the goal itself
    }
    assert load.slowest_each_second({}) == {
        "seconds_timed": 0,
        "slowest_p50_ms": None,
        "seconds_over_goal": 0,
    }


def test_a_table_watch_keeps_the_slowest_move_sent_in_each_second_of_the_window() -> None:
    bots = load_script("load_bots")
    figures = bots.Figures()
    start = time.time() - 10  # the window began ten seconds ago
    watch = bots.TableWatch(
        figures,
        (start, start + 60),
        interval=2.0,
        min_think=0.5,
        timeout_share=0.0,
        rng=random.Random(1),
    )
    now = time.monotonic()
    # Moves sent 9.5, 9.2 and 2.5 seconds into the window, each seen by all just now.
    for key, sent_ago in (((1, 1), 0.5), ((1, 2), 0.8), ((1, 3), 7.5)):
        move = bots.Tracked(key, now - sent_ago, set(), "alice", None, "call")
        watch.tracked.append(move)
        watch.resolve(move, now)
    assert figures.slowest_by_second.keys() == {9, 2}
    assert figures.slowest_by_second[9] == pytest.approx(800, abs=50)
    assert figures.slowest_by_second[2] == pytest.approx(7500, abs=50)


def test_the_row_updates_in_the_window_are_told_with_the_share_written_in_place() -> None:
    first = {"tables_hand": (1000, 100), "tables_seat": (50, 50), "tables_tableconnection": (9, 0)}
    last = {"tables_hand": (6000, 4350), "tables_seat": (60, 58), "tables_tableconnection": (9, 0)}
    updates = load.updates_between(first, last)
    assert updates == {
        "tables_hand": {"updates": 5000, "hot": 4250},
        "tables_seat": {"updates": 10, "hot": 8},
        "tables_tableconnection": {"updates": 0, "hot": 0},
    }
    # A table with no update in the window is left out of the line.
    assert load.in_place_line(updates) == "tables_hand 85% of 5,000, tables_seat 80% of 10"
    assert load.in_place_line({}) == "none"
