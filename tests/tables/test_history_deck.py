"""The deck check on a hand's page, and who may have the salt and the deck.

The rule (docs/history.md): everyone who may see the hand gets the commitment
published when it started. The salt and the whole deck, which hold every down
card dealt, go to staff, and to a player only when no other player's down
cards stayed unshown; otherwise they would hand the player cards nobody ever
showed them.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re

import pytest
from django.test import Client

from accounts.models import User
from tables.rules.cards import card_str
from tests.tables.test_history_access import (
    MUCK_DECK,
    assert_hides,
    deal_next,
    detail_url,
    folds,
    hidden_from,
    make_staff,
    page,
    play_hand,
    seat,
    showdown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None, quick_passwords: None) -> User:
    """sam, staff allowed to read hands: sees every card."""
    return make_staff()


def text_of(html: str, element_id: str) -> str | None:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)
    return html_lib.unescape(match.group(1)).strip() if match else None


def deck_page(user, hand) -> str:
    response = page(Client(), user, detail_url(hand))
    assert response.status_code == 200
    return response.content.decode()


def assert_revealed(html: str, hand) -> None:
    salt, cards = text_of(html, "deck-salt"), text_of(html, "deck-cards")
    assert (salt, cards) == (hand.deck_salt, " ".join(map(card_str, hand.deck)))
    # What the page shows really hashes to what was published.
    assert hashlib.sha256(f"{salt}:{cards}".encode()).hexdigest() == hand.deck_commitment
    assert f"printf '%s' '{salt}:{cards}' | sha256sum" in html_lib.unescape(html)
    assert 'id="deck-check-button"' in html and "js/sha256.js" in html


def assert_withheld(html: str, hand, unshown: list[str]) -> None:
    assert text_of(html, "deck-commitment") == hand.deck_commitment
    assert hand.deck_salt not in html
    assert 'id="deck-cards"' not in html and "sha256sum" not in html
    assert "js/sha256.js" not in html
    message = " ".join(text_of(html, "deck-withheld").split())
    assert f"the deck holds the down cards of {', '.join(unshown)}, which you never saw" in message


def test_the_winner_whose_rival_showed_gets_the_deck_and_the_mucker_does_not(
    table, alice, bob, monkeypatch
):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(table, showdown)  # bob shows, alice mucks
    assert_revealed(deck_page(alice, hand), hand)  # bob's cards were all shown to her
    html = deck_page(bob, hand)
    assert_withheld(html, hand, ["alice"])
    assert_hides(html, hidden_from(hand, bob))


def test_nobody_gets_the_deck_of_a_hand_won_without_a_showdown(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, folds(bob))
    assert_withheld(deck_page(alice, hand), hand, ["bob"])
    assert_withheld(deck_page(bob, hand), hand, ["alice"])


def test_when_everyone_shows_every_player_gets_the_deck(table, alice, bob):
    table.stakes.auto_muck = False
    table.stakes.save(update_fields=["auto_muck"])
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, showdown)
    assert hand.state["shown"] == [True, True]
    for user in (alice, bob):
        assert_revealed(deck_page(user, hand), hand)


def test_a_player_who_folded_may_check_a_deck_that_hides_nothing_from_him(table, alice, bob, carol):
    table.stakes.auto_muck = False
    table.stakes.save(update_fields=["auto_muck"])
    seat(table, (alice, 1), (bob, 2), (carol, 4))
    hand = play_hand(table, folds(carol))  # alice and bob show down; carol folded
    # Carol saw both shown hands, so the deck tells her nothing new...
    assert_revealed(deck_page(carol, hand), hand)
    # ...but it would show alice and bob carol's cards.
    for user in (alice, bob):
        assert_withheld(deck_page(user, hand), hand, ["carol"])


def test_staff_always_get_the_deck_and_are_told_which_players_do(table, alice, bob, carol, staff):
    seat(table, (alice, 1), (bob, 2), (carol, 4))
    hand = play_hand(table, folds(carol, bob))
    html = deck_page(staff, hand)
    assert_revealed(html, hand)
    note = " ".join(text_of(html, "deck-staff-note").split())
    assert note.endswith("none of this hand's players can check it.")


def test_staff_are_told_when_some_players_can_check_the_deck(table, alice, bob, staff, monkeypatch):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(table, showdown)  # bob shows, alice mucks
    html = deck_page(staff, hand)
    assert_revealed(html, hand)
    note = " ".join(text_of(html, "deck-staff-note").split())
    assert note.endswith("here alice can check it, the others can't.")
