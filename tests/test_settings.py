"""Settings come from the environment, and the services they name really answer."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
import redis
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from pytest_django import DjangoDbBlocker

from cardroom.env import (
    env_bool,
    env_database,
    env_header,
    env_list,
    env_redis_url,
    env_str,
    env_url_path,
)

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
    database = env_database("sqlite:///db.sqlite3")
    assert (database["ENGINE"], database["NAME"]) == ("django.db.backends.sqlite3", "db.sqlite3")
    assert env_database("sqlite:////var/lib/cardroom.db")["NAME"] == "/var/lib/cardroom.db"


# Each transaction reads, then writes: the pattern of every move, and the one that
# makes SQLite refuse at once ("database is locked") when two processes do it
# with deferred transactions.
_READ_THEN_WRITE = """
import django
django.setup()
from django.db import connection, transaction
for _ in range(300):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM moves")
        cursor.execute("INSERT INTO moves VALUES (1)")
"""


def test_sqlite_queues_concurrent_writers_instead_of_failing(tmp_path: Path) -> None:
    """Two processes writing at once, as Daphne and the Celery worker do under `make run`."""
    database = tmp_path / "shared.sqlite3"
    with sqlite3.connect(database) as setup:
        setup.execute("CREATE TABLE moves (n integer)")
        # As `make run`'s migrate leaves it, before Daphne and the worker start:
        # switching a file to WAL takes a lock no busy timeout waits for, so two
        # processes both switching a fresh file can fail at connect instead.
        setup.execute("PRAGMA journal_mode=WAL")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "REQUIRE_SERVICES": "",
    }
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _READ_THEN_WRITE],
            cwd=Path(__file__).resolve().parent.parent,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    errors = [writer.communicate(timeout=120)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0], errors
    with sqlite3.connect(database) as check:
        assert check.execute("SELECT count(*) FROM moves").fetchone()[0] == 600


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


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/0",
        "redis://localhost",
        "rediss://:secret@cache.internal:6380/2?ssl_cert_reqs=required",
    ],
)
def test_env_redis_url_returns_redis_urls_as_written(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.setenv("REDIS_URL", url)
    assert env_redis_url("REDIS_URL") == url


def test_env_redis_url_is_empty_when_unset_unless_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REDIS_URL", "")
    assert env_redis_url("REDIS_URL") == ""
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must be set"):
        env_redis_url("REDIS_URL", default=None)


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("http://127.0.0.1:6379/0", "redis:// or rediss://"),
        ("127.0.0.1:6379", "redis:// or rediss://"),
        ("unix:///run/redis.sock", "redis:// or rediss://"),
        ("redis:///0", "names no host"),
        ("redis://127.0.0.1:6379/cache", "database number"),
        ("redis://:hunter2@127.0.0.1:port/0", "bad port"),
    ],
)
def test_env_redis_url_rejects_what_isnt_a_redis_url(
    monkeypatch: pytest.MonkeyPatch, url: str, complaint: str
) -> None:
    monkeypatch.setenv("REDIS_URL", url)
    with pytest.raises(ImproperlyConfigured, match=complaint) as error:
        env_redis_url("REDIS_URL")
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


def test_settings_refuse_to_load_with_an_unreadable_debug_flag() -> None:
    result = _import_settings_with(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_settings_refuse_a_redis_url_that_isnt_redis() -> None:
    result = _import_settings_with(REDIS_URL="amqp://guest@127.0.0.1//")
    assert result.returncode != 0
    assert "REDIS_URL must be a redis:// or rediss:// URL" in result.stderr


@pytest.mark.parametrize("missing", ["DATABASE_URL", "REDIS_URL"])
def test_required_services_leave_no_fallback_for_a_missing_url(missing: str) -> None:
    urls = {"DATABASE_URL": "sqlite:///unused.sqlite3", "REDIS_URL": "redis://127.0.0.1/0"}
    result = _import_settings_with(REQUIRE_SERVICES="1", **{**urls, missing: ""})
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {missing} must be set" in result.stderr


def _settings_from(names: list[str], **overrides: str) -> dict[str, object]:
    """Some settings, as JSON, from a fresh interpreter with these variables."""
    code = (
        "import json, sys, cardroom.settings as s; "
        "print(json.dumps({n: getattr(s, n) for n in sys.argv[1:]}, default=str))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, *names],
        cwd=PROJECT_ROOT,
        env={**os.environ, **overrides},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def _documented_defaults() -> dict[str, int]:
    """docs/deploy.md's variables whose row states a number as the default."""
    text = (PROJECT_ROOT / "docs" / "deploy.md").read_text()
    rows = re.findall(r"^\| `([A-Z_]+)` \|[^|\n]*?\(default (\d[\d,]*)[).;:]", text, re.M)
    return {name: int(number.replace(",", "")) for name, number in rows}


