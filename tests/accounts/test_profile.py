"""The profile page: the player's balance and their own recent ledger rows."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import ledger_post
from tables.models import Stakes, Table
from tests.accounts.conftest import ALICE_PASSWORD

PROFILE = reverse("accounts:profile")


def test_a_visitor_is_sent_to_log_in(client: Client, db: None) -> None:
    response = client.get(PROFILE)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={PROFILE}"


def test_it_shows_the_balance_and_the_players_own_rows(
    alice_client: Client, alice: User, bob: User
) -> None:
    ledger_post(user_id=alice.pk, kind="adjustment", amount=-250, note="alice's correction")
    ledger_post(user_id=bob.pk, kind="adjustment", amount=75, note="bob's correction")

    response = alice_client.get(PROFILE)

    alice.refresh_from_db()
    page = response.content.decode()
    assert f"Balance: <strong>{alice.balance:,}</strong>" in page
    assert "alice&#x27;s correction" in page
    assert "-250" in page
    assert "bob&#x27;s correction" not in page
    assert [t.user_id for t in response.context["transfers"]] == [alice.pk, alice.pk]


def test_each_chip_movement_gives_its_instant_for_the_browser_to_localize(
    alice_client: Client, alice: User
) -> None:
    """The text is the site's zone; ``datetime`` is the exact instant, which
    local-times.js writes in the browser's zone, as on the hand pages."""
    page = alice_client.get(PROFILE).content.decode()

    (grant,) = alice.transfers.all()
    found = re.findall(r'<time datetime="([^"]+)" data-local="date-minute">', page)
    assert [datetime.fromisoformat(instant) for instant in found] == [grant.created_at]


