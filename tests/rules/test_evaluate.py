"""Hand evaluation: high hands, ace-to-five lows and the showing hand.

The fast evaluators are checked against slow reference ones written here from the
definitions, on every five-card subset, so a shortcut in the fast code cannot hide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import cards_str, low_rank, make_card, parse_cards, rank, suit
from tables.rules.errors import IllegalAction
from tables.rules.evaluate import (
    HIGH_CATEGORIES,
    high_hand,
    high_key,
    low_hand,
    low_key,
    showing_key,
    showing_words,
)
from tests.rules.strategies import examples

# Seed 000's showdown: Craig and Jimmy turn over all seven cards each.
CRAIG = "Qs 2h Kd Jc Th Td Ad"
JIMMY = "9h 5d 9c Kh Kc 3s 5s"


def cards(text: str) -> list[int]:
    return parse_cards(text)


# --- Slow references, straight from the definitions, for exactly five cards ---------


def pack(category: int, ranks: Sequence[int]) -> int:
    """The documented packing: category, then one nibble per rank, first rank highest."""
    key = category << 20
    for i, r in enumerate(ranks):
        key |= r << (16 - 4 * i)
    return key


def grouped(ranks: Sequence[int]) -> tuple[list[int], list[int]]:
    """(group sizes largest first, one rank per group in reading order)."""
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return [n for _, n in groups], [r for r, _ in groups]


def reference_high(five: Sequence[int]) -> int:
    sizes, order = grouped([rank(c) for c in five])
    flush = len({suit(c) for c in five}) == 1
    straight_top = 0
    if len(order) == 5 and order[0] - order[4] == 4:
        straight_top = order[0]
    elif order == [14, 5, 4, 3, 2]:
        straight_top = 5
    if straight_top and flush:
        return pack(8, [straight_top])
    if flush:  # no flush can be paired, so nothing below beats it except these two
        return pack(5, order)
    made = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}
    category = made.get(tuple(sizes), 0)
    if straight_top:
        return pack(4, [straight_top])
    return pack(category, order)


def reference_low(five: Sequence[int]) -> int:
    sizes, order = grouped([low_rank(c) for c in five])
    shapes = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)]
    return pack(shapes.index(tuple(sizes)), order)


def best_high(hand: Sequence[int]) -> int:
    return max(reference_high(five) for five in combinations(hand, 5))


def best_low(hand: Sequence[int]) -> int:
    return min(reference_low(five) for five in combinations(hand, 5))


@st.composite
def hands(draw: st.DrawFn) -> list[int]:
    """5 to 7 distinct cards, often from few ranks or suits so that quads, full
    houses, flushes and straight flushes turn up far more than in a real deal."""
    size = draw(st.integers(5, 7))
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    fewest_ranks = -(-size // len(suits))
    ranks = draw(st.sets(st.integers(2, 14), min_size=max(fewest_ranks, 2), max_size=13))
    pool = sorted(make_card(r, s) for r in ranks for s in suits)
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


any_hand = st.one_of(
    hands(),
    st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
)


# --- High hands ---------------------------------------------------------------------


def test_craig_makes_an_ace_high_straight() -> None:
    craig = high_hand(cards(CRAIG))
    assert craig.words == "straight, ace high"
    assert sorted(rank(c) for c in craig.cards) == [10, 11, 12, 13, 14]


def test_jimmy_plays_kings_and_nines_with_a_five() -> None:
    jimmy = high_hand(cards(JIMMY))
    assert jimmy.words == "two pair, kings and nines"
    assert [rank(c) for c in jimmy.cards] == [13, 13, 9, 9, 5]


def test_craig_straight_beats_jimmy_two_pair() -> None:
    assert high_key(cards(CRAIG)) > high_key(cards(JIMMY))


def test_wheel_is_a_five_high_straight() -> None:
    wheel = high_hand(cards("Ac 2d 3h 4s 5c Kd 9h"))
    assert wheel.words == "straight, five high"
    assert [rank(c) for c in wheel.cards] == [5, 4, 3, 2, 14]


def test_wheel_loses_to_six_high_straight() -> None:
    assert high_key(cards("Ac2d3h4s5c")) < high_key(cards("2d3h4s5c6d"))


def test_steel_wheel_is_a_five_high_straight_flush() -> None:
    steel = high_hand(cards("Ah 2h 3h 4h 5h Ks Kd"))
    assert steel.words == "straight flush, five high"
    assert steel.category == HIGH_CATEGORIES.index("straight flush")


def test_straight_flush_inside_a_bigger_flush_is_found() -> None:
    # Seven hearts' worth of ranks: the flush's best five (A-K-9-8-7) is not the
    # straight flush (9-8-7-6-5), so the evaluator must look for the run in the suit.
    hand = high_hand(cards("Ah Kh 9h 8h 7h 6h 5h"))
    assert hand.words == "straight flush, nine high"


def test_straight_and_flush_in_different_cards_is_only_a_flush() -> None:
    assert high_hand(cards("9h 8h 7h 6c 5h 2h Kd")).words == "flush, nine high"


def test_flush_beats_straight() -> None:
    assert high_key(cards("2h 5h 7h 9h Jh")) > high_key(cards("Tc Jd Qh Ks Ac"))


def test_flush_plays_the_five_best_cards_of_its_suit() -> None:
    flush = high_hand(cards("Ad Jd 9d 6d 4d 2d Ks"))
    assert cards_str(flush.cards) == "AdJd9d6d4d"


def test_full_house_from_two_trips_uses_the_higher_trips() -> None:
    hand = high_hand(cards("9c 9d 9h Kc Kd Ks 2c"))
    assert hand.words == "full house, kings full of nines"
    assert [rank(c) for c in hand.cards] == [13, 13, 13, 9, 9]


def test_full_house_takes_the_better_of_two_pairs() -> None:
    assert high_hand(cards("5c 5d 5h 2c 2d Qs Qd")).words == "full house, fives full of queens"


def test_two_pair_from_three_pairs_kicks_with_the_third_pair() -> None:
    hand = high_hand(cards("Kc Kd 9h 9c 5s 5d 3s"))
    assert [rank(c) for c in hand.cards] == [13, 13, 9, 9, 5]


def test_two_pair_from_three_pairs_prefers_a_higher_single_kicker() -> None:
    hand = high_hand(cards("Kc Kd 9h 9c 5s 5d As"))
    assert [rank(c) for c in hand.cards] == [13, 13, 9, 9, 14]


def test_quads_kick_with_the_best_other_card() -> None:
    hand = high_hand(cards("7c 7d 7h 7s Qc Qd 2s"))
    assert hand.words == "four of a kind, sevens"
    assert [rank(c) for c in hand.cards] == [7, 7, 7, 7, 12]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ts Js Qs Ks As 2c 3d", "royal flush"),
        ("5d 6d 7d 8d 9d Ac Ah", "straight flush, nine high"),
        ("Kc Kd Kh Ks 3c 4d 8h", "four of a kind, kings"),
        ("Kc Kd Kh 9s 9c 4d 2h", "full house, kings full of nines"),
        ("Ac 9c 7c 4c 2c Kd Qh", "flush, ace high"),
        ("Tc Jd Qh Ks Ac 2d 2h", "straight, ace high"),
        ("Qc Qd Qh 9s 7c 4d 2h", "three of a kind, queens"),
        ("6c 6d 2h 2s Ac 9d 8h", "two pair, sixes and deuces"),
        ("Kc Kd 9h 7s 4c 3d 2h", "pair of kings"),
        ("Ac Jd 9h 7s 4c 3d 2h", "high card, ace"),
    ],
)
def test_high_hand_names_each_category(text: str, words: str) -> None:
    assert high_hand(cards(text)).words == words


def test_high_key_ignores_card_order() -> None:
    hand = cards(JIMMY)
    assert high_key(hand) == high_key(list(reversed(hand)))


@pytest.mark.parametrize("bad", [[0, 1, 2, 3], list(range(12)), [0, 1, 2, 3, 3], [0, 1, 2, 3, 52]])
def test_high_hand_rejects_a_malformed_hand(bad: list[int]) -> None:
    with pytest.raises(IllegalAction):
        high_hand(bad)


@settings(max_examples=examples(600))
@given(any_hand)
def test_high_key_is_the_best_of_every_five_card_subset(hand: list[int]) -> None:
    assert high_key(hand) == best_high(hand)


# Roll your own deals eight cards, Baseball up to eleven (its extra cards):
# ten or more can hold two flushes.
big_hand = st.one_of(
    st.lists(st.integers(0, 51), min_size=8, max_size=11, unique=True),
    st.lists(st.sampled_from(range(0, 52, 2)), min_size=10, max_size=11, unique=True),
)


@settings(max_examples=examples(150))
@given(big_hand)
def test_a_hand_of_eight_to_eleven_cards_plays_its_best_five(hand: list[int]) -> None:
    assert high_key(hand) == best_high(hand)
    assert low_key(hand) == min(low_key(list(five)) for five in combinations(hand, 5))
    assert high_key(high_hand(hand).cards) == high_key(hand)


@given(any_hand)
def test_high_hand_plays_five_of_its_cards_worth_its_key(hand: list[int]) -> None:
    best = high_hand(hand)
    assert best.key == high_key(hand)
    assert set(best.cards) <= set(hand) and len(set(best.cards)) == 5
    assert high_key(best.cards) == best.key
    assert best.category == best.key >> 20


# --- Ace-to-five lows ---------------------------------------------------------------


def test_low_hand_reads_high_card_first() -> None:
    low = low_hand(cards("8d 6c 4s 2h Ac Kd Ks"))
    assert low is not None
    assert low.words == "8-6-4-2-A low"
    assert [low_rank(c) for c in low.cards] == [8, 6, 4, 2, 1]


def test_two_three_four_six_eight_beats_ace_two_four_seven_eight() -> None:
    # Seed 002: the lowest top card wins, then the next one down.
    assert low_key(cards("2c 3d 4h 6s 8c")) < low_key(cards("Ad 2h 4c 7d 8s"))


def test_nine_low_does_not_qualify_for_eight_or_better() -> None:
    hand = cards("9c 7d 5h 3s 2c Kd Ks")
    assert low_key(hand, qualifier=8) is None
    assert low_hand(hand, qualifier=8) is None
    assert low_key(hand) is not None


def test_eight_low_qualifies_for_eight_or_better() -> None:
    hand = cards("8c 7d 5h 3s 2c Kd Ks")
    assert low_key(hand, qualifier=8) == low_key(hand)


def test_paired_low_never_qualifies() -> None:
    assert low_key(cards("Ac Ad 2c 2d 3h 3s 4c"), qualifier=8) is None


def test_suited_wheel_is_the_best_low() -> None:
    wheel = low_hand(cards("Ah 2h 3h 4h 5h"))
    assert wheel is not None
    assert wheel.words == "5-4-3-2-A low"
    assert wheel.key == pack(0, [5, 4, 3, 2, 1])  # the smallest key any five cards can pack
    assert wheel.key < low_key(cards("6c 4d 3h 2s Ac"))


def test_straights_and_flushes_do_not_hurt_a_low() -> None:
    assert low_key(cards("2s 3s 4s 5s 6s")) == low_key(cards("2s 3h 4s 5s 6s"))


def test_ten_is_written_10_in_low_words() -> None:
    low = low_hand(cards("Tc 8d 4h 3s 2c"))
    assert low is not None and low.words == "10-8-4-3-2 low"


def test_paired_razz_hand_uses_every_rank_and_pairs_the_lowest() -> None:
    low = low_hand(cards("Ac Ad 2c 2d 3h 3s Kc"))
    assert low is not None
    assert low.words == "K-3-2-A-A low, pair of aces"


def test_paired_low_words_list_pairs_adjacent() -> None:
    low = low_hand(cards("Kd Qc 6h 6s 2d Kh Qs"))
    assert low is not None and low.words == "K-Q-6-6-2 low, pair of sixes"


def test_low_prefers_two_pair_to_trips() -> None:
    low = low_hand(cards("6c 6d 6h 2s 2c 9d 9h"))
    assert low is not None and low.words == "9-6-6-2-2 low, two pair, sixes and deuces"


def test_low_with_three_ranks_and_one_pairable_is_trips() -> None:
    low = low_hand(cards("4c 4d 4h 4s 8c Jd"))
    assert low is not None and low.words == "J-8-4-4-4 low, three of a kind, fours"


@settings(max_examples=examples(600))
@given(any_hand)
def test_low_key_is_the_best_of_every_five_card_subset(hand: list[int]) -> None:
    assert low_key(hand) == best_low(hand)


@given(any_hand)
def test_eight_qualifier_keeps_only_unpaired_eight_lows(hand: list[int]) -> None:
    best = best_low(hand)
    qualifies = best >> 20 == 0 and best >> 16 & 15 <= 8
    assert low_key(hand, qualifier=8) == (best if qualifies else None)


@given(any_hand)
def test_low_hand_plays_five_of_its_cards_worth_its_key(hand: list[int]) -> None:
    low = low_hand(hand)
    assert low is not None and low.key == low_key(hand)
    assert set(low.cards) <= set(hand) and len(set(low.cards)) == 5
    assert low_key(low.cards) == low.key
    assert [low_rank(c) for c in low.cards] == sorted(
        (low_rank(c) for c in low.cards), reverse=True
    )


# --- Showing hands ------------------------------------------------------------------


def test_trips_showing_beat_a_pair_beat_ace_king_queen() -> None:
    # Seed 003: 3-3-3 is higher than 7-7-8, which is higher than A-K-Q.
    trips, pair, high = (showing_key(cards(up)) for up in ("3c3d3h", "7c7d8h", "AcKdQh"))
    assert trips > pair > high


def test_king_jack_showing_beats_king_nine() -> None:
    assert showing_key(cards("KdJc")) > showing_key(cards("9cKh"))


def test_pair_of_kings_showing_beats_pair_of_tens() -> None:
    # Seed 000, sixth street: Jimmy's 9-K-K-3 acts before Craig's K-J-10-10.
    assert showing_key(cards("9cKhKc3s")) > showing_key(cards("KdJcThTd"))


def test_two_pair_showing_beats_one_pair() -> None:
    assert showing_key(cards("3c3d2h2s")) > showing_key(cards("AcAdKhQs"))


def test_straights_and_flushes_do_not_count_showing() -> None:
    assert showing_key(cards("2h3h4h5h6h")) < showing_key(cards("2c2d4h5s7c"))


def test_five_upcard_full_house_reads_as_trips_with_pair_kickers() -> None:
    up = cards("5c5d5h9s9c")
    assert showing_words(up) == "three of a kind, fives"
    # Counted as a full house it would beat higher trips; as trips it does not.
    assert showing_key(up) < showing_key(cards("6c6d6h2s3c"))


def test_razz_six_two_showing_beats_seven_two() -> None:
    assert showing_key(cards("6c2d"), lowball=True) > showing_key(cards("7c2d"), lowball=True)


def test_razz_compares_the_highest_card_first() -> None:
    assert showing_key(cards("6c4d"), lowball=True) > showing_key(cards("6d5c"), lowball=True)
    assert showing_key(cards("6c5d4h"), lowball=True) > showing_key(cards("7d2c3h"), lowball=True)


def test_razz_no_pair_showing_beats_any_pair() -> None:
    assert showing_key(cards("KcQd"), lowball=True) > showing_key(cards("2c2d"), lowball=True)


def test_razz_ace_showing_is_low() -> None:
    assert showing_key(cards("Ac2d"), lowball=True) > showing_key(cards("3c2d"), lowball=True)


@pytest.mark.parametrize("lowball", [False, True])
def test_equal_showing_patterns_give_equal_keys(lowball: bool) -> None:
    assert showing_key(cards("Kc Kd 9h 3s"), lowball) == showing_key(cards("3c 9s Ks Kh"), lowball)


@given(st.lists(st.integers(0, 51), min_size=1, max_size=5, unique=True), st.permutations(range(4)))
def test_showing_key_does_not_depend_on_suits(up: list[int], relabel: list[int]) -> None:
    other = [make_card(rank(c), relabel[suit(c)]) for c in up]
    assert showing_key(up) == showing_key(other)
    assert showing_key(up, lowball=True) == showing_key(other, lowball=True)


@pytest.mark.parametrize(
    ("text", "lowball", "words"),
    [
        ("9cKhKc3s", False, "pair of kings"),
        ("KdJcThTd", False, "pair of tens"),
        ("KdKcThTs", False, "two pair, kings and tens"),
        ("5c5d5h", False, "three of a kind, fives"),
        ("KdJc", False, "K-J high"),
        ("Ts", False, "10 high"),
        ("6d2c4h", True, "6-4-2 low"),
        ("6d6cAh", True, "pair of sixes"),
        ("AdAc2h", True, "pair of aces"),
    ],
)
def test_showing_words(text: str, lowball: bool, words: str) -> None:
    assert showing_words(cards(text), lowball) == words


def test_showing_rejects_no_upcards() -> None:
    with pytest.raises(IllegalAction):
        showing_key([])
