"""Table stakes: all-ins on any street, side pots, short all-ins, uncalled bets."""

from __future__ import annotations

from tables.rules import HandState
from tests.rules.stacking import config, play, stack_deck

# Player 0 makes four aces, player 1 four kings, player 2 queens full: 0 > 1 > 2.
# Player 2's door deuce brings in; player 0's open aces act first from 4th street.
RANKED = stack_deck(
    {0: "AcAdAh", 1: "KcKdKh", 2: "QcQd2c"},
    {0: "As", 1: "Ks", 2: "Qh"},
    {0: "2d", 1: "3d", 2: "Js"},
    {0: "5c", 1: "3h", 2: "Jd"},
    {0: "7d", 1: "8d", 2: "9d"},
)


def run_out(state: HandState) -> HandState:
    """Everyone left brings in, checks or calls until the hand is over."""
    while not state.finished:
        kinds = [a.kind for a in state.legal_actions()]
        state.act(state.to_act, next(k for k in ("bring_in", "check", "call") if k in kinds))
    return state


def pots(state: HandState) -> list[tuple[int, list[int], list[int]]]:
    return [(p["amount"], p["eligible"], p["high_winners"]) for p in state.result["pots"]]


def test_a_player_all_in_on_the_ante_is_dealt_in_and_wins_the_main_pot():
    state = HandState.new(config(ante=5), [3, 100, 100], RANKED)
    assert state.is_all_in(0)
    run_out(state)
    assert pots(state)[0] == (9, [0, 1, 2], [0])
    assert state.stacks[0] == 9


def test_all_in_on_the_bring_in_posts_what_is_left_and_others_call_the_full_bring_in():
    deck = stack_deck({0: "????Kh", 1: "????2c", 2: "????Qs"})
    state = HandState.new(config(), [100, 2, 100], deck)
    play(state, (1, "bring_in"))
    assert state.is_all_in(1) and state.committed[1] == 2
    assert [a.min for a in state.legal_actions() if a.kind == "call"] == [2]


def test_side_pots_for_all_ins_on_different_streets():
    state = HandState.new(config(), [12, 40, 100], RANKED)
    # 3rd street: player 2 brings in with the four, everyone calls a completion.
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "call"))
    # 4th street: player 0 (pair of aces showing) bets; 6 left, so the raise puts him all in.
    play(state, (0, "bet", 5), (1, "raise", 10), (2, "call"), (0, "call"))
    assert state.is_all_in(0)
    run_out(state)
    assert pots(state) == [(36, [0, 1, 2], [0]), (8, [1, 2], [1])]
    assert state.stacks == [36, 24 + 8, 84]


def test_uncalled_bet_is_returned_when_everyone_folds():
    state = HandState.new(config(), [100, 100, 100], RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "fold"), (2, "fold"))
    assert state.finished
    returns = [(e["player"], e["amount"]) for e in state.events if e["type"] == "return"]
    assert returns == [(0, 3)]
    assert state.stacks == [104, 99, 97]


def test_the_part_of_a_bet_nobody_could_call_is_returned():
    state = HandState.new(config(), [100, 4, 100], RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "call"), (2, "fold"))
    returns = [(e["player"], e["amount"]) for e in state.events if e["type"] == "return"]
    assert returns == [(0, 2)]
    run_out(state)
    assert state.stacks == [107, 0, 97]


def fifth_street(stacks: list[int], **game) -> HandState:
    """Three players on 5th street; player 0 (trip aces showing) acts first."""
    state = HandState.new(config(**game), stacks, RANKED)
    play(state, (2, "bring_in"), (0, "call"), (1, "call"))
    play(state, (0, "check"), (1, "check"), (2, "check"))
    assert state.street_name == "5th street" and state.to_act == 0
    return state


def test_a_short_all_in_of_half_a_bet_reopens_the_raising():
    state = fifth_street([100, 18, 100])
    play(state, (0, "bet", 10), (1, "raise", 15), (2, "call"))
    assert state.to_act == 0
    assert {a.kind for a in state.legal_actions()} == {"fold", "call", "raise"}
    assert [a.amounts for a in state.legal_actions() if a.kind == "raise"] == [(25,)]


def test_a_short_all_in_under_half_a_bet_does_not_reopen_the_raising():
    state = fifth_street([100, 17, 100])
    play(state, (0, "bet", 10), (1, "raise", 14))
    # Player 2 has not acted yet, so may still make a full raise over the bet.
    assert [a.amounts for a in state.legal_actions() if a.kind == "raise"] == [(20,)]
    play(state, (2, "call"))
    assert {a.kind for a in state.legal_actions()} == {"fold", "call"}


def test_the_full_bet_rule_needs_a_whole_raise_to_reopen():
    state = fifth_street([100, 18, 100], short_all_in="full")
    play(state, (0, "bet", 10), (1, "raise", 15), (2, "call"))
    assert {a.kind for a in state.legal_actions()} == {"fold", "call"}


def test_nobody_is_forced_out_for_lack_of_chips():
    state = fifth_street([100, 12, 100])
    play(state, (0, "bet", 10))
    call = [a for a in state.legal_actions() if a.kind == "call"]
    assert call[0].min == 9  # all that is left
    play(state, (1, "call"))
    assert state.is_all_in(1) and not state.folded[1]


def test_no_raise_is_offered_when_every_opponent_is_all_in():
    state = fifth_street([100, 100, 12])
    play(state, (0, "check"), (1, "check"), (2, "bet", 9), (0, "fold"))
    assert [a.kind for a in state.legal_actions()] == ["fold", "call"]
