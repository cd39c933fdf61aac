"""Password reset by email, with Django's views: alice forgot hers."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import ALICE_PASSWORD

RESET = reverse("accounts:password_reset")
NEW_PASSWORD = "a-brand-new-one-58"


def emailed_link(alice: User, client: Client) -> str:
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])
    response = client.post(RESET, {"email": "ALICE@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/password-reset/\S+/)", message.body)
    assert link is not None, message.body
    return link[1]


def test_the_login_page_links_to_the_reset(client: Client, db: None) -> None:
    page = client.get(reverse("accounts:login")).content.decode()

    assert f'href="{RESET}"' in page


def test_the_reset_page_is_the_site_form(client: Client, db: None) -> None:
    page = client.get(RESET).content.decode()

    assert '<form method="post" class="form"' in page
    assert 'name="email"' in page
    assert "Reset your password" in page


def test_a_player_resets_her_password_through_the_emailed_link(client: Client, alice: User) -> None:
    link = emailed_link(alice, client)
    assert mail.outbox[0].subject == "Reset your Cardroom password"
    assert "alice" in mail.outbox[0].body

    form = client.get(link, follow=True)  # the link hides its token behind a redirect
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    assert done["Location"] == reverse("accounts:password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(ALICE_PASSWORD)


def test_a_link_works_only_once(client: Client, alice: User) -> None:
    link = emailed_link(alice, client)
    form = client.get(link, follow=True)
    passwords = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    client.post(form.redirect_chain[-1][0], passwords)

    again = Client().get(link, follow=True)

    assert "This link no longer works" in again.content.decode()


def test_the_new_password_must_pass_the_validators(client: Client, alice: User) -> None:
    link = emailed_link(alice, client)
    form = client.get(link, follow=True)

    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": "password", "new_password2": "password"}
    )

    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(ALICE_PASSWORD)


def test_an_unknown_address_gets_the_same_answer_and_no_email(client: Client, alice: User) -> None:
    response = client.post(RESET, {"email": "nobody@example.com"}, follow=True)

    assert response.redirect_chain == [(reverse("accounts:password_reset_done"), 302)]
    assert "If an account has that email address" in response.content.decode()
    assert mail.outbox == []
