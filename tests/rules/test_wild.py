"""Wild cards: the evaluator, checked against trying every card a wild one
could be, and the fixed-wild games (deuces wild, Acey Ducey, one-eyed jacks,
suicide king) played through the engine."""

from __future__ import annotations

import datetime
import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import HandState, IllegalAction
from tables.rules.cards import FULL_DECK, card_str, cards_str, parse_cards, rank
from tables.rules.evaluate import CATEGORY_SHIFT, FIVE_OF_A_KIND, high_key, low_key
from tables.rules.evaluators import ACE_TO_FIVE, ACE_TO_SIX, Evaluator
from tables.rules.evaluators.ace_to_six import low_a6_key
from tables.rules.evaluators.wild import wild_mask
from tables.rules.formats.phh import read_phh, replay, write_phh
from tables.rules.formats.pokerstars import HandInfo, write_text
from tables.rules.narration import Narrator
from tables.rules.variants import VARIANTS
from tables.rules.views import events_for, view
from tests.rules.stacking import config, play, stack_deck
from tests.rules.test_variants import call_down

HIGH = Evaluator(high=True)
A5 = Evaluator(high=False, low=ACE_TO_FIVE)
A6 = Evaluator(high=False, low=ACE_TO_SIX)
DEUCES = wild_mask(parse_cards("2c2d2h2s"))


def wilds(text: str) -> int:
    return wild_mask(parse_cards(text))


# ------------------------------------------------- the evaluator, by example


@pytest.mark.parametrize(
    ("cards", "wild", "name"),
    [
        # Five of a kind: a wild card may copy a card the hand holds.
        ("AhAdAc2sAs3d9c", "2c2d2h2s", "five of a kind, aces (one wild)"),
        ("9h9c2d2sKc3s5s", "2c2d2h2s", "four of a kind, nines (two wild)"),
        ("2c2d2h2s9c", "2c2d2h2s", "five of a kind, nines (four wild)"),
        ("JsJh2c2d2h", "JsJhKh", "five of a kind, deuces (two wild)"),
        ("JsJhKh9c4d", "JsJhKh", "four of a kind, nines (three wild)"),
        # The wild cards fill a straight flush rather than make four of a kind.
        ("9h8h6h2c2dKsKd", "2c2d2h2s", "straight flush, ten high (two wild)"),
        ("ThJhQhKh2s3c9d", "2c2d2h2s", "royal flush (one wild)"),
        # In a flush, a wild card is the highest card the suit lacks: no two aces.
        ("AsKs9s5s2h7c3d", "2c2d2h2s", "flush, ace high (one wild)"),
        ("Ks9s5s3sKh7c4d", "Kh", "flush, ace high (one wild)"),
        # Two pair and a wild card: a full house of the higher pair.
        ("9h9cTdTsKh3c4d", "Kh", "full house, tens full of nines (one wild)"),
        # One wild card and no pair: a pair of the highest card.
        ("AhJc8d6s2c", "2c2d2h2s", "pair of aces (one wild)"),
        ("AhJc8d6s3cJs", "JsJh", "pair of aces (one wild)"),
        # A wild card the hand doesn't need isn't counted.
        ("AsKsQsJsTs2c9d", "2c2d2h2s", "royal flush"),
    ],
)
def test_the_best_high_hand_with_wild_cards_and_how_many_it_plays(cards, wild, name):
    held = parse_cards(cards)
    key = HIGH.high_key(held, wilds(wild))
    assert HIGH.high_name(held, key, wilds(wild)) == name


def test_five_of_a_kind_beats_a_royal_flush():
    five = HIGH.high_key(parse_cards("AhAdAc2s2h"), DEUCES)
    royal = HIGH.high_key(parse_cards("AsKsQsJsTs"), DEUCES)
    assert five > royal
    assert five >> CATEGORY_SHIFT == FIVE_OF_A_KIND


