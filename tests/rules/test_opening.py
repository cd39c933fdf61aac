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


def test_razz_without_a_bring_in_tied_door_cards_go_to_position():
    assert hand(["9c", "3s", "3d"], bring_in=0, variant="razz").to_act == 1


def test_razz_without_a_bring_in_the_suit_option_gives_a_door_tie_to_the_lower_suit():
    # Seed 003: in a low game the lower suit acts first; diamonds are below spades.
    assert hand(["9c", "3s", "3d"], bring_in=0, variant="razz", tie_break="suit").to_act == 2


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


def all_in_on_fourth(ups: dict[int, str], short: int, **options) -> HandState:
    """Player ``short`` bets their last chips on 3rd street (no bring-in), the
    others call; then 4th street opens with the ``ups`` showing."""
    third = {p: "????" + cards[:2] for p, cards in ups.items()}
    fourth = {p: cards[2:] for p, cards in ups.items()}
    stacks = [6 if p == short else 100 for p in ups]
    state = HandState.new(config(bring_in=0, **options), stacks, stack_deck(third, fourth))
    while state.street_name == "3rd street":
        if state.to_act == short:
            state.act(short, "bet", 5)  # all in after the ante of 1
        else:
            state.act(state.to_act, "call" if state.current_bet else "check")
    assert state.is_all_in(short)
    return state


def test_when_the_best_showing_hand_is_all_in_the_next_seat_clockwise_acts():
    # WSOP: "If the high hand is all-in, action proceeds clockwise as if that
    # person had checked." Kings (player 0) are all in: player 1 acts, although
    # player 2's seven-four is the best hand still betting.
    state = all_in_on_fourth({0: "KhKd", 1: "2c3c", 2: "4s7h"}, short=0)
    assert state.to_act == 1
    assert [a.kind for a in state.legal_actions()] == ["check", "bet"]


def test_the_next_seat_after_an_all_in_opener_wraps_around_the_table():
    state = all_in_on_fourth({0: "2c3c", 1: "4s7h", 2: "KhKd"}, short=2)
    assert state.to_act == 0


def test_the_next_seat_skips_players_who_folded():
    ups = {0: "KhKd", 1: "2c3c", 2: "4s7h", 3: "5d9c"}
    third = {p: "????" + cards[:2] for p, cards in ups.items()}
    fourth = {p: cards[2:] for p, cards in ups.items()}
    state = HandState.new(config(bring_in=0), [6, 100, 100, 100], stack_deck(third, fourth))
    # 3rd street: player 0's king door opens (no bring-in) and goes all in.
    play(state, (0, "bet", 5), (1, "fold"), (2, "call"), (3, "call"))
    assert state.street_name == "4th street"
    assert state.to_act == 2


def test_the_all_in_opener_still_shows_first_when_nobody_bets_the_last_street():
    state = all_in_on_fourth({0: "KhKd", 1: "2c3c", 2: "4s7h"}, short=0, auto_muck=False)
    while not state.finished:
        state.act(state.to_act, "check")
    shows = [e["player"] for e in state.events if e["type"] == "show"]
    assert shows[0] == 0  # kings showing would have acted first on 7th street
    assert shows == [0, 1, 2]


def test_the_option_lets_the_best_hand_still_betting_act_first():
    ups = {0: "KhKd", 1: "2c3c", 2: "4s7h"}
    state = all_in_on_fourth(ups, short=0, all_in_opener="best_still_betting")
    assert state.to_act == 2  # seven-four beats three-deuce


def test_the_options_agree_when_the_opener_can_still_bet():
    ups = {0: "KhKd", 1: "2c3c", 2: "4s7h"}
    wsop = all_in_on_fourth(ups, short=1)
    other = all_in_on_fourth(ups, short=1, all_in_opener="best_still_betting")
    assert wsop.to_act == other.to_act == 0


def ante_all_in(doors: list[str], short: int, **options) -> HandState:
    """3rd street with player ``short`` all in on the ante of 1."""
    third = {p: "????" + door for p, door in enumerate(doors)}
    stacks = [1 if p == short else 100 for p in range(len(doors))]
    return HandState.new(config(**options), stacks, stack_deck(third))


def test_when_the_low_card_is_all_in_on_the_ante_the_next_seat_brings_in():
    # WSOP: "If the Participant with the low card is all-in for the ante, the
    # person to that Participant's left acts first."
    state = ante_all_in(["9c", "2c", "Kh", "3d"], short=1)
    assert state.to_act == 2
    options = {a.kind: a.amounts for a in state.legal_actions()}
    assert options == {"bring_in": (2,), "complete": (5,)}


def test_with_the_option_the_lowest_card_with_chips_brings_in():
    state = ante_all_in(["9c", "2c", "Kh", "3d"], short=1, all_in_opener="best_still_betting")
    assert state.to_act == 3


def test_in_razz_the_seat_after_an_all_in_high_card_brings_in():
    assert ante_all_in(["9c", "Kc", "2h"], short=1, variant="razz").to_act == 2


def test_without_a_bring_in_the_seat_after_an_all_in_best_door_card_opens():
    state = ante_all_in(["9c", "Ac", "Kh"], short=1, bring_in=0)
    assert state.to_act == 2
    assert kinds(state) == ["check", "bet"]