def test_a_player_sets_the_email_for_password_resets(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        PROFILE, {"which": "email", "email": "alice@example.com"}, follow=True
    )

    assert response.redirect_chain == [(PROFILE, 302)]
    assert "Your email address is saved." in response.content.decode()
    assert 'value="alice@example.com"' in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_an_empty_email_removes_it(alice_client: Client, alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(email="alice@example.com")

    alice_client.post(PROFILE, {"which": "email", "email": ""})

    alice.refresh_from_db()
    assert alice.email == ""


def test_a_bad_email_is_refused_and_changes_nothing(alice_client: Client, alice: User) -> None:
    response = alice_client.post(PROFILE, {"which": "email", "email": "not an address"})

    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == ""


def test_a_player_chooses_a_four_colour_deck_and_large_cards_for_every_page(
    alice_client: Client, alice: User
) -> None:
    assert 'class="cards-normal"' in alice_client.get(PROFILE).content.decode()

    response = alice_client.post(
        PROFILE, {"which": "cards", "four_colour_deck": "on", "card_size": "large"}, follow=True
    )

    assert response.redirect_chain == [(PROFILE, 302)]
    assert "Your table preferences are saved." in response.content.decode()
    alice.refresh_from_db()
    assert (alice.four_colour_deck, alice.card_size) == (True, "large")
    # The body says so on every page, so the cards on the table and in the history follow.
    for page in (PROFILE, reverse("lobby"), reverse("my_hands")):
        assert '<body class="four-colour cards-large">' in alice_client.get(page).content.decode()


def test_sounds_and_animations_are_kept_and_reach_the_table_page(
    alice_client: Client, alice: User
) -> None:
    stakes = Stakes.objects.create(
        name="Stud 5/10", ante=1, bring_in=2, small_bet=5, big_bet=10, min_buy_in=50, max_buy_in=500
    )
    page = reverse("table", args=[Table.objects.create(name="Table 1", stakes=stakes).pk])
    shown = alice_client.get(page).content.decode()
    assert 'data-sounds="1"' in shown and 'data-animations="1"' in shown

    # Unticked boxes post nothing: both turn off, the card choices stay.
    alice_client.post(PROFILE, {"which": "cards", "card_size": "normal"})

    alice.refresh_from_db()
    assert (alice.sounds, alice.animations) == (False, False)
    shown = alice_client.get(page).content.decode()
    assert 'data-sounds="0"' in shown and 'data-animations="0"' in shown

    alice_client.post(PROFILE, {"which": "cards", "card_size": "normal", "sounds": "on"})
    alice.refresh_from_db()
    assert (alice.sounds, alice.animations) == (True, False)


def test_a_card_size_not_offered_is_refused_and_changes_nothing(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.post(
        PROFILE, {"which": "cards", "four_colour_deck": "on", "card_size": "huge"}
    )

    assert "Select a valid choice. huge is not one of the available choices." in (
        response.content.decode()
    )
    alice.refresh_from_db()
    assert (alice.four_colour_deck, alice.card_size) == (False, "normal")


def test_a_post_naming_no_form_changes_nothing(alice_client: Client, alice: User) -> None:
    alice_client.post(PROFILE, {"email": "x@example.com", "card_size": "large"})

    alice.refresh_from_db()
    assert (alice.email, alice.card_size) == ("", "normal")


def test_an_anonymous_visitor_gets_the_usual_cards(client: Client, db: None) -> None:
    assert '<body class="">' in client.get(reverse("lobby")).content.decode()


# ------------------------------------------------------------------ the display name


def test_a_player_sets_the_name_the_site_greets_them_by(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        PROFILE, {"which": "name", "display_name": "Queen of Razz"}, follow=True
    )

    assert response.redirect_chain == [(PROFILE, 302)]
    page = response.content.decode()
    assert "Your display name is saved." in page
    assert '<span class="player-name">Queen of Razz</span>' in page
    assert "you are <strong>alice</strong>, your username." in page
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Razz"


def test_an_empty_display_name_greets_the_player_by_username(
    alice_client: Client, alice: User
) -> None:
    alice_client.post(PROFILE, {"which": "name", "display_name": "  "})

    alice.refresh_from_db()
    assert alice.display_name == ""
    assert '<span class="player-name">alice</span>' in alice_client.get(PROFILE).content.decode()


def test_a_display_name_past_40_characters_is_refused(alice_client: Client, alice: User) -> None:
    response = alice_client.post(PROFILE, {"which": "name", "display_name": "q" * 41})

    assert response.context["name"].errors["display_name"] == [
        "Ensure this value has at most 40 characters (it has 41)."
    ]
    alice.refresh_from_db()
    assert alice.display_name == "Alice A."


# ------------------------------------------------------------------------ the password

NEW_PASSWORD = "a-brand-new-felt-91"


def change_password(client: Client, old: str, new: str, again: str | None = None) -> object:
    return client.post(
        PROFILE,
        {
            "which": "password",
            "old_password": old,
            "new_password1": new,
            "new_password2": new if again is None else again,
        },
        follow=True,
    )


def test_a_player_changes_their_password_and_stays_logged_in(
    alice_client: Client, alice: User
) -> None:
    response = change_password(alice_client, ALICE_PASSWORD, NEW_PASSWORD)

    assert response.redirect_chain == [(PROFILE, 302)]
    assert "Your password is changed." in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice_client.get(PROFILE).status_code == 200  # this browser is still logged in


def test_a_password_change_logs_out_the_players_other_browsers(
    alice_client: Client, alice: User
) -> None:
    elsewhere = Client()
    elsewhere.force_login(alice)
    assert elsewhere.get(PROFILE).status_code == 200

    change_password(alice_client, ALICE_PASSWORD, NEW_PASSWORD)

    response = elsewhere.get(PROFILE)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_the_new_password_logs_in_and_the_old_one_no_longer_does(
    alice_client: Client, alice: User
) -> None:
    change_password(alice_client, ALICE_PASSWORD, NEW_PASSWORD)
    login = reverse("accounts:login")

    assert (
        Client().post(login, {"username": "alice", "password": ALICE_PASSWORD}).status_code == 200
    )
    assert Client().post(login, {"username": "alice", "password": NEW_PASSWORD}).status_code == 302


@pytest.mark.parametrize(
    ("old", "new", "again", "field", "error"),
    [
        (
            "not-her-password",
            NEW_PASSWORD,
            None,
            "old_password",
            "Your old password was entered incorrectly. Please enter it again.",
        ),
        (
            ALICE_PASSWORD,
            NEW_PASSWORD,
            NEW_PASSWORD + "x",
            "new_password2",
            "The two password fields didn’t match.",
        ),
        (
            ALICE_PASSWORD,
            "short7",
            None,
            "new_password2",
            "This password is too short. It must contain at least 8 characters.",
        ),
    ],
)
def test_a_bad_password_change_is_refused_and_changes_nothing(
    alice_client: Client, alice: User, old: str, new: str, again: str | None, field: str, error: str
) -> None:
    response = change_password(alice_client, old, new, again)

    assert response.redirect_chain == []
    assert error in response.context["password"].errors[field]
    alice.refresh_from_db()
    assert alice.check_password(ALICE_PASSWORD)


def test_the_password_form_does_not_pull_the_page_down_to_it(alice_client: Client) -> None:
    page = alice_client.get(PROFILE).content.decode()
    old_password = re.search(r'<input [^>]*name="old_password"[^>]*>', page).group(0)

    assert "autofocus" not in old_password


# ------------------------------------------------------------------------ tick boxes


def test_tick_boxes_come_before_their_labels_and_are_never_optional(alice_client: Client) -> None:
    page = alice_client.get(PROFILE).content.decode()
    start = page.index('id="card-preferences"')
    form = page[start : page.index("</form>", start)]

    for name in ("four_colour_deck", "sounds", "animations"):
        tick_box = rf'<input type="checkbox" name="{name}"[^>]*>'
        label = rf'<label for="id_{name}">[^<]*</label>'
        row = rf'<div class="field field-checkbox">\s*{tick_box}\s*{label}'
        assert re.search(row, form) is not None, name
    assert "(optional)" not in form
