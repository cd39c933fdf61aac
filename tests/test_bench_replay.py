"""bench/replay.py: both engines replay the same files, to the same stacks."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from tests.test_bench_history import load_script


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("replay")


def test_the_corpus_is_files_both_engines_replay_to_the_same_stacks(bench: ModuleType) -> None:
    texts = bench.corpus(20)
    assert len(texts) > 36  # the WSOP hands, and most of the random ones
    for text in texts:
        assert bench.ours(text) == bench.theirs(text)


def test_the_script_prints_each_engines_time_and_the_ratio(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.main(["--hands", "10", "--rounds", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^ours +[0-9.]+ +[0-9]+ +[0-9.]+$", out, re.M), out
    assert re.search(r"^pokerkit +[0-9.]+ +[0-9]+ +[0-9.]+$", out, re.M), out
    assert re.search(r"^replay: ours [0-9.]+x pokerkit's hands per second$", out, re.M), out
