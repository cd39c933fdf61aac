"""The lobby, its JSON poller and the table page.

Personas come from ``tests/tables/conftest.py``: alice and bob sit at tables;
an anonymous visitor (the plain ``client``) only watches.
"""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from accounts.models import User
from tables import services
from tables.models import Hand, HandResult, RakeRule, Stakes, Table
from tables.rules.games import HIGH_LOW_DECLARE, how_it_plays
from tables.rules.variants import VARIANTS
from tables.selectors.lobby import rake_words

LOBBY = reverse("lobby")
LOBBY_JSON = reverse("lobby_json")

# A card such as "Kd" or "Ts" anywhere in the page would mean a leak.
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@pytest.fixture
def razz(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Razz 2/4", variant="razz", bring_in=1, small_bet=2, big_bet=4,
        min_buy_in=40, max_buy_in=400, seats=6,
    )  # fmt: skip


@pytest.fixture
def seated(table: Table, alice: User, bob: User) -> Table:
    """Table 1 with alice and bob in seats 1 and 2; a hand is running."""
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=100)
    services.hand_start(table_id=table.pk)
    return table


def rows_of(response) -> dict[str, dict]:
    return {row["name"]: row for row in response.json()["tables"]}


def test_lobby_lists_open_tables_with_seat_counts(client: Client, seated: Table, razz) -> None:
    Table.objects.create(name="Razz 1", stakes=razz)
    Table.objects.create(name="Shut", stakes=razz, is_open=False)

    response = client.get(LOBBY)

    names = [row["name"] for row in response.context["tables"]]
    assert names == ["Table 1", "Razz 1"]  # the table with players first
    assert "2 / 8" in response.content.decode()
    assert "0 / 6" in response.content.decode()
    assert "Shut" not in response.content.decode()


def test_lobby_shows_buy_in_rake_free_seats_and_the_waiting_list(
    client: Client, stakes: Stakes, razz: Stakes, alice: User, bob: User, carol: User
) -> None:
    """A two-seat razz table: full, then a seat frees and is held for bob, first in line."""
    small = Table.objects.create(name="Razz 1", stakes=razz)
    Stakes.objects.filter(pk=razz.pk).update(seats=2)
    for number, player in ((1, alice), (2, carol)):
        services.seat_take(table_id=small.pk, player_id=player.pk, seat_number=number, buy_in=100)
    services.waiting_join(table_id=small.pk, player_id=bob.pk)
    Table.objects.create(name="Stud 1", stakes=stakes)

    full = rows_of(client.get(LOBBY_JSON))["Razz 1"]
    services.seat_leave(table_id=small.pk, player_id=carol.pk)
    held = rows_of(client.get(LOBBY_JSON))["Razz 1"]
    page = client.get(LOBBY).content.decode()

    assert (full["seats_free"], full["waiting"]) == (0, 1)
    assert (held["seats_taken"], held["seats_free"], held["waiting"]) == (1, 0, 1)
    stud = rows_of(client.get(LOBBY_JSON))["Stud 1"]
    assert (stud["min_buy_in"], stud["max_buy_in"], stud["seats_free"]) == (50, 500, 8)
    assert stud["rake"] == "5% up to 3, from 4th street"  # the stakes fixture's rule
    assert held["rake"] == rake_words(razz)
    assert "50–500" in page and "0 / 8 · 8 free" in page
    assert 'data-sort="max_buy_in"' in page
    assert json.loads(re.search(r'id="lobby-rows"[^>]*>(.*?)</script>', page).group(1))[0]["name"]


@pytest.mark.parametrize(
    ("percent", "cap", "third", "words"),
    [
        ("5", 3, True, "5% up to 3, from 4th street"),
        ("2.5", None, False, "2.5%, no cap"),
        ("10", 1500, False, "10% up to 1,500"),
        ("0", None, True, "none"),
    ],
)
def test_the_rake_rule_is_said_in_words(percent, cap, third, words, db: None) -> None:
    rule = RakeRule.objects.create(
        name=f"r{percent}", percent=percent, cap=cap, no_rake_third_street=third
    )
    rule.refresh_from_db()  # the percent as the database gives it back: a Decimal
    stakes = Stakes(rake=rule)
    assert rake_words(stakes) == words
    assert rake_words(Stakes()) == "none"


def test_lobby_offers_anonymous_visitors_a_login_to_join(client: Client, table: Table) -> None:
    url = reverse("table", args=[table.pk])

    response = client.get(LOBBY)

    assert f"/accounts/login/?next={url}" in response.content.decode()


def test_lobby_filters_by_variant_and_stakes(client: Client, table: Table, razz) -> None:
    Table.objects.create(name="Razz 1", stakes=razz)

    by_variant = client.get(LOBBY, {"variant": "razz"})
    by_stakes = client.get(LOBBY, {"stakes": table.stakes.pk})

    assert [row["name"] for row in by_variant.context["tables"]] == ["Razz 1"]
    assert [row["name"] for row in by_stakes.context["tables"]] == ["Table 1"]


@pytest.mark.parametrize("params", [{"variant": "poker"}, {"stakes": "x"}, {"stakes": "999"}])
def test_lobby_ignores_bad_filters_with_a_note(client: Client, table: Table, params) -> None:
    response = client.get(LOBBY, params)

    assert response.status_code == 200
    assert [row["name"] for row in response.context["tables"]] == ["Table 1"]
    assert "Ignored a filter" in response.content.decode()


