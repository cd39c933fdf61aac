"""Passwords built on the site's name or the game's words are refused wherever a
password is chosen: signup, the profile's password change, a reset link and
the admin; Django's own validators still apply beside this one."""

from __future__ import annotations

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from accounts.passwords import own_letters
from tests.accounts.conftest import ALICE_PASSWORD

SIGNUP, PROFILE = reverse("accounts:signup"), reverse("accounts:profile")
REFUSAL = (
    "This password is built on the site’s name or the game’s words (such as cardroom, poker "
    "or stud), which password guessers try first, however they are spelled. "
    "Add words of your own."
)
# Each is the site's name or the game's words, with what a guesser's list adds.
BUILT_ON_SITE_WORDS = [
    "cardroom",
    "Cardroom1",
    "cardroom123",
    "CARDROOM!!",
    "C@rdr00m2024",
    "cardroomcardroom",
    "my-cardroom",
    "pokerpoker",
    "P0k3r!!!",
    "Razz2024!",
    "7-card-stud",
    "SevenCardStud",
    "studhilo8",
    "h0ld3m-99",
]
# Passwords that hold a site word among enough of their own.
OWN_ENOUGH = ["cardroom-is-my-favourite-place", "felt-and-chips-42", "seventh-street-77"]


def sign_up(client: Client, password: str) -> object:
    data = {"username": "dana", "password1": password, "password2": password}
    return client.post(SIGNUP, data)


@pytest.mark.parametrize("password", BUILT_ON_SITE_WORDS)
def test_signup_refuses_a_password_built_on_the_sites_words(
    client: Client, db: None, password: str
) -> None:
    response = sign_up(client, password)

    assert REFUSAL in response.context["form"].errors["password2"]
    assert not User.objects.filter(username="dana").exists()


@pytest.mark.parametrize("password", OWN_ENOUGH)
def test_signup_takes_a_password_with_enough_of_its_own(
    client: Client, db: None, password: str
) -> None:
    response = sign_up(client, password)

    assert response.status_code == 302
    assert User.objects.get(username="dana").check_password(password)


def test_djangos_validators_still_speak_beside_it(client: Client, db: None) -> None:
    errors = sign_up(client, "p0ker").context["form"].errors["password2"]

    assert "This password is too short. It must contain at least 8 characters." in errors
    assert REFUSAL in errors


def test_the_signup_form_says_so_before_anyone_tries(client: Client, db: None) -> None:
    page = client.get(SIGNUP).content.decode()

    assert "can’t be built on this site’s name or the game’s words" in page


@pytest.mark.parametrize("password", ["cardroom", "Cardroom1", "cardroom123", "P0k3r!!!"])
def test_the_profiles_password_change_refuses_them_too(
    alice_client: Client, alice: User, password: str
) -> None:
    response = alice_client.post(
        PROFILE,
        {
            "which": "password",
            "old_password": ALICE_PASSWORD,
            "new_password1": password,
            "new_password2": password,
        },
    )

    assert REFUSAL in response.context["password"].errors["new_password2"]
    alice.refresh_from_db()
    assert alice.check_password(ALICE_PASSWORD)


def test_a_reset_link_refuses_them_too(client: Client, alice: User) -> None:
    link = reverse(
        "accounts:password_reset_confirm",
        args=[
            urlsafe_base64_encode(force_bytes(alice.pk)),
            default_token_generator.make_token(alice),
        ],
    )
    form_page = client.get(link, follow=True)  # Django moves the token into the session

    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "Cardroom1", "new_password2": "Cardroom1"},
    )

    assert REFUSAL in response.context["form"].errors["new_password2"]
    alice.refresh_from_db()
    assert alice.check_password(ALICE_PASSWORD)


def test_the_admins_add_user_refuses_them_too(admin_client: Client) -> None:
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "dana",
            "usable_password": "true",
            "password1": "cardroom123",
            "password2": "cardroom123",
        },
    )

    assert REFUSAL in response.context["adminform"].form.errors["password2"]
    assert not User.objects.filter(username="dana").exists()


@pytest.mark.parametrize(
    ("password", "left"),
    [
        ("C@rdr00m-2024!", 0),
        ("7cardstud", 0),  # "card" and "stud", not "cards" and a stray "tud"
        ("my-Poker-night", 7),
        ("zzz", 3),
        ("", 0),
    ],
)
def test_own_letters_counts_what_is_not_the_sites_words(password: str, left: int) -> None:
    assert own_letters(password) == left
