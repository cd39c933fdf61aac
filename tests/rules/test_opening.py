"""Who brings in, who opens, and who acts first on later streets."""

from __future__ import annotations

from tables.rules import HandState
from tests.rules.stacking import config, play, stack_deck


def hand(doors: list[str], *, stacks: int = 100, **options) -> HandState:
    third = {p: "????" + door for p, door in enumerate(doors)}
    return HandState.new(config(**options), [stacks] * len(doors), stack_deck(third))


def kinds(state: HandState) -> list[str]:
    return [a.kind for a in state.legal_actions()]


def test_lowest_door_card_brings_in_with_clubs_lowest():
    assert hand(["Ac", "2h", "2c"]).to_act == 2


def test_an_ace_is_high_for_the_stud_bring_in():
    assert hand(["Ad", "3c", "Kh"]).to_act == 1


def test_an_ace_is_high_for_the_hi_lo_bring_in():
    assert hand(["Ad", "3c", "Kh"], variant="stud8").to_act == 1


def test_razz_highest_door_card_brings_in_with_the_ace_low():
    assert hand(["Kh", "As", "Qs"], variant="razz").to_act == 0


def test_razz_bring_in_ties_go_to_the_highest_suit():
    assert hand(["Kh", "As", "Ks"], variant="razz").to_act == 2


def test_bring_in_player_may_post_or_complete():
    state = hand(["9c", "2d", "Kh"])
    options = {a.kind: (a.min, a.max) for a in state.legal_actions()}
    assert options == {"bring_in": (2, 2), "complete": (5, 5)}


def test_after_the_bring_in_the_next_player_may_fold_call_or_complete():
    state = play(hand(["9c", "2d", "Kh"]), (1, "bring_in"))
    assert state.to_act == 2
    options = {a.kind: a.amounts for a in state.legal_actions()}
    assert options == {"fold": None, "call": (2,), "complete": (5,)}


def test_the_bring_in_gets_no_option_when_everyone_just_calls():
    state = play(hand(["9c", "2d", "Kh"]), (1, "bring_in"), (2, "call"), (0, "call"))
    assert state.street_name == "4th street"


def test_once_completed_the_bring_in_may_raise():
    state = play(hand(["9c", "2d", "Kh"]), (1, "bring_in"), (2, "complete", 5), (0, "call"))
    assert state.to_act == 1
    assert kinds(state) == ["fold", "call", "raise"]


def test_without_a_bring_in_the_highest_door_card_opens_and_may_check():
    state = hand(["9c", "Kd", "2h"], bring_in=0)
    assert state.to_act == 1
    assert kinds(state) == ["check", "bet"]


def test_without_a_bring_in_tied_door_cards_go_to_position():
    assert hand(["9c", "Kd", "Ks"], bring_in=0).to_act == 1


def test_without_a_bring_in_the_suit_option_breaks_door_ties():
    assert hand(["9c", "Kd", "Ks"], bring_in=0, tie_break="suit").to_act == 2


def test_razz_without_a_bring_in_the_lowest_door_card_opens():
    assert hand(["9c", "Ad", "2h"], bring_in=0, variant="razz").to_act == 1


def fourth_street(ups: dict[int, str], **options) -> HandState:
    third = {p: "????" + cards[:2] for p, cards in ups.items()}
    fourth = {p: cards[2:] for p, cards in ups.items()}
    game = config(bring_in=0, **options)
    state = HandState.new(game, [100] * len(ups), stack_deck(third, fourth))
    for _ in ups:
        state.act(state.to_act, "check")
    assert state.street_name == "4th street"
    return state


def test_an_open_pair_acts_before_a_higher_unpaired_hand():
    assert fourth_street({0: "AsKs", 1: "3c3d", 2: "QhJh"}).to_act == 1


def test_showing_straight_and_flush_draws_do_not_count():
    assert fourth_street({0: "9s8s", 1: "Th2c", 2: "5h5d"}).to_act == 2


def test_showing_ties_go_to_position_by_default():
    assert fourth_street({0: "2c3c", 1: "KhQd", 2: "KsQc"}).to_act == 1


def test_the_suit_option_breaks_showing_ties_by_the_highest_card():
    state = fourth_street({0: "2c3c", 1: "KhQd", 2: "KsQc"}, tie_break="suit")
    assert state.to_act == 2


def test_razz_lowest_showing_hand_acts_first():
    assert fourth_street({0: "7c2d", 1: "6h2c", 2: "AsAh"}, variant="razz").to_act == 1


def test_razz_suit_option_gives_a_tie_to_the_lower_suited_top_card():
    # Seed 003: 6-2 against 6-2, the six of clubs acts before the six of diamonds.
    ups = {0: "6d2h", 1: "6c2s", 2: "KsQs"}
    assert fourth_street(ups, variant="razz", tie_break="suit").to_act == 1


def test_hi_lo_best_high_showing_hand_acts_first():
    assert fourth_street({0: "2c3c", 1: "KhKd", 2: "AsQh"}, variant="stud8").to_act == 1


def test_when_the_best_showing_hand_is_all_in_the_best_hand_still_betting_acts():
    ups = {0: "KhKd", 1: "2c3c", 2: "4s7h"}
    third = {p: "????" + cards[:2] for p, cards in ups.items()}
    fourth = {p: cards[2:] for p, cards in ups.items()}
    state = HandState.new(config(bring_in=0), [6, 100, 100], stack_deck(third, fourth))
    play(state, (0, "bet", 5), (1, "call"), (2, "call"))
    assert state.is_all_in(0)
    assert state.to_act == 2  # seven-four beats three-deuce
