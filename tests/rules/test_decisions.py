"""Decisions that are not bets, worked through with the cards written out:
roll your own's rolls (seed 000), English stud's exchanges (seed 003) and
hi-lo declare (seed 003); and the bug of Aces, Straights and Flushes (003).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.rules import HandState, IllegalAction, evaluate
from tables.rules.cards import make_card, parse_card, parse_cards, rank
from tables.rules.errors import NotYourTurn
from tables.rules.evaluators import Evaluator
from tables.rules.state import DECIDING, UNKNOWN
from tables.rules.variants.wilds import rank_mask
from tables.rules.views import events_for, view
from tests.rules.seats import down_of, up_of
from tests.rules.stacking import config, stack_deck
from tests.rules.strategies import examples

Choose = Callable[[HandState, int], tuple[str, list[int] | None]]


def bet_passively(state: HandState) -> None:
    """The player to act brings in, checks or calls."""
    options = [a.kind for a in state.legal_actions()]
    move = next(kind for kind in ("bring_in", "check", "call") if kind in options)
    state.act(state.to_act, move)


def play_to_decision(state: HandState) -> HandState:
    """Bring in, check and call until a decision (or the end) is reached."""
    while not state.finished and state.phase != DECIDING:
        bet_passively(state)
    return state


def decide(state: HandState, picks: dict[int, tuple[str, str | None]]) -> HandState:
    """Make the decision under way: each player's (kind, card or None), in
    the order given."""
    for player, (kind, card) in picks.items():
        state.act(player, kind, None, None if card is None else [parse_card(card)])
    return state


# ------------------------------------------------------------------ roll your own

# Two rounds shown here; the other two are dealt from the rest of the deck.
# Alice: K♥ 2♦ then 2♠ 9♥. Bob: 7♣ 7♦ then 4♥ J♣.
ROLL_DECK = stack_deck({0: "Kh2d", 1: "7c7d"}, {0: "2s9h", 1: "4hJc"})


def roll_your_own(**options) -> HandState:
    return HandState.new(config(variant="roll_your_own", **options), [100, 100], ROLL_DECK)


def test_roll_your_own_deals_two_down_cards_and_asks_everyone_to_roll_at_once():
    state = roll_your_own()
    assert state.phase == DECIDING and state.decision_name == "roll"
    assert state.to_act is None and state.deciding() == [0, 1]
    assert [down_of(seat) for seat in view(state, 0)["players"]] == [["Kh", "2d"], [None, None]]
    [roll] = state.legal_actions(1)
    assert roll.kind == "roll" and roll.cards == tuple(parse_cards("7c7d"))


def test_a_roll_stays_hidden_until_everyone_has_rolled():
    state = decide(roll_your_own(), {0: ("roll", "Kh")})
    assert state.deciding() == [1]
    bobs = view(state, 1)
    assert bobs["players"][0]["cards"] == [{"card": None, "up": False}] * 2
    assert bobs["your_choice"] is None
    assert view(state, 0)["your_choice"] == {"kind": "roll", "card": "Kh"}
    told = events_for(state, 1)
    assert told[-1] == {"type": "decided", "player": 0}
    assert "Kh" not in str(told)
    with pytest.raises(IllegalAction, match="nothing to decide"):
        state.act(0, "roll", None, [parse_card("2d")])  # no second thoughts

    decide(state, {1: ("roll", "7c")})
    assert [up_of(seat) for seat in view(state, None)["players"]] == [["Kh"], ["7c"]]
    rolls = [e for e in state.events if e["type"] == "roll"]
    assert [(e["player"], e["card"]) for e in rolls] == [
        (0, parse_card("Kh")),
        (1, parse_card("7c")),
    ]
    # The rolled cards are the door cards: bob's seven is lower, so he brings in.
    assert state.to_act == 1 and "bring_in" in [a.kind for a in state.legal_actions()]


def test_a_roll_must_name_one_of_the_rollers_own_down_cards():
    state = roll_your_own()
    for cards in ([parse_card("7c")], [parse_card("Kh"), parse_card("2d")], [], None):
        with pytest.raises(IllegalAction):
            state.act(0, "roll", None, cards)
    with pytest.raises(IllegalAction):
        state.act(0, "check")
    with pytest.raises(IllegalAction):
        state.act(0, "roll", 5, [parse_card("Kh")])
    assert state.deciding() == [0, 1]


def test_after_the_first_round_any_down_card_may_be_rolled():
    state = play_to_decision(decide(roll_your_own(), {0: ("roll", "Kh"), 1: ("roll", "7c")}))
    assert state.street_name == "2nd round"
    [roll] = state.legal_actions(0)
    assert roll.cards == tuple(parse_cards("2d2s9h"))  # 2♦ from the first round too
    decide(state, {1: ("roll", "7d"), 0: ("roll", "2d")})  # in either order
    assert up_of(view(state, None)["players"][0]) == ["Kh", "2d"]
    assert up_of(view(state, None)["players"][1]) == ["7c", "7d"]


def test_roll_your_own_plays_the_best_five_of_eight_cards():
    state = roll_your_own(auto_muck=False)
    while not state.finished:
        if state.phase == DECIDING:
            for player in state.deciding():
                kind, cards = state.default_decision(player)
                state.act(player, kind, None, cards)
        else:
            bet_passively(state)
    assert [len(state.cards[p]) for p in (0, 1)] == [8, 8]
    assert [sum(h.up for h in state.cards[p]) for p in (0, 1)] == [4, 4]
    evaluator = state.game.evaluator
    for player, hand in state.result["hands"].items():
        cards = parse_cards("".join(hand["cards"]))
        assert hand["high"] == evaluator.high_name(cards, evaluator.high_key(cards))
        assert len(cards) == 8, player


# ---------------------------------------------------------------------- English stud

# Alice: A♥ A♦ down, 2♣ 9♥ 4♣ up, then 5♠ up and 7♦ down.
# Bob: K♠ K♦ down, 3♣ 8♦ Q♣ up, then J♥ up and 7♠ down.
# Alice swaps her 2♣ for the A♣ (face up, in its place) after 5th street;
# after 6th bob swaps his K♠ (down) for the K♥.
ENGLISH_DECK = stack_deck(
    {0: "AhAd2c", 1: "KsKd3c"},
    {0: "9h", 1: "8d"},
    {0: "4c", 1: "Qc"},
    {"draws": "Ac"},
    {0: "5s", 1: "Jh"},
    {"draws": "Kh"},
    {0: "7d", 1: "7s"},
)


def english(players: int = 2, deck: list[int] = ENGLISH_DECK, **options) -> HandState:
    rules = config(variant="english", auto_muck=False, **options)
    return HandState.new(rules, [100] * players, deck)


def test_an_exchange_is_offered_in_turn_from_the_dealers_left_after_5th_street():
    state = play_to_decision(english())
    assert state.street_name == "5th street" and state.decision_name == "exchange"
    assert state.to_act == 0 and state.deciding() == [0]
    exchange, pat = state.legal_actions(0)
    assert exchange.kind == "exchange" and pat.kind == "stand_pat"
    assert exchange.cards == tuple(parse_cards("AhAd2c9h4c"))
    assert exchange.min is None  # free unless the table sets a price
    with pytest.raises(NotYourTurn):
        state.act(1, "stand_pat")


def test_english_studs_paid_exchange_goes_to_the_pot_unmatched():
    state = play_to_decision(english(exchange_price=True))
    pot_before, stack_before = state.pot_total, state.stacks[0]
    exchange, _ = state.legal_actions(0)
    assert (exchange.min, exchange.max) == (10, 10)  # the big bet: 5th street's size
    decide(state, {0: ("exchange", "2c")})
    assert state.stacks[0] == stack_before - 10 and state.pot_total == pot_before + 10
    assert up_of(view(state, None)["players"][0]) == ["Ac", "9h", "4c"]  # in the 2♣'s place
    assert parse_card("2c") in state.discards
    decide(state, {1: ("stand_pat", None)})
    # 6th street's round opens with nothing to call: the price is no bet.
    assert state.street_name == "6th street" and state.current_bet == 0
    assert "check" in [a.kind for a in state.legal_actions()]
    play_to_decision(state)
    decide(state, {0: ("stand_pat", None), 1: ("exchange", "Ks")})
    play_to_decision(state)
    while not state.finished:
        bet_passively(state)
    hands = state.result["hands"]
    assert hands["0"]["cards"] == ["Ah", "Ad", "Ac", "9h", "4c", "5s", "7d"]
    assert hands["0"]["high"] == "three of a kind, aces"
    assert hands["1"]["cards"] == ["Kh", "Kd", "3c", "8d", "Qc", "Jh", "7s"]
    # Antes 2, the bring-in called 4, two prices of 10: all alice's.
    assert state.result["payouts"] == [26, 0]
    assert state.stacks == [113, 87]


def test_another_players_exchanged_down_card_and_its_replacement_stay_hidden():
    state = play_to_decision(english())
    decide(state, {0: ("stand_pat", None), 1: ("stand_pat", None)})
    play_to_decision(state)
    decide(state, {0: ("stand_pat", None), 1: ("exchange", "Ks")})
    alices = events_for(state, 0)
    exchange = next(e for e in alices if e["type"] == "exchange")
    assert exchange == {"type": "exchange", "player": 1, "card": None, "up": False,
                        "street": 3}  # fmt: skip
    assert state.game.streets[3] == "6th street"
    [replacement] = [e for e in alices if e.get("exchange")]
    assert replacement["type"] == "deal" and replacement["card"] is None
    bobs = events_for(state, 1)
    assert next(e for e in bobs if e["type"] == "exchange")["card"] == "Ks"
    new = down_of(view(state, 1)["players"][1])[0]  # in the K♠'s place
    assert [e["card"] for e in bobs if e.get("exchange")] == [new] and new != "Ks"
    assert set(down_of(view(state, 0)["players"][1])) == {None}


def test_english_stud_deals_a_seventh_card_to_five_players_but_not_to_six():
    for players, cards in ((5, 7), (6, 6)):
        state = english(players, deck=list(range(52)))
        while not state.finished:
            if state.phase == DECIDING:
                decide(state, {state.to_act: ("stand_pat", None)})
            else:
                bet_passively(state)
        assert {len(hand) for hand in state.cards} == {cards}, players


def test_the_last_card_can_be_exchanged_only_while_the_deck_has_one():
    state = english(6, deck=list(range(52)))
    exchanges = 0
    while not state.finished:
        if state.phase == DECIDING:
            options = state.legal_actions(state.to_act)
            if options[0].kind == "exchange":
                state.act(state.to_act, "exchange", None, [options[0].cards[-1]])
                exchanges += 1
            else:
                state.act(state.to_act, "stand_pat")
        else:
            bet_passively(state)
    # Six players' 36 cards and 4 burns leave 12 cards: every exchange is
    # dealt, the burns coming back under the deck once it is empty.
    assert exchanges == 12
    assert len(state.discards) == 12


# ------------------------------------------------------------------ the bug


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("9h7h4h2hKcKd", "flush, ace high (with the bug)"),  # the bug completes a flush
        ("Ac7d4h9sJc3d", "pair of aces (with the bug)"),  # the bug is an ace
        ("KcKd7h4s9d2c", "pair of kings (with the bug)"),  # never a third king: an ace kicker
        ("9cTdJhQs3c4d", "straight, king high (with the bug)"),  # the top of the straight
        ("AcAdAhAs2c3d", "five of a kind, aces (with the bug)"),  # the fifth ace
        ("KhQhJhTh2c3d", "royal flush (with the bug)"),  # a royal flush
        ("9c9d9h4s4d2c", "full house, nines full of fours"),  # the bug plays no part
    ],
)
def test_the_bug_is_an_ace_or_completes_a_straight_or_a_flush(cards, words):
    evaluator = Evaluator(high=True, bug=True)
    held = parse_cards(cards)
    key = evaluator.high_key(held)
    assert key is not None
    assert evaluator.high_name(held, key) == words


def test_the_bug_never_pairs_a_rank_but_aces():
    evaluator, plain = Evaluator(high=True, bug=True), Evaluator(high=True)
    held = parse_cards("KcKd7h4s9d2c")
    with_king = plain.high_key([*held, parse_card("Kh")])
    with_ace = plain.high_key([*held, parse_card("Ah")])
    assert evaluator.high_key(held) == with_ace < with_king


def test_aces_straights_and_flushes_deals_six_cards_and_the_bug_completes_a_flush():
    # Alice: 9♥ 7♥ down, 4♥ 2♥ K♣ up, K♦ down: a flush with the bug.
    # Bob: Q♣ Q♦ down, Q♥ 3♠ 5♦ up, 8♠ down: three queens.
    deck = stack_deck(
        {0: "9h7h4h", 1: "QcQdQh"},
        {0: "2h", 1: "3s"},
        {0: "Kc", 1: "5d"},
        {0: "Kd", 1: "8s"},
    )
    state = HandState.new(config(variant="aces_straights_flushes"), [100, 100], deck)
    assert view(state, None)["bug"] is True
    while not state.finished:
        bet_passively(state)
    assert [len(hand) for hand in state.cards] == [6, 6]
    assert state.result["hands"]["0"]["high"] == "flush, ace high (with the bug)"
    assert state.result["pots"][0]["high_winners"] == [0]


# ------------------------------------------------------------------ hi-lo declare

# Alice: A♣ 2♦ down, 3♥ 4♠ 5♣ K♦ up, 9♣ down: a wheel, a straight and the best low.
# Bob: A♦ 2♣ down, 3♠ 4♦ 5♥ Q♣ up, 8♠ down: the same wheel.
# Carol: K♣ K♥ down, 7♦ 9♦ J♠ 6♣ up, T♥ down: a pair of kings.
WHEELS = stack_deck(
    {0: "Ac2d3h", 1: "Ad2c3s", 2: "KcKh7d"},
    {0: "4s", 1: "4d", 2: "9d"},
    {0: "5c", 1: "5h", 2: "Js"},
    {0: "Kd", 1: "Qc", 2: "6c"},
    {0: "9c", 1: "8s", 2: "Th"},
)


def declare(deck: list[int] = WHEELS, **options) -> HandState:
    rules = config(variant="declare", auto_muck=False, **options)
    return play_to_decision(HandState.new(rules, [100, 100, 100], deck))


def test_the_declarations_come_after_the_last_round_all_at_once():
    state = declare()
    assert state.street_name == "7th street" and state.decision_name == "declare"
    assert state.deciding() == [0, 1, 2] and state.to_act is None
    assert [a.kind for a in state.legal_actions(2)] == [
        "declare_high",
        "declare_low",
        "declare_both",
    ]
    decide(state, {2: ("declare_high", None)})
    for viewer in (0, 1, None):
        seen = view(state, viewer)
        assert [seat["declared"] for seat in seen["players"]] == [None, None, None]
        assert "high" not in str(events_for(state, viewer)[-1])
    assert view(state, 2)["your_choice"] == {"kind": "declare", "choice": "high"}
    decide(state, {0: ("declare_both", None), 1: ("declare_low", None)})
    assert state.finished
    assert [e["choice"] for e in state.events if e["type"] == "declare"] == ["both", "low", "high"]


def test_a_both_declarer_who_ties_the_low_wins_nothing():
    state = decide(
        declare(), {0: ("declare_both", None), 1: ("declare_low", None), 2: ("declare_high", None)}
    )
    [pot] = state.result["pots"]
    assert pot["amount"] == 9  # three antes and three bring-ins' worth
    # Alice's wheel is the best high, but her low only ties bob's: she is out.
    # Carol's kings are the best high left; bob's wheel takes the low.
    assert pot["high_winners"] == [2] and pot["low_winners"] == [1]
    assert pot["shares"] == [[1, 4], [2, 5]]
    assert state.result["payouts"][0] == 0
    assert state.result["hands"]["0"]["declared"] == "both"


def test_a_both_declarer_who_wins_both_ways_outright_scoops():
    deck = stack_deck(
        {0: "Ac2d3h", 1: "Ad2c3s", 2: "KcKh7d"},
        {0: "4s", 1: "4d", 2: "9d"},
        {0: "5c", 1: "6h", 2: "Js"},  # bob's low is a six
        {0: "Kd", 1: "Qc", 2: "6c"},
        {0: "9c", 1: "8s", 2: "Th"},
    )
    state = decide(
        declare(deck),
        {0: ("declare_both", None), 1: ("declare_low", None), 2: ("declare_high", None)},
    )
    [pot] = state.result["pots"]
    assert pot["high_winners"] == [0] and pot["low_winners"] == [0]
    assert pot["shares"] == [[0, 9]]


def test_when_everyone_declares_one_way_the_best_hand_that_way_takes_it_all():
    state = decide(
        declare(),
        {0: ("declare_high", None), 1: ("declare_high", None), 2: ("declare_high", None)},
    )
    [pot] = state.result["pots"]
    # The two wheels tie for high (five-high straights) over carol's kings.
    assert sorted(pot["high_winners"]) == [0, 1] and pot["low_winners"] == []
    # The odd chip goes to the higher ace by suit (seed 002): bob's A♦.
    assert pot["shares"] == [[0, 4], [1, 5]]


def test_declaring_in_turn_shows_each_declaration_as_it_is_made():
    state = declare(declare_in_turn=True)
    assert state.to_act == 0 and state.deciding() == [0]
    with pytest.raises(NotYourTurn):
        state.act(1, "declare_low")
    decide(state, {0: ("declare_low", None)})
    assert view(state, 2)["players"][0]["declared"] == "low"
    assert state.to_act == 1


def test_after_the_declarations_the_last_player_to_bet_shows_first():
    # Seed 002: the last aggressor shows first; the declarations between the
    # last round and the showdown don't change who that is.
    state = HandState.new(config(variant="declare", auto_muck=False), [100] * 3, WHEELS)
    while state.street_name != "7th street":
        bet_passively(state)
    opener = state.to_act
    state.act(opener, "check")
    bettor = state.to_act
    bet = next(a for a in state.legal_actions() if a.kind == "bet")
    state.act(bettor, "bet", bet.min)
    while state.phase != DECIDING:
        state.act(state.to_act, "call")
    decide(state, {p: ("declare_high", None) for p in state.deciding()})
    shows = [e["player"] for e in state.events if e["type"] == "show"]
    assert shows[0] == bettor != opener and sorted(shows) == [0, 1, 2]


def test_a_timed_out_declaration_is_high_with_a_pair_and_low_without():
    state = declare()
    # Alice and bob hold straights (a pair or better), carol a pair of kings.
    assert [state.default_decision(p) for p in (0, 1, 2)] == [("declare_high", None)] * 3
    deck = stack_deck(
        {0: "Ac2d3h", 1: "Ad2c3s", 2: "KcKh7d"},
        {0: "4s", 1: "4d", 2: "9d"},
        {0: "6d", 1: "5h", 2: "Js"},  # alice: no pair, no straight
        {0: "Kd", 1: "Qc", 2: "6c"},
        {0: "9c", 1: "8s", 2: "Th"},
    )
    assert declare(deck).default_decision(0) == ("declare_low", None)


def test_an_eight_or_better_low_declarer_without_a_qualifying_low_wins_no_half():
    # Carol declares low with no eight or better: alice's high takes it all.
    state = decide(
        play_to_decision(
            HandState.new(config(variant="declare8", auto_muck=False), [100] * 3, WHEELS)
        ),
        {0: ("declare_high", None), 1: ("declare_high", None), 2: ("declare_low", None)},
    )
    [pot] = state.result["pots"]
    assert pot["low_winners"] == [] and sorted(pot["high_winners"]) == [0, 1]


def test_the_options_are_refused_for_games_without_them():
    with pytest.raises(IllegalAction, match="no declaration"):
        config(variant="stud8", declare_in_turn=True)
    with pytest.raises(IllegalAction, match="no exchanges"):
        config(variant="stud", exchange_price=True)


def test_the_last_round_after_english_studs_second_exchange_starts_with_nothing_to_call():
    # Six players: no 7th card, so the final round follows the exchange directly.
    state = english(6, deck=list(range(52)))
    while state.street_name != "6th street" or state.phase == DECIDING:
        if state.phase == DECIDING:
            decide(state, {state.to_act: ("stand_pat", None)})
        else:
            bet_passively(state)
    wager = next(a for a in state.legal_actions() if a.kind in ("bet", "complete"))
    state.act(state.to_act, wager.kind, wager.min)
    while state.phase != DECIDING:
        bet_passively(state)
    while state.phase == DECIDING:
        decide(state, {state.to_act: ("stand_pat", None)})
    assert state.street_name == "6th street" and state.current_bet == 0
    assert {a.kind for a in state.legal_actions()} == {"check", "bet"}


def test_a_replayed_hand_refuses_two_players_rolling_the_same_unknown_card():
    state = HandState.from_script(config(variant="roll_your_own"), [100, 100])
    state.deal(0, [UNKNOWN, UNKNOWN])
    state.deal(1, [UNKNOWN, UNKNOWN])
    state.act(0, "roll", None, [parse_card("Kd")])
    with pytest.raises(IllegalAction):
        state.act(1, "roll", None, [parse_card("Kd")])
    state.act(1, "roll", None, [parse_card("Qd")])
    assert [state.upcards(p) for p in (0, 1)] == [[parse_card("Kd")], [parse_card("Qd")]]


def test_a_wild_card_game_played_high_low_declares_and_its_wild_cards_count_for_low():
    # Alice: 2♣ (wild) 3♦ down, 4♥ 6♠ 7♣ K♦ up, Q♣ down: a wild card for the
    # missing ace, so 7-6-4-3-A low. Bob: kings up, two pair.
    deck = stack_deck(
        {0: "2c3d4h", 1: "KcKh9d"},
        {0: "6s", 1: "9h"},
        {0: "7c", 1: "Js"},
        {0: "Kd", 1: "5d"},
        {0: "Qc", 1: "8s"},
    )
    rules = config(variant="deuces", high_low_declare=True, auto_muck=False)
    assert rules.game.name == "Deuces wild, high-low declare" and rules.game.declares
    state = play_to_decision(HandState.new(rules, [100, 100], deck))
    assert state.decision_name == "declare"
    decide(state, {0: ("declare_low", None), 1: ("declare_high", None)})
    hands = state.result["hands"]
    assert hands["0"]["low"] == "7-6-4-3-A low (one wild)"
    assert hands["1"]["high"] == "two pair, kings and nines"
    [pot] = state.result["pots"]
    assert pot["low_winners"] == [0] and pot["high_winners"] == [1]


def test_only_wild_card_games_are_played_high_low_declare():
    for variant in ("stud", "declare", "high_chicago"):
        with pytest.raises(IllegalAction, match="high-low with declare"):
            config(variant=variant, high_low_declare=True)
    assert config(variant="queens", high_low_declare=True, declare_in_turn=True).game.declares
    assert config(variant="low_hole", high_low_declare=True).game.declares


def brute_bug_key(cards: list[int]) -> int:
    """The bug tried as every card not held: any that is an ace, or that
    makes a straight, a flush or a straight flush."""
    completes = (evaluate.STRAIGHT, evaluate.FLUSH, evaluate.STRAIGHT_FLUSH)
    keys = [
        evaluate.high_key([*cards, card])
        for card in range(52)
        if card not in cards
        and (
            rank(card) == 14
            or evaluate.high_key([*cards, card]) >> evaluate.CATEGORY_SHIFT in completes
        )
    ]
    return max(keys)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=6, unique=True))
def test_the_bug_is_the_best_of_every_card_it_may_stand_for(cards):
    assume(sum(1 for card in cards if rank(card) == 14) < 4)  # five aces: above
    assert Evaluator(high=True, bug=True).high_key(cards) == brute_bug_key(cards)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 12), min_size=5, max_size=6, unique=True), st.integers(0, 3))
def test_the_bug_in_a_hand_of_one_suit_finds_the_best_flush_or_straight_flush(ranks, suit):
    cards = [make_card(r + 2, suit) for r in ranks]
    assert Evaluator(high=True, bug=True).high_key(cards) == brute_bug_key(cards)


def test_low_hole_high_low_makes_an_ace_in_the_hole_wild_for_the_low_only():
    # Alice: A♣ 9♦ down, A♥ 4♥ 6♠ K♦ up, 3♦ down. For high her lowest down
    # card is the 3 (aces high): threes wild, three aces. For low the A♣ is
    # lowest: aces wild, both of them, 6-4-3-2-A (threes wild would give
    # only 9-6-4-2-A). Bob: 2♣ 7♠ down, Q♠ J♦ 5♥ 4♦ up, K♣ down: deuces
    # wild for him, a pair of kings.
    deck = stack_deck(
        {0: "Ac9dAh", 1: "2c7sQs"},
        {0: "4h", 1: "Jd"},
        {0: "6s", 1: "5h"},
        {0: "Kd", 1: "4d"},
        {0: "3d", 1: "Kc"},
    )
    rules = config(variant="low_hole", high_low_declare=True, auto_muck=False)
    state = play_to_decision(HandState.new(rules, [100, 100], deck))
    assert state.wild_for(0) == rank_mask(3) and state.wild_for(0, low=True) == rank_mask(14)
    decide(state, {0: ("declare_both", None), 1: ("declare_high", None)})
    alice = state.result["hands"]["0"]
    assert alice["high"] == "three of a kind, aces (one wild)"
    assert alice["low"] == "6-4-3-2-A low (two wild)"
    assert sorted(alice["wild"]) == ["3d", "Ac", "Ah"]
    [pot] = state.result["pots"]
    assert state.result["hands"]["1"]["high"] == "pair of kings (one wild)"
    assert pot["high_winners"] == [0] and pot["low_winners"] == [0]
    assert state.result["payouts"] == [pot["amount"], 0]
