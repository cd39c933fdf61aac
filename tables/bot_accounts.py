"""The bots' player accounts, and the sessions that log them in.

A bot is an ordinary player account named ``bot-<n>``, made on first use
through the signup service (so it gets the signup grant like anyone, and its
chips are in the ledger from the start) with a random password nobody knows.
It logs in by a session made here, as ``login()`` would make one, and
never through the login page, so its ``last_login`` stays empty: that is how
:func:`is_bot_account` tells a bot from a person who happened to sign up with
a bot's name, whose account the house must never play.

``manage.py run_bots`` seats them at a table of the room; a home game's host
adds them with :func:`tables.services.home_bot_add`, and ``run_bots --home``
plays those.
"""

from __future__ import annotations

import re
import secrets
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from accounts.models import User
from accounts.services import MODEL_BACKEND, user_signup

BOT_NAME = re.compile(r"bot-(?P<number>[1-9][0-9]*)")


def bot_name(number: int) -> str:
    return f"bot-{number}"


def bot_number(username: str) -> int | None:
    """The ``n`` of a name ``bot-<n>``, or None for any other name.

    >>> bot_number("bot-12"), bot_number("bot-0"), bot_number("bobby")
    (12, None, None)
    """
    found = BOT_NAME.fullmatch(username)
    return int(found["number"]) if found else None


def is_bot_account(user: User) -> bool:
    """Whether ``user`` is a bot's account: a bot's name, never logged in by a
    password (a person's signup logs them in at once), and not staff."""
    return bot_number(user.username) is not None and user.last_login is None and not user.is_staff


def bot_user(number: int) -> User:
    """The account of bot ``number``, created (with the signup grant) on first use."""
    user = User.objects.filter(username=bot_name(number)).first()
    if user is not None:
        return user
    password = secrets.token_urlsafe(24)  # nobody logs in as a bot with a password
    return user_signup(username=bot_name(number), password=password, display_name=f"Bot {number}")


def session_cookie(user: User) -> str:
    """A ``Cookie`` header holding a new logged-in session for ``user``, as login() makes."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    # The backend that loads the user back from the session (django-axes's,
    # listed first, only refuses logins).
    session[BACKEND_SESSION_KEY] = MODEL_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
