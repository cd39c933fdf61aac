"""Typed readers for the environment variables that configure Cardroom.

Each helper either returns a value of the right type or raises
``ImproperlyConfigured`` naming the variable and what it expected, so a typo in a
deployment fails at start-up instead of surfacing later as odd behaviour.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})

_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql"})
_REDIS_SCHEMES = frozenset({"redis", "rediss"})


def _raw(name: str) -> str | None:
    """The variable's value, treating an empty string as unset.

    Shells and compose files often export ``NAME=`` to mean "not set"; honouring
    that keeps the defaults in one place instead of in every deployment.
    """
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str | None = None) -> str:
    """A string variable; with no default, the variable is required."""
    value = _raw(name)
    if value is not None:
        return value
    if default is None:
        raise ImproperlyConfigured(f"{name} must be set.")
    return default


def env_secret_key(name: str, key_file: Path, default: str) -> str:
    """A secret from the variable, else from ``key_file`` (its text, stripped), else ``default``.

    An empty or missing file counts as unset; one that exists but can't be
    read is an error, not a quiet fall-back. The messages never show the key.
    """
    value = _raw(name)
    if value is not None:
        return value
    try:
        text = key_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return default
    except OSError as error:
        problem = error.strerror
    except UnicodeDecodeError:
        problem = "it is not UTF-8 text"
    else:
        return text or default
    raise ImproperlyConfigured(f"{name} is unset and {key_file} can't be read: {problem}.")


def require_secret_key() -> None:
    """Refuse to serve without Django's signing key.

    The settings leave ``SECRET_KEY`` empty when none is configured, so that
    commands which sign nothing run on a fresh clone (Django checks the key only
    when something reads it). A web server signs sessions, so its entry points
    call this at start-up instead of failing on a player's first login.
    """
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django's own refusal of an empty key
        key = ""
    if not key:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set (or .secret_key, which `make run` makes, must hold it) "
            "to serve the site: sessions and password reset links are signed with it."
        )


def env_bool(name: str, default: bool) -> bool:
    """A boolean variable spelled 1/0, true/false, yes/no or on/off."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {value!r}."
    )


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """A whole-number variable, at least ``minimum``."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}.")
    return number


def env_list(name: str, default: Sequence[str] = ()) -> list[str]:
    """A comma-separated list; blanks around and between items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_header(name: str) -> tuple[str, str] | None:
    """A request header and the value it must have, written ``Header-Name: value``.

    Returned as Django names request headers in ``request.META``, such as
    ``("HTTP_X_FORWARDED_PROTO", "https")``; None when the variable is unset.
    """
    value = _raw(name)
    if value is None:
        return None
    header, colon, expected = (part.strip() for part in value.partition(":"))
    if not colon or not expected or not re.fullmatch(r"[A-Za-z0-9-]+", header):
        raise ImproperlyConfigured(
            f"{name} must be a header and its value, such as 'X-Forwarded-Proto: https'; "
            f"got {value!r}."
        )
    return "HTTP_" + header.upper().replace("-", "_"), expected


def env_url_path(name: str, default: str) -> str:
    """A path under the site's root such as ``admin/`` or ``back/office/``.

    Slashes around it are optional; it comes back with one at the end only.
    """
    value = (_raw(name) or default).strip("/")
    if not re.fullmatch(r"[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*", value):
        raise ImproperlyConfigured(
            f"{name} must be a path such as 'admin/', in letters, digits and . _ ~ - only; "
            f"got {_raw(name)!r}."
        )
    return value + "/"


def env_database(url: str, name: str = "DATABASE_URL") -> dict[str, Any]:
    """Django's ``DATABASES`` entry for a ``sqlite:`` or ``postgres(ql):`` URL,
    given in the variable ``name`` (which errors name).

    ``sqlite:///db.sqlite3`` is relative to the working directory and
    ``sqlite:////var/db.sqlite3`` is absolute, as in most URL-configured apps.
    """
    scheme = url.partition(":")[0].lower()
    if scheme == "sqlite":
        return _sqlite_database(url, name)
    if scheme in _POSTGRES_SCHEMES:
        return _postgres_database(url, name)
    raise ImproperlyConfigured(
        f"{name} scheme {scheme!r} is not supported; use sqlite:///PATH or "
        "postgres://USER:PASSWORD@HOST:PORT/NAME."
    )


def _sqlite_database(url: str, name: str) -> dict[str, Any]:
    prefix = "sqlite:///"
    if not url.lower().startswith(prefix) or len(url) == len(prefix):
        raise ImproperlyConfigured(f"{name} {url!r} names no SQLite file; use sqlite:///PATH.")
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": url[len(prefix) :], **_SQLITE_OPTIONS}


# `make run` has Daphne, a Celery worker and the bots' moves all writing to one
# SQLite file. Write-ahead logging lets readers go on during a write; IMMEDIATE
# transactions take the write lock when they begin, so two writers queue (for
# up to ``timeout`` seconds) instead of one failing at once with "database is
# locked" when it tries to upgrade a read lock.
_SQLITE_OPTIONS = {
    "OPTIONS": {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
}


def _postgres_database(url: str, name: str) -> dict[str, Any]:
    parts = urlsplit(url)
    database = unquote(parts.path.lstrip("/"))
    if not database or "/" in database:
        raise ImproperlyConfigured(
            f"{name} names no PostgreSQL database; use postgres://USER:PASSWORD@HOST:PORT/NAME."
        )
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": database,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": _port(parts, name),
        # Query parameters such as ?sslmode=require go straight to libpq.
        "OPTIONS": dict(parse_qsl(parts.query)),
    }


def env_redis_url(name: str, default: str | None = "") -> str:
    """A ``redis://`` or ``rediss://`` URL, checked but returned as written.

    The empty default means "no Redis configured"; ``default=None`` makes the
    variable required. Messages never repeat the URL: it may hold a password.
    """
    value = _raw(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"{name} must be set.")
        return default
    return _redis_url_checked(name, value)


def env_redis_urls(name: str, default: Sequence[str]) -> list[str]:
    """Comma-separated ``redis://`` URLs, each checked as :func:`env_redis_url`
    checks one; ``default`` when the variable is unset or empty."""
    urls = env_list(name)
    return [_redis_url_checked(name, url) for url in urls] if urls else list(default)


def _redis_url_checked(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme.lower() not in _REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0; "
            f"its scheme is {parts.scheme!r}."
        )
    if not parts.hostname:
        raise ImproperlyConfigured(f"{name} names no host; use redis://HOST:PORT/DB.")
    _port(parts, name)
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise ImproperlyConfigured(f"{name} must end with a database number such as /0.")
    return value


def _port(parts: SplitResult, name: str) -> str:
    # urlsplit checks the port only when .port is read, and then raises a bare
    # ValueError. The message leaves the URL out because it may hold a password.
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} has a bad port; expected a number from 0 to 65535."
        ) from None
    return "" if port is None else str(port)
