"""Every illegal or malformed move raises IllegalAction, says what was allowed,
and leaves the hand exactly as it was."""

from __future__ import annotations

import pytest

from tables.rules import BOARD, HandOver, HandState, IllegalAction, NotYourTurn
from tests.rules.stacking import config, play
from tests.rules.test_all_ins import RANKED, run_out


@pytest.fixture
def hand() -> HandState:
    """Three players; player 2 must bring in (2) or complete (5)."""
    return HandState.new(config(), [100] * 3, RANKED)


def refused(state: HandState, *move, match: str, error=IllegalAction) -> None:
    before = state.to_dict()
    with pytest.raises(error, match=match):
        state.act(*move)
    assert state.to_dict() == before


def test_illegal_action_is_a_value_error():
    assert issubclass(IllegalAction, ValueError)
    assert issubclass(NotYourTurn, IllegalAction) and issubclass(HandOver, IllegalAction)


def test_it_rejects_the_wrong_player(hand):
    refused(hand, 0, "call", match="player 2's turn", error=NotYourTurn)


def test_it_rejects_an_action_from_another_street(hand):
    play(hand, (2, "bring_in"), (0, "call"), (1, "call"))
    refused(hand, 0, "bring_in", match=r"allowed: check; bet 5")


def test_it_rejects_an_amount_out_of_range_and_names_the_allowed_one(hand):
    refused(
        hand, 2, "complete", 7, match=r"can't complete to 7; allowed: bring in 2; complete to 5"
    )


def test_it_rejects_a_check_facing_a_bet(hand):
    play(hand, (2, "bring_in"))
    refused(hand, 0, "check", match=r"allowed: fold; call 2; complete to 5")


def test_it_rejects_a_fold_when_checking_is_free(hand):
    play(hand, (2, "bring_in"), (0, "call"), (1, "call"))
    refused(hand, 0, "fold", match="allowed: check")


def test_it_rejects_a_raise_past_the_cap(hand):
    play(hand, (2, "bring_in"), (0, "complete", 5), (1, "raise", 10), (2, "raise", 15))
    play(hand, (0, "raise", 20))
    refused(hand, 1, "raise", 25, match=r"can't 'raise' now; allowed: fold; call 10")


def test_it_rejects_a_call_amount_that_is_not_the_call(hand):
    play(hand, (2, "bring_in"))
    refused(hand, 0, "call", 3, match="can't call 3")


def test_it_rejects_any_action_on_a_finished_hand(hand):
    run_out(hand)
    refused(hand, 0, "check", match="hand is over", error=HandOver)


@pytest.mark.parametrize(
    "move",
    [
        (2, None),
        (2, 5),
        (2, "shove"),
        (2, "complete", "5"),
        (2, "complete", 5.0),
        (2, "complete", True),
        (2, "complete", None),
        (2, "bring_in", -2),
        ("2", "bring_in"),
        (-1, "bring_in"),
        (3, "bring_in"),
        (2, "bring_in", None, [1, 2]),
    ],
)
def test_it_rejects_garbage_input(hand, move):
    refused(hand, *move, match=".")


def test_it_refuses_hand_dealt_cards_in_a_deck_hand(hand):
    before = hand.to_dict()
    with pytest.raises(IllegalAction, match="deals from its own deck"):
        hand.deal(BOARD, [0])
    assert hand.to_dict() == before


@pytest.mark.parametrize(
    ("stacks", "match"),
    [([100], "2 to 8"), ([100] * 9, "2 to 8"), ([100, 0], "positive"), ([100, 2.5], "positive")],
)
def test_it_rejects_bad_stacks(stacks, match):
    with pytest.raises(IllegalAction, match=match):
        HandState.new(config(), stacks)


@pytest.mark.parametrize("deck", [list(range(51)), [0] * 52, [*range(51), "x"]])
def test_it_rejects_a_deck_that_is_not_the_52_cards(deck):
    with pytest.raises(IllegalAction, match="52 cards"):
        HandState.new(config(), [100, 100], deck)


def test_scripted_deals_must_follow_the_dealing_order():
    state = HandState.from_script(config(), [100, 100])
    with pytest.raises(IllegalAction, match="go to player 0"):
        state.deal(1, [0, 1, 2])
    with pytest.raises(IllegalAction, match="3 card"):
        state.deal(0, [0, 1])
    state.deal(0, [0, 1, 2])
    with pytest.raises(IllegalAction, match="dealt twice"):
        state.deal(1, [2, 3, 4])
