"""The profile page: the player's balance and their own recent ledger rows."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import ledger_post
from tables.models import Stakes, Table

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