def test_lobby_json_matches_the_page(client: Client, seated: Table, razz) -> None:
    Table.objects.create(name="Razz 1", stakes=razz)

    page = client.get(LOBBY, {"variant": "stud"})
    data = client.get(LOBBY_JSON, {"variant": "stud"})

    assert data.json()["tables"] == page.context["tables"]
    assert rows_of(data)["Table 1"]["seats_taken"] == 2


def test_lobby_json_reports_recent_hands_and_average_pot(
    client: Client, seated: Table, alice: User, bob: User
) -> None:
    hand = Hand.objects.get(table=seated)
    Hand.objects.filter(pk=hand.pk).update(ended_at=timezone.now())
    HandResult.objects.create(hand=hand, player=alice, seat_number=1,
                              starting_stack=100, final_stack=80, net=-20)  # fmt: skip
    HandResult.objects.create(hand=hand, player=bob, seat_number=2,
                              starting_stack=100, final_stack=119, net=19)  # fmt: skip
    old = Hand.objects.create(
        table=seated, number=99, deck=[], deck_salt="", deck_commitment="", seating={},
        state={}, ended_at=timezone.now() - datetime.timedelta(hours=2),
        **Hand.game_fields(seated.stakes.game_config(), seated.stakes.seats),
    )  # fmt: skip
    HandResult.objects.create(hand=old, player=alice, seat_number=1,
                              starting_stack=100, final_stack=0, net=-100)  # fmt: skip

    row = rows_of(client.get(LOBBY_JSON))["Table 1"]

    assert (row["hands_per_hour"], row["average_pot"]) == (1, 20)


@pytest.mark.parametrize("count", [1, 10])
def test_lobby_json_query_count_does_not_grow_with_tables(
    client: Client, stakes: Stakes, alice: User, count: int, django_assert_max_num_queries
) -> None:
    for i in range(count):
        t = Table.objects.create(name=f"T{i}", stakes=stakes)
        services.seat_take(table_id=t.pk, player_id=alice.pk, seat_number=1, buy_in=60)

    with django_assert_max_num_queries(3):
        response = client.get(LOBBY_JSON)

    assert len(response.json()["tables"]) == count


def test_table_page_renders_for_an_anonymous_visitor(client: Client, seated: Table) -> None:
    response = client.get(reverse("table", args=[seated.pk]))

    assert response.status_code == 200
    assert f'data-table="{seated.pk}"' in response.content.decode()
    assert "Log in" in response.content.decode()


def test_table_page_renders_for_a_player(client: Client, seated: Table, alice: User) -> None:
    client.force_login(alice)

    response = client.get(reverse("table", args=[seated.pk]))

    assert response.status_code == 200
    assert 'id="chat-form"' in response.content.decode()


def test_table_page_is_404_for_an_unknown_table(client: Client, db: None) -> None:
    assert client.get(reverse("table", args=[4040])).status_code == 404


def test_table_page_holds_no_card_data(client: Client, seated: Table, alice: User) -> None:
    """alice holds cards in the running hand, yet her page carries none of them."""
    client.force_login(alice)
    hand = Hand.objects.get(table=seated)
    seats = services.hand_view(hand_id=hand.pk, player_id=alice.pk)["players"]
    dealt = {held["card"] for seat in seats for held in seat["cards"] if held["card"]}
    assert dealt, "the fixture should have dealt alice some cards"

    html = client.get(reverse("table", args=[seated.pk])).content.decode()

    assert not CARD.findall(html.split("<main", 1)[1])


# ------------------------------------------------------------ how this game plays


def panel_of(client: Client, table: Table) -> str:
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    match = re.search(r'<details id="how-it-plays".*?</details>', html, re.S)
    assert match, "the table page has no 'How this game plays' panel"
    return match.group(0)


@pytest.mark.parametrize("variant", ["stud", "roll_your_own", "high_chicago", "man_with_the_axe"])
def test_the_table_page_says_how_its_game_plays(client: Client, table: Table, variant) -> None:
    table.stakes.variant = variant
    table.stakes.save(update_fields=["variant"])

    panel = panel_of(client, table)

    assert "How this game plays" in panel
    for words in how_it_plays(table.stakes.game_config()):
        assert f"<p>{escape(words)}</p>" in panel
    assert escape(VARIANTS[variant].about) in panel


def test_the_panel_says_what_the_stakes_options_change(client: Client, table: Table) -> None:
    stakes = table.stakes
    stakes.variant, stakes.high_low_declare, stakes.declare_in_turn = "deuces", True, True
    stakes.structure, stakes.small_bet, stakes.big_bet = "spread", 5, 20
    stakes.save()

    panel = panel_of(client, table)

    assert escape(HIGH_LOW_DECLARE) in panel
    assert "Players declare in turn from the dealer" in panel
    assert "Spread limit: every bet and raise is from 5 to 20" in panel
    assert "Everyone antes 1. The lowest card showing" in panel  # the stakes' ante and bring-in


def test_the_man_with_the_axes_payments_are_in_the_stakes_antes(
    client: Client, table: Table
) -> None:
    table.stakes.variant, table.stakes.ante = "man_with_the_axe", 2
    table.stakes.save()

    assert "2 chips for a wild card and 10 chips for a seven" in panel_of(client, table)


def test_the_table_page_opens_without_a_panel_for_stakes_the_engine_refuses(
    client: Client, table: Table
) -> None:
    # Saved without clean(): a bring-in as big as the small bet.
    Stakes.objects.filter(pk=table.stakes_id).update(bring_in=5)

    response = client.get(reverse("table", args=[table.pk]))

    assert response.status_code == 200
    assert "how-it-plays" not in response.content.decode()
