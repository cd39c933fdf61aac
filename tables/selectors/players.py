"""Small reads about a player: their balance, whether a login session still speaks
for them, and which of their fields a table's rows read."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.models import Session
from django.db import connection
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User

# What a table's rows need of a player: who they are, the name shown, and the
# balance a standing viewer is shown. The reads of a table's seats, waiting
# list and host load no more (:func:`only_row_fields`), and carried rows carry
# no more (``tables.selectors.carried``).
ROW_FIELDS = ("id", "username", "balance")


def only_row_fields(*relations: str) -> list[str]:
    """What ``defer()`` takes to leave every account field but :data:`ROW_FIELDS`
    unread on the players a queryset follows through ``relations``."""
    return [
        f"{relation}__{field.name}"
        for relation in relations
        for field in User._meta.concrete_fields
        if field.attname not in ROW_FIELDS
    ]


def player_balance(player_id: int) -> int | None:
    return User.objects.filter(pk=player_id).values_list("balance", flat=True).first()


def player_is_current(player_id: int, session_key: str | None) -> bool:
    """Whether Django's auth, reading the session afresh, still finds this player.

    Not after they logged out (the session is gone), were deactivated, or
    changed their password (the session's hash no longer matches): a socket
    opened with that session must then stop acting for them.

    Asked before every move, so it is one query: the session's row and the
    user's, read together. Auth's answer depends on nothing else, so while
    both read as they did when auth last said yes, it says yes again without
    being asked (:data:`VOUCHED`). A move sends that query with its own
    first round trip (:class:`LoginCheck`).
    """
    return LoginCheck(player_id, session_key).current()


class NoLongerCurrent(Exception):
    """The socket's user logged out, was deactivated or changed their password."""


class LoginCheck:
    """:func:`player_is_current` in two steps, for a caller that sends its
    query with others (``tables.compiled.one_trip``): :meth:`send` inside the
    trip, then :meth:`confirm` or :meth:`current` after it. Asked unsent, it
    sends its query then."""

    def __init__(self, player_id: int, session_key: str | None) -> None:
        self.player_id, self.session_key = player_id, session_key
        self._sent: Any = None  # the cursor the query was sent on

    def send(self) -> None:
        if self.session_key is None or settings.SESSION_ENGINE != DB_SESSIONS:
            return  # nothing to read, or auth reads it another way
        cursor = connection.cursor()
        cursor.execute(_SESSION_AND_USER, [self.session_key, timezone.now(), self.player_id])
        self._sent = cursor

    def confirm(self) -> None:
        """Raise :class:`NoLongerCurrent` unless the login still speaks for the player."""
        if not self.current():
            raise NoLongerCurrent

    def current(self) -> bool:
        player_id, session_key = self.player_id, self.session_key
        if session_key is None:
            return False
        if settings.SESSION_ENGINE != DB_SESSIONS:
            return _auth_finds(player_id, session_key)
        if self._sent is None:
            self.send()
        with self._sent as cursor:
            row = cursor.fetchone()
        self._sent = None
        if row is None:  # logged out, expired, or no such user
            return False
        seen = hashlib.blake2b(repr(row).encode(), digest_size=16).digest()
        if VOUCHED.get((player_id, session_key)) == seen:
            return True
        if not _auth_finds(player_id, session_key):
            return False
        VOUCHED.put((player_id, session_key), seen)
        return True


def _auth_finds(player_id: int, session_key: str) -> bool:
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(request).pk == player_id


DB_SESSIONS = "django.contrib.sessions.backends.db"

# What auth.get_user reads: the session's data (which user, which backend,
# the password's hash when logged in), the user's password and whether they
# are active.
_SESSION_AND_USER = (
    f"SELECT s.session_data, u.password, u.is_active "
    f"FROM {Session._meta.db_table} s, {User._meta.db_table} u "
    f"WHERE s.session_key = %s AND s.expire_date > %s AND u.id = %s"
)


class Vouched:
    """The logins auth last found current, each with a digest of the rows it
    read: the newest ``KEEP`` of this process's."""

    KEEP = 4096

    def __init__(self) -> None:
        self.seen: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    def get(self, login: tuple[int, str]) -> bytes | None:
        return self.seen.get(login)

    def put(self, login: tuple[int, str], seen: bytes) -> None:
        self.seen[login] = seen
        self.seen.move_to_end(login)
        while len(self.seen) > self.KEEP:
            self.seen.popitem(last=False)


VOUCHED = Vouched()
