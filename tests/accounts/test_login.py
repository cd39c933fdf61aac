"""Logging in and out with Django's auth views, and what the header shows."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import ALICE_PASSWORD

LOGIN, LOGOUT, HOME = reverse("accounts:login"), reverse("accounts:logout"), reverse("home")
LOBBY = reverse("lobby")


def test_a_player_logs_in_and_lands_in_the_lobby(client: Client, alice: User) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": ALICE_PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == LOBBY
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_login_goes_on_to_the_page_that_asked_for_it(client: Client, alice: User) -> None:
    profile = reverse("accounts:profile")

    response = client.post(
        LOGIN, {"username": "alice", "password": ALICE_PASSWORD, "next": profile}
    )

    assert response["Location"] == profile


def test_login_goes_to_the_lobby_instead_of_another_site(client: Client, alice: User) -> None:
    response = client.post(
        LOGIN, {"username": "alice", "password": ALICE_PASSWORD, "next": "https://evil.example/"}
    )

    assert response["Location"] == LOBBY


def test_the_login_page_passes_next_on_to_the_signup_link(client: Client, db: None) -> None:
    page = client.get(LOGIN, {"next": "/tables/7/"}).content.decode()

    assert f'href="{reverse("accounts:signup")}?next=/tables/7/"' in page


def test_a_wrong_password_is_refused_with_a_message(client: Client, alice: User) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": "not-her-password"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_logs_out_and_says_so(alice_client: Client) -> None:
    response = alice_client.post(LOGOUT, follow=True)

    assert response.redirect_chain == [(HOME, 302)]
    assert "_auth_user_id" not in alice_client.session
    assert "You have logged out." in response.content.decode()


def test_logout_refuses_a_get(alice_client: Client) -> None:
    response = alice_client.get(LOGOUT)

    assert response.status_code == 405
    assert "_auth_user_id" in alice_client.session


def test_the_header_offers_login_and_signup_to_a_visitor(client: Client, db: None) -> None:
    page = client.get(HOME).content.decode()

    assert f'href="{LOGIN}"' in page
    assert f'href="{reverse("accounts:signup")}"' in page
    assert f'action="{LOGOUT}"' not in page


def test_the_header_shows_the_players_name_balance_and_logout(
    alice_client: Client, alice: User, grant: int
) -> None:
    page = alice_client.get(HOME).content.decode()

    assert "Alice A." in page
    assert f'<span class="balance-count">{grant:,}</span>' in page  # 10,000, as pages write chips
    assert f'action="{LOGOUT}"' in page
    assert f'href="{LOGIN}"' not in page


def test_an_account_made_before_the_username_limit_still_logs_in(client: Client, db: None) -> None:
    """The limit is for new names: a 60-character one from before it keeps working."""
    long_name = "an-old-account-with-a-name-from-before-the-limit-" + "x" * 11
    User.objects.create_user(username=long_name, password="older-than-limits-42")

    response = client.post(LOGIN, {"username": long_name, "password": "older-than-limits-42"})

    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200
