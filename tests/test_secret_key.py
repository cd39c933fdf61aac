"""Django's signing key on a fresh clone: commands that sign nothing run without
one, commands read the key ``make run`` keeps in ``.secret_key``, and the site
never starts without a key.

Each test runs the real command in a fresh interpreter, with ``DEBUG`` off and
no ``SECRET_KEY``, in a copy of the project that has no ``.secret_key`` unless
the test writes one: the project's own root may hold the key of an earlier
``make run``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RAZZ = PROJECT_ROOT / "tests" / "rules" / "phh" / "razz.phh"
REFUSAL = "SECRET_KEY must be set (or .secret_key, which `make run` makes, must hold it)"
FILE_KEY = "a-key-that-make-run-kept-" + "f" * 30


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """The project as a fresh clone has it: no .secret_key, no database yet.

    The settings find .secret_key beside their own package, so the package is
    copied; the apps, templates and static files are linked as they are.
    """
    root = tmp_path / "cardroom-clone"
    root.mkdir()
    shutil.copytree(PROJECT_ROOT / "cardroom", root / "cardroom", ignore=_caches)
    shutil.copy2(PROJECT_ROOT / "manage.py", root / "manage.py")
    for name in ("accounts", "tables", "templates", "static"):
        (root / name).symlink_to(PROJECT_ROOT / name)
    return root


def _caches(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name == "__pycache__"]


def run(clone: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``argv`` in ``clone`` as a newcomer would run it there, with DEBUG off."""
    inherited = {name: value for name, value in os.environ.items() if name != "SECRET_KEY"}
    environment = {
        **inherited,
        "DEBUG": "false",
        "REQUIRE_SERVICES": "",
        "REDIS_URL": "",
        "DATABASE_URL": f"sqlite:///{clone / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        **env,
    }
    return subprocess.run(
        [sys.executable, *argv],
        cwd=clone,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def signing_key(clone: Path, **env: str) -> str:
    shell = "from django.conf import settings; print(settings.SECRET_KEY)"
    done = run(clone, "manage.py", "shell", "--no-imports", "-c", shell, **env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# ------------------------------------------------------ commands before `make run`


def test_games_runs_before_make_run_has_made_a_key(clone: Path) -> None:
    done = run(clone, "manage.py", "games", "--json")

    assert done.returncode == 0, done.stderr
    assert "razz" in {game["variant"] for game in json.loads(done.stdout)}


def test_replay_phh_runs_before_make_run_has_made_a_key(clone: Path) -> None:
    done = run(clone, "manage.py", "replay_phh", str(RAZZ))

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"path": str(RAZZ), "finishing_stacks": [59, 142, 99]}


def test_migrate_and_audit_chips_run_without_a_key(clone: Path) -> None:
    migrated = run(clone, "manage.py", "migrate", "--no-input", "-v", "0")
    assert migrated.returncode == 0, migrated.stderr

    done = run(clone, "manage.py", "audit_chips")

    assert done.returncode == 0, done.stderr
    assert "Every chip is accounted for." in done.stdout


# ------------------------------------------------------------ where the key is read


def test_commands_sign_with_the_key_make_run_keeps(clone: Path) -> None:
    (clone / ".secret_key").write_text(FILE_KEY + "\n")

    assert signing_key(clone) == FILE_KEY


def test_a_secret_key_in_the_environment_wins_over_the_file(clone: Path) -> None:
    (clone / ".secret_key").write_text(FILE_KEY + "\n")

    assert signing_key(clone, SECRET_KEY="from-the-environment-" + "e" * 30).startswith(
        "from-the-environment-"
    )


def test_a_key_file_that_cannot_be_read_stops_every_command(clone: Path) -> None:
    (clone / ".secret_key").mkdir()

    done = run(clone, "manage.py", "games")

    assert done.returncode != 0
    assert "SECRET_KEY is unset and " in done.stderr
    assert ".secret_key can't be read: Is a directory." in done.stderr


# ------------------------------------------------------------------ the site itself


@pytest.mark.parametrize("entry_point", ["cardroom.asgi", "cardroom.wsgi"])
def test_the_site_refuses_to_load_without_a_key(clone: Path, entry_point: str) -> None:
    done = run(clone, "-c", f"import {entry_point}")

    assert done.returncode != 0
    assert f"ImproperlyConfigured: {REFUSAL}" in done.stderr


def test_runserver_refuses_to_start_without_a_key(clone: Path) -> None:
    done = run(clone, "manage.py", "runserver", "--noreload", "127.0.0.1:0")

    assert done.returncode != 0
    assert REFUSAL in done.stderr


def test_the_site_loads_with_the_key_make_run_keeps(clone: Path) -> None:
    (clone / ".secret_key").write_text(FILE_KEY + "\n")

    done = run(clone, "-c", "import cardroom.asgi")

    assert done.returncode == 0, done.stderr


def test_debug_alone_still_brings_a_development_key(clone: Path) -> None:
    assert signing_key(clone, DEBUG="true").startswith("django-insecure-")


def test_check_deploy_calls_the_development_key_insecure(clone: Path) -> None:
    done = run(clone, "manage.py", "check", "--deploy", "--fail-level", "WARNING", DEBUG="true")

    assert done.returncode != 0
    assert "security.W009" in done.stderr
