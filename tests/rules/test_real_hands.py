"""Real hands as regression tests: televised WSOP stud, razz and stud hi-lo.

The files in tests/rules/phh/wsop/ hold every hand of those games that
pokerkit's authors transcribed from two 2023 WSOP broadcasts, with the chip
counts the broadcast shows at the end as ``finishing_stacks``. Each must
replay to exactly those stacks. Several record the door cards of players who
folded on 3rd street as ``??``, and some show a hand at an all-in and again at
the showdown: the two things other readers of such files refuse.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tables.management.commands.replay_phh import replay_file
from tables.rules.formats.phh import HandHistory, read_phhs, replay

WSOP = Path(__file__).parent / "phh" / "wsop"
FILES = sorted(WSOP.glob("*.phhs"))


def hands() -> list[tuple[str, HandHistory]]:
    return [
        (f"{path.name}#{history.fields['hand']}", history)
        for path in FILES
        for history in read_phhs(path.read_text(encoding="utf-8"))
    ]


@pytest.mark.parametrize(("name", "history"), hands(), ids=lambda value: value)
def test_a_televised_hand_replays_to_the_recorded_chip_counts(
    name: str, history: HandHistory
) -> None:
    state = replay(history)  # raises if the recorded finishing stacks differ
    assert state.finished
    assert state.stacks == history.finishing_stacks


def test_the_files_hold_each_game_and_the_cases_other_readers_refuse() -> None:
    histories = [history for _, history in hands()]
    assert Counter(h.fields["variant"] for h in histories) == {"F7S": 13, "FR": 10, "F7S/8": 13}
    unknown_doors = [h for h in histories if any("??????" in a for a in h.actions)]
    shown_twice = [h for h in histories if _shows_twice(h.actions)]
    assert len(unknown_doors) == 7
    assert len(shown_twice) == 2


def _shows_twice(actions: list[str]) -> bool:
    shows = Counter(a.split()[0] for a in actions if a.split()[1:2] == ["sm"])
    return any(count > 1 for count in shows.values())


def test_replay_phh_prints_the_recorded_stacks_for_every_hand() -> None:
    lines = [line for path in FILES for line in replay_file(str(path))]
    assert len(lines) == 36
    assert [line for line in lines if "error" in line] == []
