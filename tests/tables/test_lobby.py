"""The lobby by betting structure: its filter, offered from the engine's registry, and
the structure on each row; the order of its rows; the tables a player sits at.

An anonymous visitor (the plain ``client``) browses. For the order and the
player's own tables, alice, bob and carol sit down: alice's tables are marked
for her alone.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables import services
from tables.models import Stakes, Table
from tables.rules.games import structure_choices
from tables.selectors.lobby import LobbyFilter, lobby_rows

LOBBY = reverse("lobby")
LOBBY_JSON = reverse("lobby_json")


@pytest.fixture
def razz_pot(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Razz PL 5", variant="razz", structure="pot", ante=1, bring_in=2, small_bet=5,
        big_bet=5, min_buy_in=50, max_buy_in=500,
    )  # fmt: skip


@pytest.fixture
def stud_spread(db: None) -> Stakes:
    return Stakes.objects.create(
        name="Stud 5-20", variant="stud", structure="spread", ante=1, bring_in=2, small_bet=5,
        big_bet=20, min_buy_in=50, max_buy_in=500,
    )  # fmt: skip


@pytest.fixture
def tables(table: Table, razz_pot: Stakes, stud_spread: Stakes) -> list[Table]:
    """Table 1 (stud 5/10, fixed limit), Pot 1 (razz, pot limit), Spread 1 (stud, spread)."""
    return [
        table,
        Table.objects.create(name="Pot 1", stakes=razz_pot),
        Table.objects.create(name="Spread 1", stakes=stud_spread),
    ]


def names(response) -> list[str]:
    return [row["name"] for row in response.context["tables"]]


def test_the_lobby_filters_by_structure(client: Client, tables: list[Table]) -> None:
    assert names(client.get(LOBBY, {"structure": "pot"})) == ["Pot 1"]
    assert names(client.get(LOBBY, {"structure": "fixed"})) == ["Table 1"]
    assert names(client.get(LOBBY, {"structure": "no"})) == []


def test_the_structure_and_game_filters_combine(client: Client, tables: list[Table]) -> None:
    stud_spread = client.get(LOBBY, {"variant": "stud", "structure": "spread"})
    razz_spread = client.get(LOBBY, {"variant": "razz", "structure": "spread"})

    assert names(stud_spread) == ["Spread 1"]
    assert names(razz_spread) == []


def test_the_lobby_json_filters_by_structure_like_the_page(
    client: Client, tables: list[Table]
) -> None:
    page = client.get(LOBBY, {"structure": "spread"})
    data = client.get(LOBBY_JSON, {"structure": "spread"})

    assert data.json()["tables"] == page.context["tables"]
    assert [row["name"] for row in data.json()["tables"]] == ["Spread 1"]


def test_an_unknown_structure_is_ignored_with_a_note(client: Client, tables: list[Table]) -> None:
    response = client.get(LOBBY, {"structure": "half-pot"})

    assert names(response) == ["Pot 1", "Spread 1", "Table 1"]
    assert "Ignored a filter" in response.content.decode()
    assert client.get(LOBBY_JSON, {"structure": "half-pot"}).json()["ignored"] == [
        "structure='half-pot'"
    ]


def test_each_row_names_its_structure(client: Client, tables: list[Table]) -> None:
    rows = {row["name"]: row for row in client.get(LOBBY_JSON).json()["tables"]}

    assert (rows["Pot 1"]["structure"], rows["Pot 1"]["structure_name"]) == ("pot", "Pot limit")
    assert rows["Spread 1"]["structure_name"] == "Spread limit"
    assert rows["Table 1"]["structure_name"] == "Fixed limit"


def test_each_row_shows_its_betting_in_the_stakes(client: Client, tables: list[Table]) -> None:
    page = client.get(LOBBY).content.decode()

    assert "Razz, pot limit, minimum bet 5, ante 1, bring-in 2" in page
    assert "Seven-card stud, spread 5-20, ante 1, bring-in 2" in page
    assert "Seven-card stud, 5/10, ante 1, bring-in 2" in page


def test_the_structure_select_offers_every_structure_in_the_registry(
    client: Client, db: None
) -> None:
    page = client.get(LOBBY).content.decode()

    assert '<select name="structure"' in page
    for code, name in structure_choices():
        assert f'<option value="{code}">{name}</option>' in page


def test_the_lobby_keeps_the_structure_chosen(client: Client, tables: list[Table]) -> None:
    page = client.get(LOBBY, {"structure": "no"}).content.decode()

    assert '<option value="no" selected>No limit</option>' in page


def test_the_filter_form_hands_the_structure_to_lobby_rows(tables: list[Table]) -> None:
    filters = LobbyFilter({"structure": "pot", "variant": ""}).valid_filters()

    assert filters == {"structure": "pot"}
    assert [row["name"] for row in lobby_rows(**filters)] == ["Pot 1"]


# ------------------------------------------------------------------ the order

# Three home games whose codes sort otherwise than their names: by code
# "declare" (Seven-card stud hi-lo declare) fell between "baseball" and
# "deuces"; by name it comes last.
HOME_GAMES = {"declare": "Hi-Lo Declare", "baseball": "Baseball", "deuces": "Deuces"}


def stakes_for(variant: str) -> Stakes:
    return Stakes.objects.create(
        name=f"{variant} 5/10", variant=variant, ante=1, bring_in=2, small_bet=5, big_bet=10,
        min_buy_in=50, max_buy_in=500, seats=7,
    )  # fmt: skip


def sit(table: Table, *players: User) -> None:
    for number, player in enumerate(players, start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=100)


@pytest.fixture
def home_games(db: None) -> dict[str, Table]:
    return {
        variant: Table.objects.create(name=name, stakes=stakes_for(variant))
        for variant, name in HOME_GAMES.items()
    }


def test_empty_tables_are_ordered_by_the_games_name_as_players_read_it(
    home_games: dict[str, Table],
) -> None:
    rows = lobby_rows()

    assert [row["variant_name"] for row in rows] == [
        "Baseball",
        "Deuces wild",
        "Seven-card stud hi-lo declare",
    ]


def test_tables_of_one_game_are_ordered_by_their_name(stakes: Stakes) -> None:
    for name in ("Stud b", "Stud C", "Stud a"):
        Table.objects.create(name=name, stakes=stakes)

    assert [row["name"] for row in lobby_rows()] == ["Stud a", "Stud b", "Stud C"]


def test_tables_with_players_come_first_the_busiest_first(
    home_games: dict[str, Table], alice: User, bob: User, carol: User
) -> None:
    sit(home_games["deuces"], alice)
    sit(home_games["declare"], bob, carol)

    assert [row["name"] for row in lobby_rows()] == ["Hi-Lo Declare", "Deuces", "Baseball"]


def test_the_page_the_json_and_a_filter_keep_the_order(
    client: Client, home_games: dict[str, Table], razz_pot: Stakes, alice: User
) -> None:
    Table.objects.create(name="Razz", stakes=razz_pot)
    sit(home_games["declare"], alice)
    expected = ["Hi-Lo Declare", "Baseball", "Deuces"]

    page = client.get(LOBBY, {"structure": "fixed"})
    json_rows = client.get(LOBBY_JSON).json()["tables"]

    assert names(page) == expected
    assert [row["name"] for row in json_rows] == [*expected, "Razz"]


# ------------------------------------------------------- the viewer's tables


def test_each_player_sees_the_tables_they_sit_at(
    home_games: dict[str, Table], alice: User, bob: User
) -> None:
    sit(home_games["deuces"], alice)

    def seated(viewer_id: int | None) -> list[str]:
        return [row["name"] for row in lobby_rows(viewer_id=viewer_id) if row["seated"]]

    assert seated(alice.pk) == ["Deuces"]
    assert seated(bob.pk) == []  # at no table
    assert seated(None) == []  # a visitor


def test_the_page_marks_the_players_tables_and_leads_back_to_the_seat(
    client: Client, home_games: dict[str, Table], alice: User
) -> None:
    sit(home_games["deuces"], alice)
    client.force_login(alice)

    page = client.get(LOBBY).content.decode()
    json_rows = client.get(LOBBY_JSON).json()["tables"]

    deuces = home_games["deuces"].pk
    assert page.count('class="lobby-seated"') == 1
    assert f'<tr data-table="{deuces}" class="lobby-seated">' in page
    assert page.count("Your seat") == 1
    assert [row["name"] for row in json_rows if row["seated"]] == ["Deuces"]


def test_a_visitor_sees_no_table_marked(
    client: Client, home_games: dict[str, Table], alice: User
) -> None:
    sit(home_games["deuces"], alice)

    assert "lobby-seated" not in client.get(LOBBY).content.decode()
    assert not any(row["seated"] for row in client.get(LOBBY_JSON).json()["tables"])
