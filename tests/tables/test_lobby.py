"""The lobby by betting structure: its filter, offered from the engine's registry, and
the structure on each row.

An anonymous visitor (the plain ``client``) browses; nothing here needs a seat.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.lobby import LobbyFilter, lobby_rows
from tables.models import Stakes, Table
from tables.rules.games import structure_choices

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