def test_a_hand_made_with_wild_cards_ties_the_same_natural_hand():
    natural = HIGH.high_key(parse_cards("9h9c9d9sKc3s5s"), DEUCES)
    wild = HIGH.high_key(parse_cards("9h9c2d2sKd3c4s"), DEUCES)
    assert natural == wild


@pytest.mark.parametrize(
    ("evaluator", "cards", "wild", "name"),
    [
        # Ace-to-five: a wild card is the lowest rank that doesn't pair the hand.
        (A5, "Ac3d4h8sJsKdQh", "JsJh", "8-4-3-2-A low (one wild)"),
        (A5, "2c3d4h5sJsJhKd", "JsJh", "5-4-3-2-A low (one wild)"),
        (A5, "Ac2d3h4s5cKhQd", "Kh", "5-4-3-2-A low"),
        # Ace-to-six: a wild card skips the rank that would make a straight.
        (A6, "Ac2d3h4sKhQcQd", "Kh", "6-4-3-2-A low (one wild)"),
        (A6, "2c3d4h5sJsTcTd", "JsJh", "7-5-4-3-2 low (one wild)"),
        # ... and spoils the flush the natural cards would make.
        (A6, "Ah3h4h7hKhQcQd", "Kh", "7-4-3-2-A low (one wild)"),
    ],
)
def test_the_best_low_with_wild_cards(evaluator, cards, wild, name):
    held = parse_cards(cards)
    key = evaluator.low_key(held, wilds(wild))
    assert evaluator.low_name(held, key, wilds(wild)) == name


def test_a_qualifier_counts_the_wild_card_as_the_low_card_it_plays():
    eight = Evaluator(high=True, low=ACE_TO_FIVE, qualifier=8)
    # Natural 9-7-5-4-3 doesn't qualify; a deuce wild plays as the ace: 7-5-4-3-A.
    assert eight.low_key(parse_cards("9c7d5h4s3c"), 0) is None
    assert eight.low_key(parse_cards("9c7d5h4s3c2h"), DEUCES) is not None


# --------------------------------- the evaluator against every possible card


def every_choice(cards: list[int], wild: int, value, best) -> int:
    """The best value over every set of distinct cards the wild ones could
    be, none of them a card the hand holds naturally."""
    natural = [c for c in cards if not wild >> c & 1]
    free = [c for c in FULL_DECK if c not in natural]
    choices = itertools.combinations(free, len(cards) - len(natural))
    return best(value(natural + list(choice)) for choice in choices)


def brute_high(cards: list[int], wild: int) -> int:
    natural = [c for c in cards if not wild >> c & 1]
    counts = Counter(rank(c) for c in natural)
    spare = len(cards) - len(natural)
    best = every_choice(cards, wild, high_key, max)
    fives = [r for r, n in counts.items() if n + spare >= 5] or ([14] if spare >= 5 else [])
    if fives:  # the one hand distinct cards can't make
        best = max(best, FIVE_OF_A_KIND << CATEGORY_SHIFT | max(fives) << 16)
    return best


hands = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.sampled_from(FULL_DECK), min_size=n, max_size=n, unique=True)
)


@given(hands, st.data())
def test_wild_high_keys_match_trying_every_card(cards, data):
    chosen = data.draw(st.lists(st.sampled_from(cards), max_size=2, unique=True))
    wild = wild_mask(chosen)
    assert HIGH.high_key(cards, wild) == brute_high(cards, wild), cards_str(cards)


@given(hands, st.data())
def test_wild_lows_match_trying_every_card(cards, data):
    chosen = data.draw(st.lists(st.sampled_from(cards), max_size=2, unique=True))
    wild = wild_mask(chosen)
    assert A5.low_key(cards, wild) == every_choice(cards, wild, low_key, min)
    assert A6.low_key(cards, wild) == every_choice(cards, wild, low_a6_key, min)


