"""Showdown order, mucking, split pots and odd chips, and rake."""

from __future__ import annotations

from tables.rules import HandState, RakeRule
from tables.rules.views import view
from tests.rules.seats import down_of
from tests.rules.stacking import config, play, stack_deck
from tests.rules.test_all_ins import RANKED, run_out


def shows(state: HandState) -> list[tuple[str, int]]:
    return [(e["type"], e["player"]) for e in state.events if e["type"] in ("show", "muck")]


def to_seventh(**game) -> HandState:
    state = HandState.new(config(**game), [200] * 3, RANKED)
    play(state, (2, "bring_in"), (0, "call"), (1, "call"))
    while state.street_name != "7th street":  # everyone checks 4th to 6th street
        state.act(state.to_act, "check")
    # Seventh street: player 1's kings and threes showing act first.
    assert state.to_act == 1
    return state


def test_the_last_bettor_on_seventh_street_shows_first():
    state = play(to_seventh(), (1, "check"), (2, "bet", 10), (0, "call"), (1, "call"))
    assert shows(state)[0] == ("show", 2)


def test_the_last_raiser_shows_first():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "raise", 20))
    play(state, (1, "call"), (2, "call"))
    assert shows(state)[0] == ("show", 0)


def test_with_no_bet_the_first_to_act_shows_first_then_clockwise():
    state = play(to_seventh(auto_muck=False), (1, "check"), (2, "check"), (0, "check"))
    assert shows(state) == [("show", 1), ("show", 2), ("show", 0)]


def test_auto_muck_hides_hands_that_cannot_win():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "call"))
    # Kings show first; queens full can't beat them and are mucked; aces can.
    assert shows(state) == [("show", 1), ("muck", 2), ("show", 0)]
    assert down_of(view(state, 1)["players"][2]) == [None, None, None]
    assert "2" not in state.result["hands"]


def test_without_auto_muck_every_hand_is_shown():
    state = play(to_seventh(auto_muck=False), (1, "bet", 10), (2, "call"), (0, "call"))
    assert shows(state) == [("show", 1), ("show", 2), ("show", 0)]


def test_everyone_shows_when_someone_is_all_in():
    state = HandState.new(config(), [3, 200, 200], RANKED)
    run_out(play(state, (2, "bring_in"), (0, "call")))
    assert sorted(p for kind, p in shows(state) if kind == "show") == [0, 1, 2]


def test_cards_speak_the_best_hand_wins_whoever_shows_first():
    state = play(to_seventh(), (1, "bet", 10), (2, "call"), (0, "call"))
    assert state.result["pots"][0]["high_winners"] == [0]
    assert state.result["hands"]["0"]["high"] == "four of a kind, aces"


def hi_lo(streets, stacks, moves, **game) -> HandState:
    state = HandState.new(config(variant="stud8", **game), stacks, stack_deck(*streets))
    return run_out(play(state, *moves))


def payouts(state: HandState) -> list[int]:
    return state.result["payouts"]


def test_hi_lo_a_wheel_scoops_high_and_low():
    streets = (
        {0: "Ac2d3h", 1: "KcKh9d", 2: "QdQh6s"},
        {0: "4s", 1: "Th", 2: "Js"},
        {0: "5c", 1: "Jc", 2: "9c"},
        {0: "Kd", 1: "8s", 2: "9h"},
        {0: "Qc", 1: "2s", 2: "Td"},
    )
    state = hi_lo(streets, [100] * 3, [(0, "bring_in"), (1, "call"), (2, "call")])
    pot = state.result["pots"][0]
    assert (pot["high_winners"], pot["low_winners"]) == ([0], [0])
    assert payouts(state) == [9, 0, 0]
    assert state.result["hands"]["0"] == {
        "cards": ["Ac", "2d", "3h", "4s", "5c", "Kd", "Qc"],
        "high": "straight, five high",
        "low": "5-4-3-2-A low",
    }


def test_hi_lo_with_no_qualifying_low_the_high_hand_takes_it_all():
    streets = (
        {0: "AcAd3h", 1: "KcKh9d", 2: "QdQh6s"},
        {0: "Kd", 1: "Th", 2: "Js"},
        {0: "Qc", 1: "Jc", 2: "9c"},
        {0: "Jh", 1: "8s", 2: "9h"},
        {0: "9s", 1: "2s", 2: "Td"},
    )
    state = hi_lo(streets, [100] * 3, [(0, "bring_in"), (1, "call"), (2, "call")])
    pot = state.result["pots"][0]
    assert (pot["high_winners"], pot["low_winners"]) == ([2], [])
    assert payouts(state) == [0, 0, 9]


def test_hi_lo_tied_lows_split_with_the_odd_chip_to_the_lowest_card_by_suit():
    streets = (
        {0: "2c3cQh", 1: "2d3dKh", 2: "????Ac"},
        {0: "4d", 1: "4h"},
        {0: "5h", 1: "5s"},
        {0: "Qs", 1: "Ks"},
        {0: "7c", 1: "7d"},
    )
    state = hi_lo(streets, [100] * 3, [(0, "bring_in"), (1, "call"), (2, "fold")])
    pot = state.result["pots"][0]
    assert pot["amount"] == 7
    assert (pot["high_winners"], pot["low_winners"]) == ([1], [0, 1])
    assert payouts(state) == [2, 5, 0]  # high 4; low 3 = 2 (the deuce of clubs) + 1
    assert state.result["hands"]["0"]["low"] == "7-5-4-3-2 low"


