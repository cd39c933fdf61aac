"""``manage.py replay_phh``: one JSON line per hand, exit status 1 if any failed.

No test here is marked ``django_db``: pytest-django refuses database access
without the mark, so these also prove the command never touches the database.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tables.rules.formats.phh import write_phhs

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RAZZ = PROJECT_ROOT / "tests" / "rules" / "phh" / "razz.phh"
STUD8 = PROJECT_ROOT / "tests" / "rules" / "phh" / "stud8.phh"
# A hand with a timeout protection, written as the '# _cardroom_protect p3' commentary.
PROTECT = PROJECT_ROOT / "tests" / "rules" / "phh" / "protect.phh"


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    """The razz hand with p2 completing to 999 instead of 5."""
    path = tmp_path / "bad.phh"
    path.write_text(RAZZ.read_text().replace("p2 cbr 5  # completes", "p2 cbr 999"))
    return path


def run(*paths: Path | str) -> tuple[int, list[dict]]:
    """Run the command as a user would, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "manage.py", "replay_phh", *map(str, paths)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


def test_a_good_file_prints_its_finishing_stacks_and_exits_0():
    code, lines = run(RAZZ)
    assert code == 0
    assert lines == [{"path": str(RAZZ), "finishing_stacks": [59, 142, 99]}]


def test_bad_and_missing_files_get_error_lines_and_exit_1(bad_file, tmp_path):
    missing = tmp_path / "missing.phh"
    code, lines = run(RAZZ, bad_file, missing)
    assert code == 1
    assert [line["path"] for line in lines] == [str(RAZZ), str(bad_file), str(missing)]
    assert lines[0]["finishing_stacks"] == [59, 142, 99]
    assert lines[1]["error"].startswith("action 4 'p2 cbr 999': ")
    assert "No such file" in lines[2]["error"]


def test_each_hand_of_a_phhs_file_gets_its_own_line(bad_file, tmp_path):
    hands = tmp_path / "hands.phhs"
    hands.write_text(write_phhs([RAZZ.read_text(), bad_file.read_text(), STUD8.read_text()]))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay_phh", str(hands), stdout=out)
    assert exited.value.code == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["path"] for line in lines] == [f"{hands}#1", f"{hands}#2", f"{hands}#3"]
    assert lines[0]["finishing_stacks"] == [59, 142, 99]
    assert "p2 cbr 999" in lines[1]["error"]
    assert lines[2]["finishing_stacks"] == [101, 102, 97]


def test_call_command_returns_quietly_when_every_hand_replays():
    out = io.StringIO()
    call_command("replay_phh", str(RAZZ), str(STUD8), stdout=out)
    stacks = [json.loads(line)["finishing_stacks"] for line in out.getvalue().splitlines()]
    assert stacks == [[59, 142, 99], [101, 102, 97]]


def test_garbage_in_a_phhs_file_is_one_error_line(tmp_path):
    broken = tmp_path / "broken.phhs"
    broken.write_text("[1\nvariant = ")
    code, lines = run(broken)
    assert code == 1
    assert lines == [{"path": str(broken), "error": lines[0]["error"]}]
    assert "not valid TOML" in lines[0]["error"]


def test_a_hand_with_a_timeout_protection_replays_to_its_finishing_stacks():
    code, lines = run(PROTECT)
    assert code == 0
    assert lines == [{"path": str(PROTECT), "finishing_stacks": [119, 59, 122]}]


def test_without_the_protection_the_same_actions_are_refused(tmp_path):
    """The commentary is what keeps p3 out of the betting: dropped, p1's call comes out of turn."""
    path = tmp_path / "unprotected.phh"
    path.write_text(PROTECT.read_text().replace('  "# _cardroom_protect p3",\n', ""))
    code, lines = run(path)
    assert code == 1
    assert lines[0]["error"].startswith("action 14 'p1 cc': ")