@given(hands, st.data())
def test_the_cards_played_make_the_hand_and_are_the_players_own(cards, data):
    wild = wild_mask(data.draw(st.lists(st.sampled_from(cards), max_size=3, unique=True)))
    for evaluator, key_of, cards_of in (
        (HIGH, HIGH.high_key, HIGH.high_cards),
        (A5, A5.low_key, A5.low_cards),
        (A6, A6.low_key, A6.low_cards),
    ):
        played = cards_of(cards, wild)
        assert len(set(played)) == 5 and set(played) <= set(cards), evaluator
        assert key_of(list(played), wild) == key_of(cards, wild), evaluator


# ----------------------------------------------------------- the games


def test_the_fixed_wild_games_name_their_wild_cards():
    expected = {
        "deuces": "2c2d2h2s",
        "acey_ducey": "2c2d2h2sAcAdAhAs",
        "one_eyed_jacks": "JsJh",
        "suicide_king": "Kh",
    }
    for code, cards in expected.items():
        assert VARIANTS[code].wild == wild_mask(parse_cards(cards)), code


def test_deuces_wild_five_of_a_kind_takes_the_pot_from_a_straight_flush():
    deck = stack_deck(
        {0: "AhAd2c", 1: "9s8s7s"},
        {0: "Ac", 1: "6s"},
        {0: "2d", 1: "5s"},
        {0: "Kc", 1: "Qd"},
        {0: "3h", 1: "Jd"},
    )
    rules = config(variant="deuces", auto_muck=False)
    state = call_down(HandState.new(rules, [100, 100], deck))
    assert state.result["hands"]["0"]["high"] == "five of a kind, aces (two wild)"
    assert state.result["hands"]["1"]["high"] == "straight flush, nine high"
    assert state.result["payouts"] == [state.result["pots"][0]["amount"], 0]


def test_wild_cards_count_in_who_brings_in_and_who_opens():
    deck = stack_deck({0: "????2c", 1: "????3d"}, {0: "5h", 1: "Kh"})
    stud = HandState.new(config(), [100, 100], deck)
    assert stud.to_act == 0  # the deuce of clubs is the lowest door card
    deuces = HandState.new(config(variant="deuces"), [100, 100], deck)
    assert deuces.to_act == 1  # a wild door card counts as an ace
    play(deuces, (1, "bring_in"), (0, "call"))
    assert deuces.to_act == 0  # the deuce and the five show a pair of fives, over K-3


# Alice makes a nine-high straight naturally, Bob the same with a wild deuce.
EQUAL_STRAIGHTS = stack_deck(
    {0: "9c8d7h", 1: "9d8h7c"},
    {0: "6s", 1: "2s"},
    {0: "5c", 1: "5d"},
    {0: "Kd", 1: "Ks"},
    {0: "Qh", 1: "3c"},
)


def test_a_straight_made_with_a_wild_card_splits_with_the_natural_one():
    state = call_down(HandState.new(config(variant="deuces"), [100, 100], EQUAL_STRAIGHTS))
    hands = state.result["hands"]
    assert hands["0"]["high"] == "straight, nine high"
    assert hands["1"]["high"] == "straight, nine high (one wild)"
    assert sorted(state.result["pots"][0]["high_winners"]) == [0, 1]
    assert state.result["payouts"][0] == state.result["payouts"][1] > 0


def test_with_natural_beats_wild_the_natural_straight_takes_it_all():
    rules = config(variant="deuces", natural_beats_wild=True)
    state = call_down(HandState.new(rules, [100, 100], EQUAL_STRAIGHTS))
    assert state.result["pots"][0]["high_winners"] == [0]
    assert state.result["payouts"] == [state.result["pots"][0]["amount"], 0]


def test_natural_beats_wild_is_refused_where_no_card_is_wild():
    with pytest.raises(IllegalAction, match="no wild cards"):
        config(variant="stud", natural_beats_wild=True)


# ------------------------------------------------- what each viewer is told


