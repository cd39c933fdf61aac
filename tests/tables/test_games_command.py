"""``manage.py games``: every variant in every betting structure, straight from the registry."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tables.management.commands.games import MARKDOWN_END, MARKDOWN_START, short_config
from tables.rules.config import GameConfig
from tables.rules.games import games, how_it_plays
from tables.rules.variants import VARIANTS as REGISTRY

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

VARIANTS = (
    "stud",
    "razz",
    "stud8",
    "london",
    "mississippi",
    "deuces",
    "acey_ducey",
    "one_eyed_jacks",
    "suicide_king",
    "queens",
    "low_hole",
    "high_chicago",
    "low_chicago",
    "man_with_the_axe",
    "baseball",
    "roll_your_own",
    "english",
    "aces_straights_flushes",
    "declare",
    "declare8",
)
STRUCTURES = ("fixed", "spread", "pot", "no")


def run_games(*args: str) -> str:
    out = io.StringIO()
    call_command("games", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def listed() -> list[dict[str, Any]]:
    return json.loads(run_games("--json"))


def test_the_json_lists_every_variant_in_every_structure(listed: list[dict[str, Any]]) -> None:
    pairs = {(game["variant"], game["structure"]) for game in listed}
    assert pairs == {(v, s) for v in VARIANTS for s in STRUCTURES}
    assert len(listed) == len(pairs)


def test_each_json_game_says_its_seed_structures_and_players(
    listed: list[dict[str, Any]],
) -> None:
    london_pot = next(g for g in listed if (g["variant"], g["structure"]) == ("london", "pot"))
    assert london_pot["name"] == "London lowball, pot limit"
    assert london_pot["seed"] == "003"
    assert london_pot["structures"] == list(STRUCTURES)
    assert london_pot["players"] == [2, 8]


def test_each_json_example_config_round_trips_through_from_dict(
    listed: list[dict[str, Any]],
) -> None:
    for game in listed:
        config = GameConfig.from_dict(game["config"])
        assert config.to_dict() == game["config"]
        assert (config.variant, config.structure) == (game["variant"], game["structure"])


def test_the_plain_table_has_a_row_per_game_with_a_config_from_dict_accepts() -> None:
    table, _ = run_games().split("\n\n", 1)
    lines = table.splitlines()
    assert lines[0].split() == ["Game", "Seed", "Structures", "Players", "Example", "config"]
    assert len(lines) == 1 + len(games())
    for game, line in zip(games(), lines[1:], strict=True):
        assert line.startswith(game.name)
        config = GameConfig.from_dict(json.loads(line[line.index("{") :]))
        assert config == game.example()


def test_the_short_config_keeps_options_that_differ_from_the_defaults() -> None:
    config = GameConfig(variant="razz", structure="spread", small_bet=5, big_bet=20, max_raises=4)
    short = short_config(config)
    assert short == {
        "variant": "razz",
        "structure": "spread",
        "ante": 0,
        "bring_in": 0,
        "small_bet": 5,
        "big_bet": 20,
        "max_raises": 4,
    }
    assert GameConfig.from_dict(short) == config


def one_line(text: str) -> str:
    """``text`` with every run of white space one space, as wrapped text reads."""
    return re.sub(r"\s+", " ", text).strip()


def test_the_plain_text_says_how_each_variant_plays_in_its_words() -> None:
    _, about = run_games().split("\n\n", 1)
    assert about.startswith("How each game plays")
    for variant in REGISTRY.values():
        entry = f"{variant.name} ({variant.code})"
        assert entry in about
        after = about.split(entry, 1)[1]
        assert one_line(after).startswith(variant.about)


def test_each_json_game_says_how_its_example_plays(listed: list[dict[str, Any]]) -> None:
    for game in listed:
        assert game["about"] == REGISTRY[game["variant"]].about
        words = how_it_plays(GameConfig.from_dict(game["config"]))
        assert game["how_it_plays"] == list(words)
        assert game["how_it_plays"][0] == game["about"]
    mississippi = next(
        g for g in listed if (g["variant"], g["structure"]) == ("mississippi", "fixed")
    )
    assert "Fixed limit: every bet and raise is 2 on 3rd and 5th street" in " ".join(
        mississippi["how_it_plays"]
    )


def test_docs_rules_md_holds_each_games_words_as_the_engine_has_them() -> None:
    docs = RULES_MD.read_text()
    for variant in REGISTRY.values():
        assert f"- **{variant.name}** (`{variant.code}`): {variant.about}\n" in docs


def test_docs_rules_md_has_the_section_the_command_prints() -> None:
    docs = RULES_MD.read_text()
    start, end = docs.index(MARKDOWN_START), docs.index(MARKDOWN_END) + len(MARKDOWN_END)
    assert docs[start:end] + "\n" == run_games("--markdown"), (
        "docs/rules.md's section on how each game plays is out of date: replace it, "
        "markers and all, with the output of python manage.py games --markdown"
    )
