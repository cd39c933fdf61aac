"""Fixed-limit bet sizes, the open-pair big bet, and the cap."""

from __future__ import annotations

import pytest

from tables.rules import HandState, IllegalAction
from tests.rules.stacking import config, play, stack_deck

# Player 0 brings in with the deuce; on 4th street player 1 shows a pair of sevens.
PAIRED_FOURTH = stack_deck(
    {0: "????2c", 1: "????7c", 2: "????Kh"},
    {0: "3d", 1: "7d", 2: "9s"},
)


def options(state: HandState) -> dict[str, tuple[int, ...] | None]:
    return {a.kind: a.amounts for a in state.legal_actions()}


def to_fourth(deck=PAIRED_FOURTH, stacks=(200, 200, 200), **game) -> HandState:
    state = HandState.new(config(**game), list(stacks), deck)
    return play(state, (0, "bring_in"), (1, "call"), (2, "call"))


def test_third_street_completes_and_raises_by_the_small_bet():
    state = HandState.new(config(), [200] * 3, PAIRED_FOURTH)
    play(state, (0, "bring_in"), (1, "complete", 5))
    assert options(state)["raise"] == (10,)


def test_fourth_street_bets_are_small_without_an_open_pair():
    deck = stack_deck({0: "????2c", 1: "????7c", 2: "????Kh"}, {0: "3d", 1: "8d", 2: "9s"})
    state = to_fourth(deck)
    assert options(state)["bet"] == (5,)


def test_an_open_pair_on_fourth_street_allows_the_big_bet_in_stud():
    state = to_fourth()
    assert state.to_act == 1
    assert options(state)["bet"] == (5, 10)


def test_after_a_big_bet_on_fourth_street_raises_are_big():
    state = play(to_fourth(), (1, "bet", 10))
    assert options(state)["raise"] == (20,)


def test_after_a_small_bet_on_fourth_street_a_raise_may_be_small_or_big():
    state = play(to_fourth(), (1, "bet", 5))
    assert options(state)["raise"] == (10, 15)


def test_the_open_pair_rule_can_be_switched_off():
    state = to_fourth(open_pair_big_bet=False)
    assert options(state)["bet"] == (5,)


def test_hi_lo_has_no_open_pair_big_bet_by_default():
    assert options(to_fourth(variant="stud8"))["bet"] == (5,)


def test_hi_lo_tables_may_switch_the_open_pair_rule_on():
    assert options(to_fourth(variant="stud8", open_pair_big_bet=True))["bet"] == (5, 10)


def test_razz_refuses_the_open_pair_rule():
    with pytest.raises(IllegalAction, match="pairs showing"):
        config(variant="razz", open_pair_big_bet=True)


def test_fifth_street_onwards_bets_are_big():
    state = play(to_fourth(), (1, "check"), (2, "check"), (0, "check"))
    assert state.street_name == "5th street"
    assert options(state)["bet"] == (10,)


def test_one_bet_and_three_raises_cap_the_round():
    state = HandState.new(config(), [200] * 3, PAIRED_FOURTH)
    play(state, (0, "bring_in"), (1, "complete", 5), (2, "raise", 10), (0, "raise", 15))
    play(state, (1, "raise", 20))
    assert options(state) == {"fold": None, "call": (10,)}
    with pytest.raises(IllegalAction, match="can't 'raise'"):
        state.act(2, "raise", 25)


def test_the_bring_in_is_not_a_bet_for_the_cap():
    state = HandState.new(config(), [200] * 3, PAIRED_FOURTH)
    play(state, (0, "bring_in"), (1, "complete", 5), (2, "raise", 10), (0, "raise", 15))
    assert "raise" in options(state)


def heads_up(**game) -> HandState:
    deck = stack_deck({0: "????2c", 1: "????7c"})
    state = HandState.new(config(**game), [200, 200], deck)
    return play(state, (0, "bring_in"), (1, "complete", 5), (0, "raise", 10), (1, "raise", 15))


def test_the_cap_applies_heads_up_by_default():
    state = play(heads_up(), (0, "raise", 20))
    assert "raise" not in options(state)


def test_the_heads_up_option_lifts_the_cap():
    state = play(heads_up(heads_up_uncapped=True), (0, "raise", 20))
    assert options(state)["raise"] == (25,)


def test_max_raises_is_a_table_option():
    state = HandState.new(config(max_raises=1), [200] * 3, PAIRED_FOURTH)
    play(state, (0, "bring_in"), (1, "complete", 5), (2, "raise", 10))
    assert "raise" not in options(state)


def test_the_round_ends_when_everyone_has_called_the_last_raise():
    state = to_fourth()
    play(state, (1, "bet", 5), (2, "raise", 10), (0, "call"), (1, "call"))
    assert state.street_name == "5th street"