def deuces_hand() -> HandState:
    """Alice holds 2♠ down and 2♣ up; Bob's door card is the 9♦."""
    deck = stack_deck({0: "2sKd2c", 1: "4h5h9d"})
    return HandState.new(config(variant="deuces"), [100, 100], deck)


def test_a_view_marks_the_wild_cards_the_viewer_sees_and_no_others():
    state = deuces_hand()
    alice = view(state, 0)["players"][0]["cards"]
    assert alice == [
        {"card": "2s", "up": False, "wild": True},
        {"card": "Kd", "up": False},
        {"card": "2c", "up": True, "wild": True},
    ]
    # Bob and an observer see only the up deuce, and that it is wild.
    for viewer in (1, None):
        seen = view(state, viewer)["players"][0]["cards"]
        assert seen == [
            {"card": None, "up": False},
            {"card": None, "up": False},
            {"card": "2c", "up": True, "wild": True},
        ]


def test_the_log_says_which_dealt_cards_are_wild_to_those_who_see_them():
    state = deuces_hand()
    names = ["Alice", "Bob"]
    mine = Narrator(names, state).tell(events_for(state, 0))
    theirs = Narrator(names, state).tell(events_for(state, 1))
    assert "Alice is dealt 2♠ (wild) K♦ down and 2♣ (wild) up" in [t.text for t in mine]
    assert "Alice is dealt 2 down cards and 2♣ (wild) up" in [t.text for t in theirs]


def test_the_text_export_names_wild_hands_and_the_game():
    deck = stack_deck(
        {0: "AhAd2c", 1: "9s8s7s"},
        {0: "Ac", 1: "6s"},
        {0: "2d", 1: "5s"},
        {0: "Kc", 1: "Qd"},
        {0: "3h", 1: "Jd"},
    )
    state = call_down(HandState.new(config(variant="deuces"), [100, 100], deck))
    started = datetime.datetime(2026, 11, 24, 21, 0)
    text = write_text(state, HandInfo(1, "Home", started, "UTC", ("Alice", "Bob"), (1, 2), 8))
    assert "7 Card Stud (Deuces Wild) Limit" in text
    assert "(five of a kind, Aces (two wild))" in text


# ------------------------------------------------------- Queens and after


def test_queens_and_after_a_second_queen_moves_the_wild_rank():
    # 3rd street: alice's Q♣ up, then bob's 5♦ up: queens and fives are wild.
    # 4th: alice 9♥, bob Q♦: queens alone until the next card up, 5th
    # street's 7♠ to alice: now queens and sevens; the fives are wild no more.
    deck = stack_deck(
        {0: "KcKdQc", 1: "5h5s5d"},
        {0: "9h", 1: "Qd"},
        {0: "7s", 1: "8c"},
    )
    state = HandState.new(config(variant="queens"), [100, 100], deck)
    assert state.wild_words() == "queens and fives"
    fives = parse_cards("5h5s5d")
    assert all(state.wild_for(1) >> card & 1 for card in fives)
    # Both door cards are wild, so both count as aces: clubs is lowest, so
    # alice's Q♣ brings in.
    play(state, (0, "bring_in"), (1, "call"))
    assert state.wild_words() == "queens"  # bob's queen was the last card up
    # Alice's 9♥ and wild Q♣ show a pair of nines, over bob's pair of fives.
    play(state, (0, "check"), (1, "check"))
    assert state.wild_words() == "queens and sevens"
    assert not any(state.wild_for(1) >> card & 1 for card in fives)
    told = [e["wild"] for e in state.events if e["type"] == "wild"]
    assert told == ["queens and fives", "queens", "queens and sevens"]


