"""bench/moves.py times moves made through the socket's path, round by round.

(What a move costs is for the figures in bench/README.md, not for a test.)
"""

from __future__ import annotations

import re

import pytest

from tables.models import Hand
from tests.test_bench_history import load_script


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql", "redis_layer")
def test_the_script_plays_hands_through_the_socket_path_and_prints_each_round(
    capsys: pytest.CaptureFixture[str],
) -> None:
    moves = load_script("moves")
    mover = moves.Mover(*moves.seat_players())
    rounds = [mover.play(40) for _ in range(2)]
    moves.report(rounds)
    out = capsys.readouterr().out
    lines = re.findall(r"^\| (\d+|median) \|(?: (\d+))? \| \d+ \| \d+ \| \d+ \|$", out, re.M)
    assert lines == [("1", "40"), ("2", "40"), ("median", "")], out
    # 80 moves of six players calling along, each recorded once, over hands
    # that ended with the next dealt at once.
    hands = Hand.objects.filter(table_id=mover.table_id)
    assert hands.filter(ended_at__isnull=False).count() >= 2
    assert sum(len(hand.state["actions"]) for hand in hands) == 80
