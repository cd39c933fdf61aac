"""Settings come from the environment, and the services they name really answer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client

from cardroom.env import env_bool, env_database, env_list, env_str

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), ("yes", True), ("on", True)]
    + [("0", False), ("false", False), ("No", False), ("off", False)],
)
def test_env_bool_accepts_common_spellings(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool
) -> None:
    monkeypatch.setenv("CARDROOM_FLAG", raw)
    assert env_bool("CARDROOM_FLAG", default=not expected) is expected


def test_env_bool_falls_back_to_default_when_unset_or_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CARDROOM_FLAG", raising=False)
    assert env_bool("CARDROOM_FLAG", default=True) is True
    monkeypatch.setenv("CARDROOM_FLAG", "")
    assert env_bool("CARDROOM_FLAG", default=False) is False


def test_env_bool_rejects_maybe_and_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG.*'maybe'"):
        env_bool("DEBUG", default=True)


def test_env_str_returns_value_or_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_NAME", "  felt  ")
    assert env_str("CARDROOM_NAME") == "felt"
    monkeypatch.delenv("CARDROOM_NAME")
    assert env_str("CARDROOM_NAME", default="baize") == "baize"


def test_env_str_without_default_requires_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDROOM_NAME", raising=False)
    with pytest.raises(ImproperlyConfigured, match="CARDROOM_NAME must be set"):
        env_str("CARDROOM_NAME")


def test_env_list_splits_on_commas_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_HOSTS", " a.example , b.example,, ")
    assert env_list("CARDROOM_HOSTS") == ["a.example", "b.example"]
    monkeypatch.delenv("CARDROOM_HOSTS")
    assert env_list("CARDROOM_HOSTS", default=["localhost"]) == ["localhost"]


def test_env_database_reads_sqlite_paths() -> None:
    assert env_database("sqlite:///db.sqlite3") == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "db.sqlite3",
    }
    assert env_database("sqlite:////var/lib/cardroom.db")["NAME"] == "/var/lib/cardroom.db"


def test_env_database_reads_every_part_of_a_postgres_url() -> None:
    config = env_database("postgres://alice:p%40ss@db.internal:6543/cardroom?sslmode=require")
    assert config == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "cardroom",
        "USER": "alice",
        "PASSWORD": "p@ss",
        "HOST": "db.internal",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }


def test_env_database_accepts_postgresql_scheme_without_credentials() -> None:
    config = env_database("postgresql://localhost/cardroom")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["PORT"]) == ("", "", "")


@pytest.mark.parametrize("url", ["mysql://root@localhost/cardroom", "cardroom.db", ""])
def test_env_database_rejects_unknown_schemes(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="not supported"):
        env_database(url)


@pytest.mark.parametrize(
    "url",
    ["postgres://postgres@127.0.0.1:5432", "postgres://postgres@127.0.0.1:5432/", "sqlite:///"],
)
def test_env_database_rejects_urls_without_a_database_name(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="names no"):
        env_database(url)


def test_env_database_rejects_a_bad_port_without_echoing_the_password() -> None:
    with pytest.raises(ImproperlyConfigured, match="bad port") as error:
        env_database("postgres://alice:hunter2@db:port/cardroom")
    assert "hunter2" not in str(error.value)


def _import_settings_with(**overrides: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter, as Django would at start-up."""
    env = {**os.environ, **overrides}
    return subprocess.run(
        [sys.executable, "-c", "import cardroom.settings"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_settings_refuse_to_load_without_secret_key_when_not_debugging() -> None:
    result = _import_settings_with(DEBUG="false", SECRET_KEY="")
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set" in result.stderr


def test_settings_refuse_to_load_with_an_unreadable_debug_flag() -> None:
    result = _import_settings_with(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


@pytest.mark.django_db
def test_configured_database_answers_select_1() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db
def test_required_services_mean_the_database_is_postgresql(require_services: bool) -> None:
    if not require_services:
        pytest.skip("CARDROOM_REQUIRE_SERVICES is not set; any database will do")
    assert connection.vendor == "postgresql"


def test_redis_answers_ping(require_services: bool) -> None:
    url = settings.REDIS_URL
    if not url and not require_services:
        pytest.skip("REDIS_URL is empty and CARDROOM_REQUIRE_SERVICES is not set")
    assert url, "CARDROOM_REQUIRE_SERVICES=1 but REDIS_URL is empty"
    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        assert client.ping() is True
    finally:
        client.close()


def test_home_page_says_what_cardroom_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Cardroom" in response.content
    assert b"seven-card stud" in response.content


def test_admin_is_routed_and_asks_for_a_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