def test_queens_and_after_with_a_queen_the_last_card_up_only_queens_are_wild():
    deck = stack_deck({0: "2c3dQh", 1: "4c6d9s"}, {0: "7h", 1: "Qs"})
    state = HandState.new(config(variant="queens", bring_in=0), [100, 100], deck)
    assert state.wild_words() == "queens and nines"
    play(state, (0, "check"), (1, "check"))  # the wild Q♥ door is the best card: she opens
    assert state.wild_words() == "queens"
    queens_only = wilds("QcQdQhQs")
    assert state.wild_for(0) == state.wild_for(1) == queens_only


# ------------------------------------------------------------------ Low Hole


def low_hole_hand() -> HandState:
    """Seed 003's example: alice's first three cards are 9 and 4 down and 3
    up; then 4th to 6th street, and a 3 down on 7th street."""
    deck = stack_deck(
        {0: "9c4d3h", 1: "KsKdAc"},
        {0: "4s", 1: "Qc"},
        {0: "Jh", 1: "Tc"},
        {0: "8d", 1: "7c"},
        {0: "3c", 1: "6h"},
    )
    return HandState.new(config(variant="low_hole", auto_muck=False), [100, 100], deck)


def test_low_hole_the_lowest_down_card_is_wild_until_7th_street_brings_a_lower_one():
    state = low_hole_hand()
    assert state.wild_for(0) == wilds("4c4d4h4s")  # her fours: the 4♦ down, the 4♠ to come
    assert state.wild_for(1) == wilds("KcKdKhKs")  # bob's lowest down card is a king
    call_down(state)
    # 7th street's 3♣ down is lower than the 4: her threes are wild now, the
    # 3♥ up too, and her fours are not.
    hands = state.result["hands"]
    assert hands["0"]["wild"] == ["3h", "3c"]
    assert hands["0"]["high"] == "four of a kind, fours (two wild)"
    # Bob's 7th-street 6♥ is his lowest down card: it fills his club flush.
    assert hands["1"]["wild"] == ["6h"]
    assert hands["1"]["high"] == "flush, ace high (one wild)"


def test_low_hole_tells_nobody_else_which_cards_are_wild_until_the_showdown():
    state = low_hole_hand()
    play(state, (0, "bring_in"), (1, "call"))
    # Alice sees her 4♦ down and 4♠ up marked wild; bob and an observer see
    # her 4♠ unmarked, since it would tell them her down card's rank.
    mine = view(state, 0)["players"][0]["cards"]
    assert [held.get("wild", False) for held in mine] == [False, True, False, True]
    for viewer in (1, None):
        theirs = view(state, viewer)["players"][0]["cards"]
        assert not any(held.get("wild") for held in theirs)
    assert view(state, 1)["wilds"] == "each player's lowest down card, for that player"


# --------------------------------------- Deuces and Jacks and the Man with the Axe


def axe_hand() -> HandState:
    """Alice: 7♣ 7♦ in the hole, a natural pair of sevens. Bob: A♥ A♦ down,
    then the 2♣ (wild), A♣, J♥ (wild) and 7♥ up: five aces, and payments
    for two exposed wild cards and an exposed seven."""
    deck = stack_deck(
        {0: "7c7d4h", 1: "AhAd2c"},
        {0: "8s", 1: "Ac"},
        {0: "9c", 1: "Jh"},
        {0: "Ts", 1: "7h"},
        {0: "3d", 1: "Kc"},
    )
    return HandState.new(config(variant="man_with_the_axe", auto_muck=False), [100, 100], deck)


def test_man_with_the_axe_a_natural_pair_of_sevens_beats_five_aces():
    state = call_down(axe_hand())
    hands = state.result["hands"]
    assert hands["0"]["high"] == "natural pair of sevens"
    assert hands["1"]["high"] == "five of a kind, aces (two wild)"
    assert state.result["pots"][0]["high_winners"] == [0]