def test_each_number_docs_deploy_gives_as_a_default_is_the_settings_default() -> None:
    documented = _documented_defaults()
    assert "GC_FULL_PASS_SECONDS" in documented  # the table was read
    code = (
        "import json, sys, cardroom.settings as s; "
        "print(json.dumps({n: getattr(s, n, None) for n in sys.argv[1:]}))"
    )
    unset = {k: v for k, v in os.environ.items() if k not in documented}
    result = subprocess.run(
        [sys.executable, "-c", code, *documented],
        cwd=PROJECT_ROOT,
        env=unset,
        capture_output=True,
        text=True,
        check=True,
    )
    # Variables read elsewhere (the Makefile's PORT, say) are not settings.
    values = {n: v for n, v in json.loads(result.stdout).items() if isinstance(v, int)}
    assert values == {name: documented[name] for name in values}


def test_channels_and_celery_share_the_one_redis_url() -> None:
    url = "redis://cache.internal:6379/3"
    values = _settings_from(
        ["CHANNEL_LAYERS", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"], REDIS_URL=url
    )
    layer = values["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert [host["address"] for host in layer["CONFIG"]["hosts"]] == [url]
    assert values["CELERY_BROKER_URL"] == values["CELERY_RESULT_BACKEND"] == url


def test_the_channel_layer_spreads_over_the_redis_servers_it_is_given() -> None:
    shards = ["redis://layer-a.internal:6379/0", "redis://layer-b.internal:6379/0"]
    url = "redis://queue.internal:6379/1"
    values = _settings_from(
        ["CHANNEL_LAYERS", "CELERY_BROKER_URL"], REDIS_URL=url, CHANNEL_LAYER_URLS=",".join(shards)
    )
    hosts = values["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"]
    assert [host["address"] for host in hosts] == shards
    assert values["CELERY_BROKER_URL"] == url  # Celery keeps to REDIS_URL


def test_two_sites_on_one_redis_keep_their_channel_layers_apart() -> None:
    """Each site's layer keys start with its own prefix; unset, channels' own default."""

    def prefix(**env: str) -> str:
        values = _settings_from(["CHANNEL_LAYERS"], REDIS_URL="redis://shared:6379/0", **env)
        return str(values["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"])

    assert prefix(CHANNEL_LAYER_PREFIX="") == "asgi"
    assert prefix(CHANNEL_LAYER_PREFIX="staging") == "staging"


def test_settings_refuse_a_channel_layer_shard_that_isnt_redis() -> None:
    result = _import_settings_with(CHANNEL_LAYER_URLS="redis://a:6379/0, http://b:6379/0")
    assert result.returncode != 0
    assert "CHANNEL_LAYER_URLS must be a redis:// or rediss:// URL" in result.stderr


def _project_layers(urls: list[str], prefix: str, count: int) -> list[Any]:
    """``count`` processes' channel layers as the settings configure them
    (not as conftest.py swaps them), on these Redis servers."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = _settings_from(["CHANNEL_LAYERS"])["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    (host,) = layer["CONFIG"]["hosts"]
    hosts = [{**host, "address": url} for url in urls]
    config = {**layer["CONFIG"], "hosts": hosts, "prefix": prefix}
    return [RedisPubSubChannelLayer(**config) for _ in range(count)]


def test_a_group_message_reaches_every_process_over_two_shards(redis_url: str) -> None:
    """Two Daphne processes' layers, each given the same two shards, with a
    table's viewers in both: they all hear its change notice, sent from a
    third process's layer."""
    base = redis_url.rsplit("/", 1)[0]
    *processes, sender = _project_layers([f"{base}/13", f"{base}/14"], f"test-{uuid4().hex}", 3)

    async def scenario() -> list[dict[str, object]]:
        channels = [[await layer.new_channel() for _ in range(2)] for layer in processes]
        for layer, theirs in zip(processes, channels, strict=True):
            for channel in theirs:
                await layer.group_add("table-1", channel)
        await sender.group_send("table-1", {"type": "table.changed"})
        heard = [
            await asyncio.wait_for(layer.receive(channel), 5)
            for layer, theirs in zip(processes, channels, strict=True)
            for channel in theirs
        ]
        for layer in [*processes, sender]:
            await layer.flush()
        return heard

    assert async_to_sync(scenario)() == [{"type": "table.changed"}] * 4


def test_hundreds_of_sockets_joining_at_once_all_hear_their_group(redis_url: str) -> None:
    """Hundreds of joins at once on the project's layer (pages connecting
    after a restart), then one group message: every socket gets it."""

    (layer,) = _project_layers([redis_url], f"test-{uuid4().hex}", 1)

    async def scenario() -> list[dict[str, object]]:
        channels = [await layer.new_channel() for _ in range(300)]
        await asyncio.gather(*(layer.group_add("crowd", channel) for channel in channels))
        await layer.group_send("crowd", {"type": "lobby.changed"})
        heard = [await asyncio.wait_for(layer.receive(channel), 5) for channel in channels]
        await layer.flush()
        return heard

    assert async_to_sync(scenario)() == [{"type": "lobby.changed"}] * 300


def test_websocket_rate_limits_come_from_the_environment() -> None:
    names = ["CARDROOM_WS_MESSAGE_LIMIT", "CARDROOM_WS_MESSAGE_WINDOW_SECONDS"]
    names += ["CARDROOM_CHAT_LIMIT", "CARDROOM_CHAT_WINDOW_SECONDS"]
    values = _settings_from(names, **dict(zip(names, ["40", "10", "3", "30"], strict=True)))
    assert [values[name] for name in names] == [40, 10, 3, 30]


def test_settings_refuse_a_chat_limit_of_zero() -> None:
    result = _import_settings_with(CARDROOM_CHAT_LIMIT="0")
    assert result.returncode != 0
    assert "CARDROOM_CHAT_LIMIT must be at least 1" in result.stderr


def test_database_connections_are_kept_for_the_configured_time() -> None:
    values = _settings_from(["DATABASES"], DATABASE_CONN_MAX_AGE="45")
    assert values["DATABASES"]["default"]["CONN_MAX_AGE"] == 45
    assert values["DATABASES"]["default"]["CONN_HEALTH_CHECKS"] is True


@pytest.mark.parametrize(
    ("after", "options"),
    [
        (None, {"server_side_binding": True, "prepare_threshold": 5}),
        ("2", {"server_side_binding": True, "prepare_threshold": 2}),
        ("0", {}),
    ],
)
def test_postgresql_prepares_the_statements_it_runs_again_unless_told_not_to(
    after: str | None, options: dict[str, object]
) -> None:
    env = {"DATABASE_URL": "postgres://cardroom@db.example:5432/cardroom"}
    if after is not None:
        env["DATABASE_PREPARE_AFTER"] = after
    values = _settings_from(["DATABASES"], **env)
    given = values["DATABASES"]["default"].get("OPTIONS", {})
    assert {key: value for key, value in given.items() if key != "options"} == options


@pytest.mark.parametrize(
    ("cost", "query", "options"),
    [
        (None, "", "-c random_page_cost=1.1"),
        ("2.5", "", "-c random_page_cost=2.5"),
        ("server", "", None),
        (None, "?options=-c%20work_mem%3D8MB", "-c work_mem=8MB"),  # the URL's own, as given
    ],
)
def test_postgresqls_planner_is_told_that_reading_out_of_order_is_cheap(
    cost: str | None, query: str, options: str | None
) -> None:
    env = {"DATABASE_URL": "postgres://cardroom@db.example:5432/cardroom" + query}
    if cost is not None:
        env["DATABASE_RANDOM_PAGE_COST"] = cost
    values = _settings_from(["DATABASES"], **env)
    assert values["DATABASES"]["default"]["OPTIONS"].get("options") == options


@pytest.mark.parametrize("cost", ["0", "-1", "cheap", "nan"])
def test_settings_refuse_a_page_cost_that_is_no_cost(cost: str) -> None:
    result = _import_settings_with(
        DATABASE_URL="postgres://cardroom@db.example:5432/cardroom", DATABASE_RANDOM_PAGE_COST=cost
    )
    assert result.returncode != 0
    assert f"DATABASE_RANDOM_PAGE_COST must be a number above 0, or server, not '{cost}'." in (
        result.stderr
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("postgresql")
def test_the_projects_postgresql_connections_plan_with_the_page_cost_set() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert cursor.fetchone() == ("1.1",)


def test_sqlite_is_never_given_postgresqls_statement_options() -> None:
    values = _settings_from(["DATABASES"], DATABASE_URL="sqlite:///x.sqlite3")
    assert "server_side_binding" not in values["DATABASES"]["default"]["OPTIONS"]
    assert "options" not in values["DATABASES"]["default"]["OPTIONS"]


def test_each_read_replica_is_a_database_tuned_as_the_primary_and_mirrors_it_in_tests() -> None:
    values = _settings_from(
        ["DATABASES", "READ_REPLICAS", "DATABASE_ROUTERS"],
        DATABASE_URL="postgres://cardroom@primary.internal/cardroom",
        DATABASE_REPLICA_URLS="postgres://reader@replica-a.internal/cardroom, "
        "postgres://reader@replica-b.internal:6432/cardroom",
        DATABASE_CONN_MAX_AGE="45",
    )
    assert values["READ_REPLICAS"] == ["replica-1", "replica-2"]
    databases = values["DATABASES"]
    assert (databases["replica-1"]["HOST"], databases["replica-2"]["PORT"]) == (
        "replica-a.internal",
        "6432",
    )
    for alias in values["READ_REPLICAS"]:
        assert databases[alias]["CONN_MAX_AGE"] == 45
        assert databases[alias]["OPTIONS"] == databases["default"]["OPTIONS"]
        assert databases[alias]["TEST"] == {"MIRROR": "default"}
    assert values["DATABASE_ROUTERS"] == ["cardroom.replicas.ReplicaRouter"]


def test_without_replicas_there_is_one_database() -> None:
    values = _settings_from(["DATABASES", "READ_REPLICAS"], DATABASE_REPLICA_URLS="")
    assert (list(values["DATABASES"]), values["READ_REPLICAS"]) == (["default"], [])


@pytest.mark.parametrize(
    ("primary", "replica", "message"),
    [
        ("sqlite:///x.sqlite3", "sqlite:///y.sqlite3", "lists PostgreSQL replicas"),
        ("postgres://db/cardroom", "sqlite:///y.sqlite3", "lists PostgreSQL replicas"),
        ("postgres://db/cardroom", "mysql://db/cardroom", "DATABASE_REPLICA_URLS scheme 'mysql'"),
        ("postgres://db/cardroom", "postgres://db:port/x", "DATABASE_REPLICA_URLS has a bad port"),
    ],
)
def test_settings_refuse_a_replica_that_cannot_copy_the_primary(
    primary: str, replica: str, message: str
) -> None:
    result = _import_settings_with(DATABASE_URL=primary, DATABASE_REPLICA_URLS=replica)
    assert result.returncode != 0
    assert message in result.stderr


def test_settings_refuse_a_connection_age_that_is_not_a_number() -> None:
    result = _import_settings_with(DATABASE_CONN_MAX_AGE="forever")
    assert result.returncode != 0
    assert "DATABASE_CONN_MAX_AGE must be a whole number" in result.stderr


@pytest.fixture
def file_connection(
    tmp_path: Path, django_db_blocker: DjangoDbBlocker
) -> Iterator[BaseDatabaseWrapper]:
    """A second database connection, to a SQLite file, registered beside the test database's.

    Django ignores closing a connection to an in-memory SQLite database, which
    would destroy it, and that is the test database on a fresh clone (no
    DATABASE_URL): there the default connection can never show a close.
    """
    alias = "worker_probe"
    # No test database is involved, so no pytest-django database marker: it would
    # forbid queries on a connection it doesn't know.
    configured = connections.configure_settings(
        {
            "default": {},
            alias: {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(tmp_path / "probe.sqlite3"),
            },
        }
    )[alias]
    connections.settings[alias] = configured
    try:
        with django_db_blocker.unblock():
            yield connections[alias]
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.settings[alias]


def test_a_worker_keeps_its_database_connection_between_tasks_until_it_is_too_old(
    file_connection: BaseDatabaseWrapper,
) -> None:
    """Celery's own closing waits for many tasks; Django's age rule decides instead."""
    from celery.signals import task_postrun

    from cardroom.celery import app

    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 1000
    file_connection.ensure_connection()
    file_connection.close_at = None  # as with no age limit: kept
    task_postrun.send(sender=None)
    assert file_connection.connection is not None
    file_connection.close_at = 0.0  # long past
    task_postrun.send(sender=None)
    assert file_connection.connection is None


def test_celery_speaks_only_json_and_has_time_limits() -> None:
    from cardroom.celery import app

    assert app.conf.accept_content == ["json"]
    assert app.conf.result_accept_content == ["json"]
    assert app.conf.task_serializer == app.conf.result_serializer == "json"
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit


def test_daphne_comes_first_so_runserver_is_asgi() -> None:
    from django.core.management import get_commands

    assert settings.INSTALLED_APPS[0] == "daphne"
    assert "channels" in settings.INSTALLED_APPS
    assert get_commands()["runserver"] == "daphne"


@pytest.mark.django_db
def test_configured_database_answers_select_1() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db
def test_required_services_mean_the_database_is_postgresql(require_services: bool) -> None:
    if not require_services:
        pytest.skip("REQUIRE_SERVICES is not set; any database will do")
    assert connection.vendor == "postgresql"


def test_redis_answers_ping(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3)
    try:
        assert client.ping() is True
    finally:
        client.close()


def test_home_page_says_what_cardroom_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Cardroom" in response.content
    assert "seven-card stud" in response.content.decode().lower()


def test_admin_is_routed_and_asks_for_a_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


# Production defaults: DEBUG off unless asked for, HTTPS behind a proxy, and a
# `check --deploy` with nothing to say.

# What a server's environment holds: a real key, its host name, its proxy's header.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Q2-k9vR_w3LmZ8pT5yB1nC6dF0hJ4sG-aE2uI7oK3rW9qV5tY1zX8cM6nB4pL0",
    "ALLOWED_HOSTS": "cardroom.example.com",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https",
}
HTTPS_SETTINGS = [
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_PROXY_SSL_HEADER",
]


def _manage(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *argv],
        cwd=PROJECT_ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_debug_is_off_unless_asked_for() -> None:
    assert _settings_from(["DEBUG"], DEBUG="", SECRET_KEY=PRODUCTION["SECRET_KEY"]) == {
        "DEBUG": False
    }
    assert _settings_from(["DEBUG"], DEBUG="true") == {"DEBUG": True}


def test_check_deploy_has_nothing_to_say_in_production_settings() -> None:
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert (result.returncode, result.stderr) == (0, "")
    # The one silenced check is security.W021: HSTS preload is asked for, never assumed.
    assert result.stdout == "System check identified no issues (1 silenced).\n"


def test_check_deploy_does_speak_up_with_debug_on() -> None:
    result = _manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="true")

    assert result.returncode != 0
    # Not W009, the weak key: the key here is .secret_key's if `make run` made
    # one (tests/test_secret_key.py checks the development key's warning).
    for warning in ("W004", "W008", "W012", "W016", "W018"):
        assert f"security.{warning}" in result.stderr


def test_with_debug_off_the_site_is_https_only_behind_its_proxy() -> None:
    assert _settings_from(HTTPS_SETTINGS, **PRODUCTION) == {
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
    }


def test_https_false_turns_the_https_settings_off_together() -> None:
    values = _settings_from(HTTPS_SETTINGS, **{**PRODUCTION, "HTTPS": "false"})

    assert values["SECURE_SSL_REDIRECT"] is values["SESSION_COOKIE_SECURE"] is False
    assert values["CSRF_COOKIE_SECURE"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0


def test_each_https_setting_has_its_own_variable() -> None:
    env = {**PRODUCTION, "SECURE_SSL_REDIRECT": "false", "SECURE_HSTS_SECONDS": "3600"}

    values = _settings_from(HTTPS_SETTINGS, **env)

    assert (values["SECURE_SSL_REDIRECT"], values["SECURE_HSTS_SECONDS"]) == (False, 3600)
    assert values["SESSION_COOKIE_SECURE"] is True


def test_hsts_preload_is_asked_for_and_then_checked() -> None:
    env = {**PRODUCTION, "SECURE_HSTS_PRELOAD": "true"}

    values = _settings_from(["SECURE_HSTS_PRELOAD", "SILENCED_SYSTEM_CHECKS"], **env)

    assert values == {"SECURE_HSTS_PRELOAD": True, "SILENCED_SYSTEM_CHECKS": []}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("X-Forwarded-Proto: https", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("x-forwarded-ssl:on", ("HTTP_X_FORWARDED_SSL", "on")),
    ],
)
def test_env_header_reads_a_header_and_its_value(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: tuple[str, str]
) -> None:
    monkeypatch.setenv("CARDROOM_HEADER", raw)
    assert env_header("CARDROOM_HEADER") == expected
    monkeypatch.delenv("CARDROOM_HEADER")
    assert env_header("CARDROOM_HEADER") is None


@pytest.mark.parametrize("raw", ["X-Forwarded-Proto", "X-Forwarded-Proto:", "X Forwarded: https"])
def test_env_header_refuses_what_is_not_a_header_and_value(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("CARDROOM_HEADER", raw)
    with pytest.raises(
        ImproperlyConfigured, match="CARDROOM_HEADER must be a header and its value"
    ):
        env_header("CARDROOM_HEADER")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("", "admin/"), ("back-office", "back-office/"), ("/staff/room/", "staff/room/")],
)
def test_env_url_path_reads_a_path_with_one_slash_at_its_end(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: str
) -> None:
    monkeypatch.setenv("CARDROOM_PATH", raw)
    assert env_url_path("CARDROOM_PATH", default="admin/") == expected


