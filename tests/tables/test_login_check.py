"""The check before every move that a socket's login still speaks for its player.

``player_is_current`` asks Django's auth the first time, and after that reads
the session's row and the user's in one query, asking auth again only when
either has changed. Every way a login ends must still be caught the moment
it happens, by the next check, including the bulk updates no signal reports.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from tables.selectors.players import VOUCHED, player_is_current
from tests.tables.conftest import session_of

pytestmark = pytest.mark.django_db


def test_a_login_auth_found_current_is_checked_again_in_one_query(alice: User) -> None:
    key = session_of(alice)
    assert player_is_current(alice.pk, key)  # auth asked: it reads the session and the user
    with CaptureQueriesContext(connection) as queries:
        assert player_is_current(alice.pk, key)
    assert len(queries) == 1


def deactivate(user: User, key: str) -> None:
    User.objects.filter(pk=user.pk).update(is_active=False)


def change_password(user: User, key: str) -> None:
    User.objects.filter(pk=user.pk).update(password=make_password("a-new-secret-words"))


def log_out(user: User, key: str) -> None:
    Session.objects.filter(session_key=key).delete()


def expire(user: User, key: str) -> None:
    earlier = timezone.now() - timedelta(seconds=1)
    Session.objects.filter(session_key=key).update(expire_date=earlier)


@pytest.mark.parametrize(
    "end", [deactivate, change_password, log_out, expire], ids=lambda f: f.__name__
)
def test_a_login_ended_quietly_after_it_was_vouched_for_is_refused_at_once(
    alice: User, end: Callable[[User, str], None]
) -> None:
    key = session_of(alice)
    assert player_is_current(alice.pk, key)
    end(alice, key)  # a bulk update or delete: no signal tells the sockets
    assert not player_is_current(alice.pk, key)


def test_a_session_changed_by_the_site_is_asked_about_again(alice: User) -> None:
    key = session_of(alice)
    assert player_is_current(alice.pk, key)
    session = SessionStore(key)
    session["_auth_user_id"] = "0"  # the session now says someone else
    session.save()
    assert not player_is_current(alice.pk, key)


def test_someone_elses_session_never_speaks_for_a_player(alice: User, bob: User) -> None:
    key = session_of(bob)
    assert player_is_current(bob.pk, key)
    assert not player_is_current(alice.pk, key)
    assert not player_is_current(alice.pk, None)
    assert not player_is_current(alice.pk, "no-such-session")


def test_only_the_newest_logins_are_remembered(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(VOUCHED, "KEEP", 2)
    keys = [session_of(alice) for _ in range(3)]
    for key in keys:
        assert player_is_current(alice.pk, key)
    assert VOUCHED.get((alice.pk, keys[0])) is None
    assert all(VOUCHED.get((alice.pk, key)) is not None for key in keys[1:])
