"""Password reset by email, with Django's views: alice forgot hers."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import AddressQuota, User
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


def test_reset_mails_for_one_email_are_limited_from_any_address(
    client: Client, alice: User, settings
) -> None:
    """Someone flooding alice's mailbox from three addresses gets 3 mails through, not 4."""
    assert settings.CARDROOM_PASSWORD_RESETS_PER_EMAIL == 3  # the default
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])
    responses = [
        client.post(RESET, {"email": "Alice@Example.com"}, REMOTE_ADDR=f"198.51.100.{n}")
        for n in range(4)
    ]

    assert [r.status_code for r in responses] == [302, 302, 302, 429]
    assert len(mail.outbox) == 3
    assert responses[-1].context["form"].non_field_errors() == [
        "Too many password reset mails have been asked for: at most 3 every hour. "
        "Please try again later."
    ]


def test_reset_mails_from_one_address_are_limited_whoever_they_are_for(
    client: Client, db: None, settings
) -> None:
    """Unknown emails count too, so the limit tells nobody who plays here."""
    statuses = [
        client.post(RESET, {"email": f"nobody{n}@example.com"}, REMOTE_ADDR="203.0.113.5")
        for n in range(6)
    ]

    assert [r.status_code for r in statuses] == [302] * 5 + [429]
    assert mail.outbox == []  # none of them is a player's
    again = client.post(RESET, {"email": "nobody9@example.com"}, REMOTE_ADDR="203.0.113.6")
    assert again.status_code == 302  # another address has its own


def test_a_refused_reset_takes_no_use_of_the_other_limit(
    client: Client, db: None, settings
) -> None:
    settings.CARDROOM_PASSWORD_RESETS_PER_EMAIL = 1
    client.post(RESET, {"email": "x@example.com"}, REMOTE_ADDR="203.0.113.5")

    refused = client.post(RESET, {"email": "x@example.com"}, REMOTE_ADDR="203.0.113.6")

    assert refused.status_code == 429
    # The address's use, taken before the email's limit said no, was given back.
    assert not AddressQuota.objects.filter(purpose="reset_address", key="203.0.113.6").exists()
    assert AddressQuota.objects.get(purpose="reset_address", key="203.0.113.5").used == 1