def test_man_with_the_axe_exposed_wild_cards_and_sevens_are_paid_for_and_never_matched():
    state = axe_hand()
    # Bob's 2♣ door card costs him an ante (1); alice's sevens are down: free.
    paid = [(e["player"], e["amount"], e["card"]) for e in state.events if e["type"] == "pay"]
    assert paid == [(1, 1, parse_cards("2c")[0])]
    assert state.stacks == [99, 98]  # an ante each, and bob's payment
    assert state.current_bet == 0  # a payment is not a bet: nobody has one to call
    call_down(state)
    paid = [(e["player"], e["amount"]) for e in state.events if e["type"] == "pay"]
    assert paid == [(1, 1), (1, 1), (1, 5)]  # 2♣, J♥, then the 7♥ at five antes
    # Antes 2, the bring-in called 4, payments 7: alice takes 13.
    assert state.result["pots"][0]["amount"] == 13
    assert state.stacks == [100 - 1 - 2 + 13, 100 - 1 - 2 - 7]
    told = [t.text for t in Narrator(["Alice", "Bob"], state).tell(events_for(state))]
    assert "Bob pays 5 into the pot for the 7♥" in told


def test_a_payment_bigger_than_the_stack_puts_the_player_all_in():
    deck = stack_deck({0: "3c4d5h", 1: "AhAd7s"})
    rules = config(variant="man_with_the_axe", ante=2, bring_in=3)
    state = HandState.new(rules, [100, 6], deck)
    # Bob antes 2, then owes 5 antes (10) for the 7♠ and has 4: all in for it.
    paid = [e["amount"] for e in state.events if e["type"] == "pay" and e["player"] == 1]
    assert paid == [4]
    # With nobody left to bet against, the hand runs out to the showdown;
    # every chip is in one pot both may win, payments and all: none of bob's
    # comes back to him as if unmatched.
    [pot] = state.result["pots"]
    assert pot["eligible"] == [0, 1]
    assert pot["amount"] == sum(state.starting_stacks) - sum(
        stack - payout for stack, payout in zip(state.stacks, state.result["payouts"], strict=True)
    )


# ------------------------------------------------------------------ Baseball


def baseball_deck() -> list[int]:
    """Dealt in this order: a burn, 3rd street around the table, a burn, then
    alice's 4♣ up, her extra card (10♠) at once, and only then bob's 9♠."""
    order = parse_cards("2d AhQh KdJd 5c6c 2h 4c Ts 9s")
    return order + [card for card in FULL_DECK if card not in order]


def test_baseball_a_four_dealt_face_up_gets_an_extra_card_down_at_once():
    state = HandState.new(config(variant="baseball", bring_in=0), [100, 100], baseball_deck())
    play(state, (1, "check"), (0, "check"))  # bob's 6♣ is the higher door card
    alice, bob = state.cards[0], state.cards[1]
    assert [(card_str(c), up) for c, up in alice] == [
        ("Ah", False), ("Kd", False), ("5c", True), ("4c", True), ("Ts", False),
    ]  # fmt: skip
    assert [(card_str(c), up) for c, up in bob] == [
        ("Qh", False), ("Jd", False), ("6c", True), ("9s", True),
    ]  # fmt: skip
    extra = [e for e in state.events if e.get("extra")]
    assert [(e["player"], card_str(e["card"])) for e in extra] == [(0, "Ts")]
    told = [t.text for t in Narrator(["Alice", "Bob"], state).tell(events_for(state, 1))]
    assert "Alice is dealt an extra card for the four: a down card" in told
    # Bob's 9♠ is wild: with the 6♣ it shows a pair of sixes, over alice's 5-4.
    assert state.to_act == 1


def test_baseball_hands_of_eight_cards_play_their_best_five_and_replay_from_phh():
    state = call_down(HandState.new(config(variant="baseball"), [100, 100], baseball_deck()))
    assert len(state.cards[0]) == 8
    text = write_phh(state, everything=True)
    assert '"d dh p1 Ts"' in text  # the extra card is a deal of its own
    replayed = replay(read_phh(text))
    assert replayed.stacks == state.stacks
    assert replayed.result == state.result
