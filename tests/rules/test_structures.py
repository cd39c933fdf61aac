"""Spread, pot and no limit, worked through with the amounts written out.

Every hand here is ante 1, bring-in 2, with player 0 bringing in on the 2c.
"""

from __future__ import annotations

import pytest

from tables.rules import GameConfig, HandState, IllegalAction
from tables.rules.state import LegalAction
from tests.rules.stacking import config, play, stack_deck

DOORS = {0: "????2c", 1: "????7c", 2: "????Kh", 3: "????9d", 4: "????Jh"}


def deal(structure: str, stacks: list[int], **options) -> HandState:
    game = config(structure=structure, **options)
    deck = stack_deck({p: DOORS[p] for p in range(len(stacks))})
    return HandState.new(game, stacks, deck)


def wager(state: HandState) -> LegalAction:
    [option] = [a for a in state.legal_actions() if a.kind in ("complete", "bet", "raise")]
    return option


def kinds(state: HandState) -> list[str]:
    return [a.kind for a in state.legal_actions()]


# ------------------------------------------------------------------ spread limit


def spread(stacks=(200, 200, 200), **options) -> HandState:
    return deal("spread", list(stacks), small_bet=5, big_bet=20, **options)


def test_a_spread_allows_any_complete_from_its_minimum_to_its_maximum():
    state = play(spread(), (0, "bring_in"))
    assert wager(state) == LegalAction("complete", 5, 20, None)


def test_a_spread_raise_is_at_least_the_last_bet_and_at_most_the_maximum():
    # Completed to 10 (a bet of 10): the least raise is 10 more, to 20; the most 20 more, to 30.
    state = play(spread(), (0, "bring_in"), (1, "complete", 10))
    assert wager(state) == LegalAction("raise", 20, 30, None)


def test_without_the_at_least_the_last_rule_a_spread_raise_is_at_least_the_minimum():
    state = play(spread(raise_at_least_last=False), (0, "bring_in"), (1, "complete", 10))
    assert wager(state) == LegalAction("raise", 15, 30, None)


def test_a_spread_raise_below_the_least_is_refused_and_names_the_range():
    state = play(spread(), (0, "bring_in"), (1, "complete", 10))
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="raise to 20 to 30"):
        state.act(2, "raise", 19)
    assert state.to_dict() == before


def test_a_spread_round_is_capped_at_a_bet_and_three_raises():
    state = play(
        spread(),
        (0, "bring_in"),
        (1, "complete", 10),  # the bet
        (2, "raise", 20),
        (0, "raise", 30),
        (1, "raise", 40),  # the third raise
    )
    assert kinds(state) == ["fold", "call"]


def test_a_spreads_maximum_must_be_above_its_minimum():
    with pytest.raises(IllegalAction, match="maximum \\(5\\) must be above its minimum \\(5\\)"):
        GameConfig(structure="spread", small_bet=5, big_bet=5)


# --------------------------------------------------------------------- pot limit


def test_pot_limit_completes_from_the_small_bet_to_the_pot():
    # Antes 3 and the bring-in 2 make the pot 5; calling the 2 first makes it 7,
    # so the most is the 2 called plus 7: to 9.
    state = play(deal("pot", [200] * 3), (0, "bring_in"))
    assert wager(state) == LegalAction("complete", 5, 9, None)


def test_the_bring_in_may_complete_to_the_small_bet_even_above_the_pot():
    # The pot is the 3 antes; the least bet (5) is above it, and allowed.
    state = deal("pot", [200] * 3)
    assert wager(state) == LegalAction("complete", 5, 5, None)


def test_a_pot_limit_raise_is_at_least_the_last_full_bet_and_at_most_the_pot():
    # Completed to 9: the pot is 3 + 2 + 9 = 14, and 23 once the 9 is called;
    # the most is to 9 + 23 = 32, the least another 9, to 18.
    state = play(deal("pot", [200] * 3), (0, "bring_in"), (1, "complete", 9))
    assert wager(state) == LegalAction("raise", 18, 32, None)


