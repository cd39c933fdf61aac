"""bench/compression.py: a hand's states, written with each compression the server has."""

from __future__ import annotations

import re

import orjson
import pytest
from django.db import connection

from tables.rules import HandState
from tests.conftest import live_database_url
from tests.test_bench_history import load_script

bench = load_script("compression")


def test_the_states_are_a_running_hands_one_per_move() -> None:
    hands = bench.played_states(3, seed=7)
    assert len(hands) == 3
    for states in hands:
        assert len(states) >= 2  # the bring-in, then at least one more move before the end
        played = [HandState.from_dict(orjson.loads(state)) for state in states]
        turns = [state.turn for state in played]
        assert turns == sorted(set(turns))
        assert not any(state.finished for state in played)


@pytest.mark.django_db
def test_the_script_prints_each_methods_cost_and_drops_its_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the script measures PostgreSQL")
    bench.main(["--hands", "3", "--rounds", "1", "--database-url", live_database_url()])
    out = capsys.readouterr().out
    assert re.search(r"^3 hands, \d+ states written", out, re.M), out
    for method in ("pglz", "lz4"):
        assert re.search(rf"^{method} +[0-9.]+ ms +[0-9.]+ ms +\d+ B$", out, re.M), out
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [bench.TABLE])
        assert cursor.fetchone() == (None,)
