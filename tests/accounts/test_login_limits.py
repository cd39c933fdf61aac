"""Too many wrong passwords lock an account, or an address, out of logging in.

alice is the player someone guesses at; bob is a friend of hers who plays from
the same home address (HOME) and forgets his password; a guesser works from
GUESSER. LOGIN_FAILURE_LIMIT wrong passwords for one account (from anywhere)
refuse logins to that account; only LOGIN_ADDRESS_FAILURE_LIMIT, far more, from
one address (for any accounts) refuse logins from that address. Either lasts,
even against the right password, until LOGIN_LOCKOUT_MINUTES have passed since
the last failure.
"""

from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import ALICE_PASSWORD

LOGIN, ADMIN_LOGIN = reverse("accounts:login"), reverse("admin:login")
GUESSER, ELSEWHERE, HOME = "198.51.100.7", "203.0.113.9", "192.0.2.50"
BOB_PASSWORD = "bob-plays-razz-7"


def log_in(client: Client, username: str, password: str, address: str, url: str = LOGIN):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_limits_in_force_are_the_settings(db: None) -> None:
    assert settings.AXES_FAILURE_LIMIT == settings.LOGIN_FAILURE_LIMIT == 5
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 50
    assert settings.AXES_HANDLER == "accounts.lockout.LoginLimitsHandler"
    cool_off = settings.AXES_COOLOFF_TIME
    assert cool_off == datetime.timedelta(minutes=15)


def test_fewer_wrong_passwords_than_the_limit_leave_the_right_one_working(
    client: Client, alice: User
) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert log_in(client, "alice", "guess", GUESSER).status_code == 200

    response = log_in(client, "alice", ALICE_PASSWORD, GUESSER)

    assert response.status_code == 302
    assert logged_in(client)


def test_the_last_wrong_password_allowed_gets_the_lockout_page(client: Client, alice: User) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        log_in(client, "alice", "guess", GUESSER)

    response = log_in(client, "alice", "guess", GUESSER)

    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "until 15" in page and "minutes have passed" in page
    assert f'href="{reverse("accounts:password_reset")}"' in page


def test_the_nth_wrong_password_locks_the_account_even_against_the_right_one(
    client: Client, alice: User
) -> None:
    # Guesses from many addresses, so only the account's own count can stop them.
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        log_in(client, "alice", f"guess-{n}", f"192.0.2.{n + 1}")

    response = log_in(client, "alice", ALICE_PASSWORD, ELSEWHERE)

    assert response.status_code == 429
    assert not logged_in(client)


def test_a_friend_locked_out_at_one_address_leaves_the_others_logging_in(
    client: Client, alice: User, bob: User
) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        log_in(client, "bob", "what-was-it", HOME)
    assert log_in(client, "bob", BOB_PASSWORD, HOME).status_code == 429

    response = log_in(client, "alice", ALICE_PASSWORD, HOME)

    assert response.status_code == 302
    assert logged_in(client)


def test_the_lockout_page_says_it_is_the_account_and_others_may_log_in(
    client: Client, bob: User
) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        log_in(client, "bob", "what-was-it", HOME)

    page = log_in(client, "bob", "what-was-it", HOME).content.decode()

    assert "The account <strong>bob</strong> has had 5 wrong passwords" in page
    assert "Other accounts can still log in from your address." in page
    assert "Your address has sent" not in page


def test_the_address_is_locked_for_every_account_only_at_its_own_limit(
    client: Client, alice: User
) -> None:
    # One guess per account, so only the address's count can stop them.
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1):
        assert log_in(client, f"player-{n}", "guess", GUESSER).status_code == 200
    assert log_in(client, "alice", ALICE_PASSWORD, GUESSER).status_code == 302
    client.logout()

    last = log_in(client, "player-last", "guess", GUESSER)

    assert last.status_code == 429
    assert "Your address has sent 50 wrong passwords, for any accounts" in last.content.decode()
    assert log_in(client, "alice", ALICE_PASSWORD, GUESSER).status_code == 429
    assert not logged_in(client)
    # The account itself is not locked: from another address alice gets in.
    assert log_in(client, "alice", ALICE_PASSWORD, ELSEWHERE).status_code == 302
    assert logged_in(client)