@pytest.mark.parametrize("raw", ["/", "back office/", "staff//room", "a?b"])
def test_env_url_path_refuses_what_is_not_a_plain_path(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("CARDROOM_PATH", raw)
    with pytest.raises(ImproperlyConfigured, match="CARDROOM_PATH must be a path"):
        env_url_path("CARDROOM_PATH", default="admin/")


def test_admin_url_moves_the_admin_and_its_reports() -> None:
    code = (
        "import django; django.setup(); from django.urls import reverse; "
        "print(reverse('admin:index'), reverse('admin:login'), reverse('rake_report'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardroom.settings", "ADMIN_URL": "back"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["/back/", "/back/login/", "/back/rake-report/"]


def test_email_is_printed_to_the_console_until_a_server_is_named() -> None:
    assert _settings_from(["EMAIL_BACKEND"], EMAIL_HOST="") == {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"
    }
    values = _settings_from(
        ["EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT"], EMAIL_HOST="smtp.example.com"
    )
    assert values == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": 587,
    }


def test_a_500_is_logged_to_stderr_with_debug_off() -> None:
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('django.request').error('Internal Server Error: /boom/')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardroom.settings", **PRODUCTION},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "ERROR django.request: Internal Server Error: /boom/" in result.stderr


def test_login_and_signup_limits_come_from_the_environment() -> None:
    names = ["LOGIN_FAILURE_LIMIT", "LOGIN_ADDRESS_FAILURE_LIMIT", "CARDROOM_SIGNUPS_PER_ADDRESS"]
    values = _settings_from(names, **dict(zip(names, ["3", "80", "12"], strict=True)))
    assert [values[name] for name in names] == [3, 80, 12]


def test_settings_refuse_an_address_failure_limit_of_zero() -> None:
    result = _import_settings_with(LOGIN_ADDRESS_FAILURE_LIMIT="0")
    assert result.returncode != 0
    assert "LOGIN_ADDRESS_FAILURE_LIMIT must be at least 1" in result.stderr