def test_hi_lo_side_pots_are_split_each_on_its_own():
    streets = (
        {0: "AhKhQh", 1: "Ac2c4d", 2: "QsQd9d"},
        {0: "Jh", 1: "6s", 2: "9s"},
        {0: "9h", 1: "7c", 2: "Tc"},
        {0: "2s", 1: "Kd", 2: "Td"},
        {0: "3s", 1: "Kc", 2: "5c"},
    )
    state = hi_lo(streets, [1, 100, 100], [(1, "bring_in"), (2, "call")])
    main, side = state.result["pots"]
    assert (main["amount"], main["high_winners"], main["low_winners"]) == (3, [0], [1])
    assert (side["amount"], side["high_winners"], side["low_winners"]) == (4, [2], [1])
    assert state.stacks == [2, 100, 99]


def test_tied_high_hands_split_with_the_odd_chip_to_the_highest_card_by_suit():
    deck = stack_deck(
        {0: "5c6dKh", 1: "5d6hQs", 2: "????2c"},
        {0: "7h", 1: "7s", 2: "3c"},
        {0: "8s", 1: "8c"},
        {0: "9c", 1: "9d"},
        {0: "2h", 1: "3s"},
    )
    state = HandState.new(config(), [100] * 3, deck)
    play(state, (2, "bring_in"), (0, "call"), (1, "call"))
    play(state, (0, "bet", 5), (1, "call"), (2, "fold"))
    run_out(state)
    pot = state.result["pots"][0]
    assert pot["amount"] == 19 and pot["high_winners"] == [1, 0]
    assert payouts(state) == [9, 10, 0]  # the nine of diamonds outranks the nine of clubs


def test_razz_best_low_wins_and_pairs_count_against_it():
    deck = stack_deck(
        {0: "AcAdKh", 1: "2c3dQs"},
        {0: "2h", 1: "4c"},
        {0: "3h", 1: "6d"},
        {0: "4s", 1: "7h"},
        {0: "5d", 1: "8s"},
    )
    state = HandState.new(config(variant="razz"), [100, 100], deck)
    run_out(play(state, (0, "bring_in")))
    assert state.result["pots"][0]["low_winners"] == [0]
    assert state.result["hands"]["0"]["low"] == "5-4-3-2-A low"


def raked(rule: RakeRule, **game) -> HandState:
    return to_seventh(rake=rule, **game)


def test_rake_is_a_capped_percentage_taken_before_the_award():
    state = play(raked(RakeRule("20", cap=2)), (1, "check"), (2, "check"), (0, "check"))
    assert state.result["rake"] == 1  # 20% of a 9-chip pot, rounded down
    assert sum(payouts(state)) == 9 - 1
    state = play(raked(RakeRule("50", cap=2)), (1, "check"), (2, "check"), (0, "check"))
    assert state.result["rake"] == 2


def test_no_rake_when_the_hand_ends_on_third_street():
    state = HandState.new(config(rake=RakeRule("10", cap=5)), [100] * 3, RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "fold"), (2, "fold"))
    assert state.result["rake"] == 0


def test_third_street_hands_are_raked_when_the_option_is_off():
    rule = RakeRule("50", cap=5, no_rake_third_street=False)
    state = HandState.new(config(rake=rule), [100] * 3, RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "fold"), (2, "fold"))
    assert state.result["rake"] == 3  # half of antes 3 + bring-in 2 + called 2
    assert state.stacks == [100 - 1 - 2 + 7 - 3, 99, 97]


def test_a_hand_everyone_else_folded_is_one_pot_to_the_last_player_less_the_rake():
    rule = RakeRule("50", cap=5, no_rake_third_street=False)
    state = HandState.new(config(rake=rule), [100] * 3, RANKED)
    play(state, (2, "bring_in"), (0, "complete", 5), (1, "fold"), (2, "fold"))
    # The complete's uncalled 3 went back: antes 3, the bring-in 2 and 2 of the complete.
    assert state.result == {
        "uncontested": True,
        "rake": 3,
        "payouts": [4, 0, 0],
        "pots": [
            {
                "amount": 7,
                "rake": 3,
                "eligible": [0],
                "high_winners": [0],
                "low_winners": [],
                "shares": [[0, 4]],
            }
        ],
        "hands": {},
    }
    assert state.events[-1] == {"type": "result", "payouts": [4, 0, 0], "rake": 3}


def test_rake_is_shared_between_pots_by_size():
    state = HandState.new(config(rake=RakeRule("50", cap=4)), [3, 200, 200], RANKED)
    run_out(play(state, (2, "bring_in"), (0, "call")))
    shares = [pot["rake"] for pot in state.result["pots"]]
    assert sum(shares) == state.result["rake"] == 4
    assert sum(pot["amount"] for pot in state.result["pots"]) == 3 * 3
