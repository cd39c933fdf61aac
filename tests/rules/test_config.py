"""Table options are validated once, with messages an operator can act on."""

from __future__ import annotations

import json

import pytest

from tables.rules import GameConfig, IllegalAction, RakeRule
from tables.rules.config import BadOption
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
    ("options", "option"),
    [
        ({"variant": "omaha"}, "variant"),
        ({"bring_in": 5}, "bring_in"),
        ({"big_bet": 4}, "big_bet"),
        ({"structure": "spread", "big_bet": 5}, "big_bet"),
        ({"tie_break": "coin"}, "tie_break"),
        ({"max_raises": 0}, "max_raises"),
        ({"variant": "razz", "open_pair_big_bet": True}, "open_pair_big_bet"),
        ({"natural_beats_wild": True}, "natural_beats_wild"),
        ({"declare_in_turn": True}, "declare_in_turn"),
    ],
)
def test_a_refused_option_is_named_for_the_form_that_set_it(options, option):
    with pytest.raises(BadOption) as caught:
        config(**options)
    assert caught.value.option == option


def test_every_problem_is_listed_once_on_its_own_option():
    options = {**config().to_dict(), "rake": RakeRule(), "variant": "razz"}
    options.update(bring_in=5, big_bet=4, open_pair_big_bet=True, exchange_price=True)

    problems = GameConfig.problems(options)

    assert [(problem.option, str(problem)) for problem in problems] == [
        ("exchange_price", "Razz has no exchanges to put a price on"),
        ("open_pair_big_bet", "Razz has no open-pair big bet: pairs showing don't change bets"),
        ("big_bet", "the big bet (4) can't be below the small bet (5)"),
        ("bring_in", "the bring-in (5) must be below the small bet (5)"),
    ]


def test_the_first_problem_listed_is_the_one_a_config_raises():
    options = {"variant": "stud", "bring_in": 5, "small_bet": 5, "tie_break": "coin"}

    with pytest.raises(BadOption) as caught:
        GameConfig(**options)

    first = GameConfig.problems(options)[0]
    assert (caught.value.option, str(caught.value)) == (first.option, str(first))


def test_an_option_left_out_or_found_wrong_takes_no_part_in_the_checks_that_read_it():
    # The small bet is unknown: the bring-in and the big bet can't be compared with it.
    assert GameConfig.problems({"bring_in": 9, "big_bet": 1, "structure": "fixed"}) == []
    # The variant is wrong: what the variant allows isn't asked, only the variant is told.
    problems = GameConfig.problems({"variant": "omaha", "natural_beats_wild": True})
    assert [problem.option for problem in problems] == ["variant"]


def test_a_config_with_nothing_wrong_has_no_problems():
    game = config(variant="deuces", high_low_declare=True, declare_in_turn=True)
    options = {name: getattr(game, name) for name in game.to_dict()}

    assert GameConfig.problems(options) == []


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


def test_a_game_loaded_again_is_the_one_checked_before_and_bad_data_is_refused_every_time():
    data = json.loads(json.dumps(config(variant="razz", ante=1).to_dict()))
    first = GameConfig.from_dict(data)
    assert GameConfig.from_dict(json.loads(json.dumps(data))) is first
    assert data["auto_muck"] is True
    # Python finds 1 equal to True; the game's checks don't, and no kept game answers for it.
    for bad in ({**data, "auto_muck": 1}, {**data, "ante": -1}, {**data, "ante": -1}):
        with pytest.raises(IllegalAction, match="auto_muck|ante"):
            GameConfig.from_dict(bad)


def test_from_dict_names_unknown_options():
    with pytest.raises(IllegalAction, match="unknown game option"):
        GameConfig.from_dict({"variant": "stud", "blinds": [1, 2]})


def test_rake_percent_may_be_fractional_and_rounds_down():
    assert RakeRule("2.5", cap=None).amount(99, reached_fourth_street=True) == 2
