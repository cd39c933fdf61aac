"""bench/rows.py prints what a row costs to load, Django's way and ours, per model.

(How they compare is for the figures in bench/README.md, not for a test.)
"""

from __future__ import annotations

import re

import pytest

from tests.test_bench_history import load_script


def test_the_script_prints_a_row_per_model_each_way(capsys: pytest.CaptureFixture[str]) -> None:
    load_script("rows").main(["--rows", "50"])
    out = capsys.readouterr().out
    rows = re.findall(r"^\| (\w+) \| \d+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|$", out, re.M)
    assert rows == ["Table", "Stakes", "Hand", "Seat", "User", "WaitingPlayer"], out
