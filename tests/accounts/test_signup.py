"""Signing up: a new player with the grant, logged in; bad input creates nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import ChipTransfer, User

SIGNUP = reverse("accounts:signup")


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "dana",
        "display_name": "Dana the Dealer",
        "password1": "seventh-street-77",
        "password2": "seventh-street-77",
    }
    return {**data, **overrides}


def test_the_signup_page_shows_the_form(client: Client, db: None) -> None:
    response = client.get(SIGNUP)

    assert response.status_code == 200
    for name in ("username", "display_name", "password1", "password2"):
        assert f'name="{name}"' in response.content.decode()


def test_it_creates_the_player_with_the_grant_in_the_ledger(client: Client, db: None) -> None:
    client.post(SIGNUP, signup_data())

    dana = User.objects.get(username="dana")
    grant = ChipTransfer.objects.get(user=dana)
    assert dana.display_name == "Dana the Dealer"
    assert dana.check_password("seventh-street-77")
    assert (grant.kind, grant.amount, grant.balance_after) == ("grant", dana.balance, dana.balance)
    assert dana.balance > 0


def test_it_logs_the_new_player_in_and_says_how_many_chips(
    client: Client, db: None, settings
) -> None:
    settings.CARDROOM_SIGNUP_GRANT = 2500

    response = client.post(SIGNUP, signup_data())

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="dana").pk
    notes = [str(message) for message in get_messages(response.wsgi_request)]
    assert notes == ["Welcome, Dana the Dealer! You have been granted 2,500 play chips."]


def test_the_lobby_then_shows_the_message_name_and_balance(
    client: Client, db: None, settings
) -> None:
    settings.CARDROOM_SIGNUP_GRANT = 2500

    response = client.post(SIGNUP, signup_data(), follow=True)

    page = response.content.decode()
    assert "You have been granted 2,500 play chips." in page
    assert "Dana the Dealer" in page
    assert "2500 chips" in page


def assert_nothing_created(client: Client, users_before: int) -> None:
    assert User.objects.count() == users_before
    assert not ChipTransfer.objects.filter(user__username="dana").exists()
    assert "_auth_user_id" not in client.session


def test_it_refuses_a_taken_username_whatever_its_case(client: Client, alice: User) -> None:
    users_before = User.objects.count()

    response = client.post(SIGNUP, signup_data(username="ALICE"))

    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [
        "That username is taken; please choose another."
    ]
    assert "That username is taken" in response.content.decode()
    assert User.objects.count() == users_before
    assert ChipTransfer.objects.count() == 1  # alice's own grant only
    assert "_auth_user_id" not in client.session


def test_it_refuses_passwords_that_differ(client: Client, db: None) -> None:
    response = client.post(SIGNUP, signup_data(password2="seventh-street-78"))

    assert response.status_code == 200
    assert "The two passwords don&#x27;t match." in response.content.decode()
    assert_nothing_created(client, users_before=0)


@pytest.mark.parametrize(
    ("password", "complaint"),
    [
        ("password", "This password is too common."),
        ("short7", "This password is too short. It must contain at least 8 characters."),
        ("4815162342", "This password is entirely numeric."),
    ],
)
def test_it_applies_the_password_validators(
    client: Client, db: None, password: str, complaint: str
) -> None:
    response = client.post(SIGNUP, signup_data(password1=password, password2=password))

    assert complaint in response.context["form"].errors["password2"]
    assert_nothing_created(client, users_before=0)


def test_it_refuses_a_password_like_the_username(client: Client, db: None) -> None:
    data = signup_data(username="razzmatazz", password1="razzmatazz1", password2="razzmatazz1")

    response = client.post(SIGNUP, data)

    assert response.context["form"].errors["password2"] == [
        "The password is too similar to the username."
    ]
    assert_nothing_created(client, users_before=0)


def test_it_refuses_a_username_with_spaces(client: Client, db: None) -> None:
    response = client.post(SIGNUP, signup_data(username="dana d"))

    assert "username" in response.context["form"].errors
    assert_nothing_created(client, users_before=0)


def test_a_logged_in_player_is_sent_to_the_lobby(alice_client: Client) -> None:
    response = alice_client.get(SIGNUP)

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")


def test_signup_goes_on_to_the_page_that_asked_for_it(client: Client, db: None) -> None:
    page = client.get(SIGNUP, {"next": "/tables/7/"}).content.decode()
    assert '<input type="hidden" name="next" value="/tables/7/">' in page

    response = client.post(SIGNUP, signup_data(next="/tables/7/"))

    assert response["Location"] == "/tables/7/"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/tables/"])
def test_signup_goes_to_the_lobby_instead_of_another_site(
    client: Client, db: None, target: str
) -> None:
    response = client.post(SIGNUP, signup_data(next=target))

    assert response["Location"] == reverse("lobby")


def test_the_email_given_at_signup_is_kept_for_password_resets(client: Client, db: None) -> None:
    client.post(SIGNUP, signup_data(email="dana@example.com"))

    assert User.objects.get(username="dana").email == "dana@example.com"