def test_a_pot_limit_raise_above_the_pot_is_refused():
    state = play(deal("pot", [200] * 3), (0, "bring_in"), (1, "complete", 9))
    with pytest.raises(IllegalAction, match="raise to 18 to 32"):
        state.act(2, "raise", 33)


def test_a_short_stack_may_go_all_in_below_the_least_raise():
    # Player 2 has 11 behind after the ante: all in to 11, short of the 18 a raise needs.
    state = play(deal("pot", [200, 200, 12]), (0, "bring_in"), (1, "complete", 9))
    assert wager(state) == LegalAction("raise", 11, 11, None)


def test_pot_and_no_limit_rounds_are_never_capped():
    state = play(deal("no", [500] * 3), (0, "bring_in"), (1, "complete", 5), (2, "raise", 10))
    play(state, (0, "raise", 15), (1, "raise", 20), (2, "raise", 25))
    assert "raise" in kinds(state)


# -------------------------------------------------------------------- no limit


def test_no_limit_allows_any_bet_up_to_the_whole_stack():
    state = play(deal("no", [200] * 3), (0, "bring_in"))
    assert wager(state) == LegalAction("complete", 5, 199, None)


def test_an_all_in_short_of_a_full_raise_does_not_reopen_the_betting():
    # 1 completes to 10; 2 is all in for 11, one chip more: not a full raise.
    # 0 had only brought in, so may still raise; 1 already acted on the 10 and may not.
    state = play(
        deal("no", [200, 200, 12, 200]),
        (0, "bring_in"),
        (1, "complete", 10),
        (2, "raise", 11),
        (3, "call"),
    )
    assert "raise" in kinds(state)
    play(state, (0, "call"))
    assert kinds(state) == ["fold", "call"]


def test_a_player_yet_to_act_may_raise_a_short_all_in_by_a_full_raise():
    # After the complete to 10 and the short all-in to 11, a raise is 10 more than 11.
    state = play(
        deal("no", [200, 200, 12, 200]), (0, "bring_in"), (1, "complete", 10), (2, "raise", 11)
    )
    assert wager(state) == LegalAction("raise", 21, 199, None)


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    # 1 completes to 10; 2 is all in to 15 (5 more: short); 3 is all in to 21,
    # 11 above the last full level of 10: together a full raise, so 1 may raise again.
    state = play(
        deal("no", [200, 200, 16, 22, 200]),
        (0, "bring_in"),
        (1, "complete", 10),
        (2, "raise", 15),
        (3, "raise", 21),
        (4, "call"),
        (0, "call"),
    )
    assert state.to_act == 1
    assert "raise" in kinds(state)


def test_a_full_raise_sets_the_least_raise_after_it():
    # Bet 10 (complete), raised to 35: 25 more. The next raise is at least 25 more, to 60.
    state = play(deal("no", [500] * 3), (0, "bring_in"), (1, "complete", 10), (2, "raise", 35))
    assert wager(state) == LegalAction("raise", 60, 499, None)


# ------------------------------------------------------------------- in words


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "stud"}, "Seven-card stud, 5/10, ante 1, bring-in 2"),
        ({"variant": "stud", "structure": "spread", "big_bet": 20}, "Seven-card stud, spread 5-20"),
        ({"variant": "razz", "structure": "pot"}, "Razz, pot limit, minimum bet 5, ante 1"),
        ({"variant": "london", "structure": "no"}, "London lowball, no limit, minimum bet 5"),
    ],
)
def test_a_game_describes_its_structure(options, words):
    assert config(**options).describe().startswith(words)


def test_legal_actions_describe_a_range_as_from_and_to():
    assert LegalAction("raise", 20, 30, None).describe() == "raise to 20 to 30"
    assert LegalAction("bet", 5, 5, None).describe() == "bet 5"
