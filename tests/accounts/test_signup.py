"""Signing up: a new player with the grant, logged in; bad input creates nothing."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import AddressQuota, ChipTransfer, User

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
    assert '<span class="balance-count">2,500</span>' in page


def assert_nothing_created(client: Client, users_before: int) -> None:
    assert User.objects.count() == users_before
    assert not ChipTransfer.objects.filter(user__username="dana").exists()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("name", ["bot-1", "Bot-27"])
def test_it_refuses_a_house_bots_name(client: Client, db: None, name: str) -> None:
    users_before = User.objects.count()
    response = client.post(SIGNUP, signup_data(username=name))
    assert response.context["form"].errors["username"] == [
        "Names like bot-1 are the house's bots; please choose another."
    ]
    assert User.objects.count() == users_before


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


# ------------------------------------------------------------- the limit per address


def sign_up_many(count: int, address: str = "198.51.100.7") -> list[Any]:
    """``count`` signups from ``address``, each from a browser of its own (a new client)."""
    return [
        Client().post(
            SIGNUP,
            signup_data(
                username=f"farmer{n}", password1=f"f-{n}-hayloft-77", password2=f"f-{n}-hayloft-77"
            ),
            REMOTE_ADDR=address,
        )
        for n in range(count)
    ]


def test_signups_past_the_limit_for_an_address_are_refused_and_grant_nothing(
    client: Client, db: None, settings
) -> None:
    limit = settings.CARDROOM_SIGNUPS_PER_ADDRESS
    assert limit == 20  # the production default: a household, or a home game at the host's

    responses = sign_up_many(limit + 1)

    assert [r.status_code for r in responses] == [302] * limit + [429]
    refused = responses[-1]
    assert refused.context["form"].non_field_errors() == [
        "Too many accounts have been made from your address: at most 20 every 24 hours. "
        "Please try again later."
    ]
    assert "Too many accounts have been made from your address" in refused.content.decode()
    assert not User.objects.filter(username=f"farmer{limit}").exists()
    assert ChipTransfer.objects.filter(kind="grant").count() == limit


def test_the_limit_is_per_address(client: Client, db: None, settings) -> None:
    settings.CARDROOM_SIGNUPS_PER_ADDRESS = 1
    sign_up_many(1, address="198.51.100.7")

    response = client.post(SIGNUP, signup_data(), REMOTE_ADDR="203.0.113.9")

    assert response.status_code == 302
    assert User.objects.filter(username="dana").exists()


def test_a_refused_form_does_not_use_up_the_addresss_signups(
    client: Client, db: None, settings
) -> None:
    settings.CARDROOM_SIGNUPS_PER_ADDRESS = 1
    client.post(SIGNUP, signup_data(password2="a-typo-here-99"))

    response = client.post(SIGNUP, signup_data())

    assert response.status_code == 302


def test_the_address_may_sign_up_again_once_its_window_is_over(
    client: Client, db: None, settings
) -> None:
    settings.CARDROOM_SIGNUPS_PER_ADDRESS = 1
    sign_up_many(1)
    quota = AddressQuota.objects.get(purpose="signup", key="198.51.100.7")
    AddressQuota.objects.filter(pk=quota.pk).update(
        window_started=quota.window_started - datetime.timedelta(hours=24)
    )

    response = client.post(SIGNUP, signup_data(), REMOTE_ADDR="198.51.100.7")

    assert response.status_code == 302


def test_no_limit_when_the_setting_is_zero(db: None, settings) -> None:
    settings.CARDROOM_SIGNUPS_PER_ADDRESS = 0

    assert [r.status_code for r in sign_up_many(7)] == [302] * 7


def test_the_email_given_at_signup_is_kept_for_password_resets(client: Client, db: None) -> None:
    client.post(SIGNUP, signup_data(email="dana@example.com"))

    assert User.objects.get(username="dana").email == "dana@example.com"


# ------------------------------------------------------------------ long usernames


def test_a_200_character_username_is_refused_with_a_clear_error(client: Client, db: None) -> None:
    response = client.post(SIGNUP, signup_data(username="d" * 200))

    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [
        "A username has at most 24 characters; this one has 200."
    ]
    assert "A username has at most 24 characters; this one has 200." in response.content.decode()
    assert_nothing_created(client, users_before=0)


def test_a_username_of_24_characters_is_taken_and_25_refused(client: Client, db: None) -> None:
    refused = client.post(SIGNUP, signup_data(username="d" * 25))
    assert "username" in refused.context["form"].errors

    response = client.post(SIGNUP, signup_data(username="d" * 24))

    assert response.status_code == 302
    assert User.objects.filter(username="d" * 24).exists()


def test_the_page_leaves_the_length_to_the_server_and_says_the_limit(
    client: Client, db: None
) -> None:
    """A maxlength in the page would let the browser cut a longer name without a word."""
    page = client.get(SIGNUP).content.decode()
    username_input = re.search(r'<input [^>]*name="username"[^>]*>', page).group(0)

    assert "maxlength" not in username_input
    assert "Up to 24 letters, digits and @ . + - _." in page


def test_the_help_texts_say_which_name_others_see(client: Client, db: None) -> None:
    page = client.get(SIGNUP).content.decode()

    assert "The name other players see at the table" not in page
    assert "it is your name at the tables, in hand logs and in hand histories" in page
    assert "How the site greets you: at the top of every page and on your profile." in page