def test_the_address_limit_is_the_setting_in_force(client: Client, alice: User, settings) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    for n in range(3):
        log_in(client, f"player-{n}", "guess", GUESSER)

    assert log_in(client, "alice", ALICE_PASSWORD, GUESSER).status_code == 429


def test_a_success_from_the_address_does_not_clear_its_failures(
    client: Client, alice: User, bob: User, settings
) -> None:
    """Else a guesser with an account of their own could log in between guesses."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    for n in range(5):
        log_in(client, f"player-{n}", "guess", GUESSER)
    assert log_in(client, "bob", BOB_PASSWORD, GUESSER).status_code == 302
    client.logout()

    assert log_in(client, "player-5", "guess", GUESSER).status_code == 429
    assert log_in(client, "bob", BOB_PASSWORD, GUESSER).status_code == 429


def test_a_success_does_not_clear_the_accounts_failures(
    client: Client, alice: User, bob: User
) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        log_in(client, "alice", "guess", GUESSER)
    assert log_in(client, "alice", ALICE_PASSWORD, ELSEWHERE).status_code == 302
    client.logout()

    assert log_in(client, "alice", "guess", GUESSER).status_code == 429
    assert log_in(client, "alice", ALICE_PASSWORD, ELSEWHERE).status_code == 429


def test_the_lockout_ends_once_the_minutes_have_passed_since_the_last_failure(
    client: Client, alice: User
) -> None:
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        log_in(client, "alice", "guess", GUESSER)
    assert log_in(client, "alice", ALICE_PASSWORD, GUESSER).status_code == 429

    # That refusal counted as a failure too: move every failure back past the lockout.
    long_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=16)
    AccessAttempt.objects.update(attempt_time=long_ago)

    assert log_in(client, "alice", ALICE_PASSWORD, GUESSER).status_code == 302
    assert logged_in(client)


def test_the_admin_login_is_locked_out_too(client: Client, db: None) -> None:
    User.objects.create_superuser(username="boss", password="the-real-one-42")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        log_in(client, "boss", "guess", GUESSER, url=ADMIN_LOGIN)

    response = log_in(client, "boss", "the-real-one-42", ELSEWHERE, url=ADMIN_LOGIN)

    assert response.status_code == 429
    assert not logged_in(client)


def test_a_friend_locked_out_of_the_admin_login_leaves_staff_at_that_address_in(
    client: Client, bob: User
) -> None:
    User.objects.create_superuser(username="boss", password="the-real-one-42")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        log_in(client, "bob", "what-was-it", HOME, url=ADMIN_LOGIN)

    response = log_in(client, "boss", "the-real-one-42", HOME, url=ADMIN_LOGIN)

    assert response.status_code == 302
    assert logged_in(client)


def test_the_admin_login_is_locked_for_an_address_at_its_limit(
    client: Client, db: None, settings
) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    User.objects.create_superuser(username="boss", password="the-real-one-42")
    for n in range(8):
        log_in(client, f"admin-{n}", "guess", GUESSER, url=ADMIN_LOGIN)

    refused = log_in(client, "boss", "the-real-one-42", GUESSER, url=ADMIN_LOGIN)

    assert refused.status_code == 429
    assert not logged_in(client)
    assert log_in(client, "boss", "the-real-one-42", ELSEWHERE, url=ADMIN_LOGIN).status_code == 302


@pytest.mark.parametrize("url", [LOGIN, ADMIN_LOGIN])
def test_failures_are_recorded_with_the_account_and_address(
    client: Client, alice: User, url: str
) -> None:
    log_in(client, "alice", "guess", GUESSER, url=url)

    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == (
        "alice",
        GUESSER,
        1,
    )
