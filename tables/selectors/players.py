"""Small reads about a player: their balance, and whether a login session still speaks for them."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib import auth
from django.http import HttpRequest

from accounts.models import User


def player_balance(player_id: int) -> int | None:
    return User.objects.filter(pk=player_id).values_list("balance", flat=True).first()


def player_is_current(player_id: int, session_key: str | None) -> bool:
    """Whether Django's auth, reading the session afresh, still finds this player.

    Not after they logged out (the session is gone), were deactivated, or
    changed their password (the session's hash no longer matches): a socket
    opened with that session must then stop acting for them.
    """
    if session_key is None:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(request).pk == player_id
