"""Personas for the accounts tests.

Players sign up through ``user_signup``, so each starts with the configured grant
and its ledger row, like a real player.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from accounts.services import user_signup

ALICE_PASSWORD = "felt-and-chips-42"


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """A cheap hasher: these tests check which password is accepted, not its hashing cost."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def grant() -> int:
    return settings.CARDROOM_SIGNUP_GRANT


@pytest.fixture
def alice(db: None) -> User:
    """A player: sees her own profile and ledger, never any admin page."""
    return user_signup(username="alice", password=ALICE_PASSWORD, display_name="Alice A.")


@pytest.fixture
def bob(db: None) -> User:
    """Another player, whose ledger rows alice must not see."""
    return user_signup(username="bob", password="bob-plays-razz-7", display_name="Bob")


@pytest.fixture
def alice_client(client: Client, alice: User) -> Client:
    client.force_login(alice)
    return client


@pytest.fixture
def clerk(db: None) -> User:
    """Staff who may look at players and the ledger but not change chips."""
    user = User.objects.create_user(username="clerk", password="clerk-pw-9876", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(codename__in=["view_user", "change_user", "view_chiptransfer"])
    )
    return user
