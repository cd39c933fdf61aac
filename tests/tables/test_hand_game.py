"""The game belongs to the hand: each hand records the game it was dealt, and its
page, the My hands list and its filters, the exports and the hand search read
that, never the table's stakes as they are now.

alice and bob play a stud hand at a table whose stakes staff then turn into
razz at other sizes, as an operator may between hands.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables.models import Hand, RakeEntry, Stakes, Table
from tables.rules import GameConfig, HandState
from tables.rules.formats.phh import read_phh
from tests.tables.test_history_access import detail_url, folds, page, play_hand, seat
from tests.tables.test_history_list import my_hands

pytestmark = pytest.mark.django_db

GAME_MIGRATION = importlib.import_module("tables.migrations.0024_hand_game")
RAKE_MIGRATION = importlib.import_module("tables.migrations.0025_rake_entry_variant")


@pytest.fixture
def played(table: Table, alice: User, bob: User) -> Hand:
    """A stud hand, after which the table's stakes become razz 10/20 on 6 seats."""
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, folds(bob))
    Stakes.objects.filter(pk=table.stakes_id).update(
        variant="razz", ante=2, bring_in=3, small_bet=10, big_bet=20, seats=6
    )
    return Hand.objects.get(pk=hand.pk)


def test_a_hand_records_the_game_it_was_dealt(played: Hand) -> None:
    config = HandState.from_dict(played.state).config
    assert (played.variant, played.structure) == ("stud", "fixed")
    assert (played.ante, played.bring_in, played.small_bet, played.big_bet) == (1, 2, 5, 10)
    assert played.game == config.describe() == "Seven-card stud, 5/10, ante 1, bring-in 2"
    assert played.seat_count == 8
    assert played.stakes_words() == "5/10"


def test_the_hand_page_and_my_hands_show_the_game_as_dealt(played: Hand, alice: User) -> None:
    detail = page(Client(), alice, detail_url(played)).content.decode()
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in detail
    assert "Razz" not in detail

    listing = my_hands(alice)
    row = listing[listing.index(f'<tr data-hand="{played.pk}">') :]
    row = row[: row.index("</tr>")]
    assert "Seven-card stud" in row and ">5/10<" in row and "Razz" not in row


def test_my_hands_filters_by_the_game_each_hand_was_dealt(played: Hand, alice: User) -> None:
    assert f'data-hand="{played.pk}"' in my_hands(alice, "?variant=stud")
    assert f'data-hand="{played.pk}"' in my_hands(alice, "?structure=fixed")
    assert f'data-hand="{played.pk}"' not in my_hands(alice, "?variant=razz")
    assert f'data-hand="{played.pk}"' not in my_hands(alice, "?structure=pot")


def test_the_export_and_replayer_keep_the_hands_seats_and_game(played: Hand, alice: User) -> None:
    url = reverse("export_hand", args=[played.pk, "phh"])
    phh = read_phh(page(Client(), alice, url).content.decode())
    assert phh.fields["variant"] == "F7S" and phh.fields["seat_count"] == 8
    assert phh.config.small_bet == 5
    response = page(Client(), alice, detail_url(played))
    assert response.context["replay"]["seat_count"] == 8


def test_the_hand_search_lists_and_filters_by_the_hands_game(
    played: Hand, admin_client: Client
) -> None:
    found = admin_client.get(reverse("hand_search"), {"variant": "stud"}).content.decode()
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in found
    assert f"#{played.number}" in found
    none = admin_client.get(reverse("hand_search"), {"variant": "razz"}).content.decode()
    assert "Seven-card stud, 5/10" not in none


def test_the_admin_shows_and_filters_hands_by_their_own_game(
    played: Hand, admin_client: Client
) -> None:
    page = admin_client.get(reverse("admin:tables_hand_change", args=[played.pk]))
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in page.content.decode()
    listed = admin_client.get(reverse("admin:tables_hand_changelist"), {"variant": "stud"})
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in listed.content.decode()
    none = admin_client.get(reverse("admin:tables_hand_changelist"), {"variant": "razz"})
    assert "Seven-card stud, 5/10" not in none.content.decode()


def test_the_migration_fills_each_hands_game_from_its_frozen_config(
    played: Hand, table: Table
) -> None:
    Hand.objects.filter(pk=played.pk).update(
        variant="", structure="", ante=0, bring_in=0, small_bet=1, big_bet=1, game="", seat_count=0
    )
    GAME_MIGRATION.fill(apps, None)
    filled = Hand.objects.get(pk=played.pk)
    assert (filled.variant, filled.structure, filled.small_bet, filled.big_bet) == (
        "stud",
        "fixed",
        5,
        10,
    )
    assert filled.game == "Seven-card stud, 5/10, ante 1, bring-in 2"
    # The seats the migration can only take from the table, as it is then.
    assert filled.seat_count == 6


def test_the_migration_takes_the_tables_game_for_a_hand_with_no_config(
    played: Hand, table: Table
) -> None:
    Hand.objects.filter(pk=played.pk).update(state={"result": None}, game="")
    GAME_MIGRATION.fill(apps, None)
    filled = Hand.objects.get(pk=played.pk)
    razz = GameConfig(variant="razz", ante=2, bring_in=3, small_bet=10, big_bet=20)
    assert (filled.variant, filled.game) == ("razz", razz.describe())


def test_the_rake_ledger_names_each_hands_game_and_the_migration_fills_it(played: Hand) -> None:
    assert RakeEntry.objects.get(hand=played).variant == "stud"
    RakeEntry.objects.filter(hand=played).update(variant="")
    RAKE_MIGRATION.fill(apps, None)
    assert RakeEntry.objects.get(hand=played).variant == "stud"
