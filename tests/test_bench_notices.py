"""bench/notices.py prints what a notice from sync code costs, each way.

(How it compares is for the figures in bench/README.md, not for a test.)
"""

from __future__ import annotations

import re

import pytest

from tests.test_bench_history import load_script


@pytest.mark.usefixtures("redis_layer")
def test_the_script_prints_the_cost_of_a_notice_each_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_script("notices").main(["--notices", "20"])
    out = capsys.readouterr().out
    rows = re.findall(r"^(async_to_sync|the notice loop) +[0-9.]+ +[0-9.]+$", out, re.M)
    assert rows == ["async_to_sync", "the notice loop"], out
