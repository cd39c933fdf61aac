"""Table options are validated once, with messages an operator can act on."""

from __future__ import annotations

import json

import pytest

from tables.rules import GameConfig, IllegalAction, RakeRule
from tests.rules.stacking import config


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"variant": "omaha"}, "unknown variant 'omaha'"),
        ({"bring_in": 5}, r"bring-in \(5\) must be below the small bet \(5\)"),
        ({"big_bet": 4}, r"big bet \(4\) can't be below the small bet \(5\)"),
        ({"ante": -1}, "ante must be a non-negative whole number"),
        ({"small_bet": 0}, "small bet must be a positive whole number"),
        ({"ante": True}, "ante must be"),
        ({"big_bet": 10.0}, "big bet must be"),
        ({"tie_break": "coin"}, "tie_break must be one of position, suit"),
        ({"short_all_in": "any"}, "short_all_in must be one of half, full"),
        ({"structure": "no-limit"}, "structure must be one of fixed"),
        ({"max_raises": 0}, "max_raises must be a whole number of at least 1"),
        ({"auto_muck": "yes"}, "auto_muck must be true or false"),
        ({"rake": {"percent": "5"}}, "rake must be a RakeRule"),
    ],
)
def test_it_refuses_bad_options_with_a_clear_message(options, match):
    with pytest.raises(IllegalAction, match=match):
        config(**options)


@pytest.mark.parametrize(
    ("rule", "match"),
    [
        ({"percent": "five"}, "rake percent must be a number"),
        ({"percent": "101"}, "between 0 and 100"),
        ({"percent": "5", "cap": -1}, "rake cap must be"),
        ({"percent": "5", "no_rake_third_street": "no"}, "true or false"),
    ],
)
def test_it_refuses_bad_rake_rules(rule, match):
    with pytest.raises(IllegalAction, match=match):
        RakeRule(**rule)


def test_the_open_pair_default_follows_the_variant():
    assert config().open_pair is True
    assert config(variant="stud8").open_pair is False
    assert config(variant="razz").open_pair is False
    assert config(open_pair_big_bet=False).open_pair is False


def test_a_config_survives_json_both_ways():
    game = config(variant="stud8", rake=RakeRule("2.5", cap=3), tie_break="suit")
    data = json.loads(json.dumps(game.to_dict()))
    assert GameConfig.from_dict(data) == game


def test_from_dict_names_unknown_options():
    with pytest.raises(IllegalAction, match="unknown game option"):
        GameConfig.from_dict({"variant": "stud", "blinds": [1, 2]})


def test_rake_percent_may_be_fractional_and_rounds_down():
    assert RakeRule("2.5", cap=None).amount(99, reached_fourth_street=True) == 2
