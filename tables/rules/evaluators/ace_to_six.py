"""Ace-to-six low (London lowball, seed 003): the ace is low, and straights
and flushes count against the hand, so the best low is the worst high hand
with the ace played below the deuce. 6-4-3-2-A is the nuts; 5-4-3-2-A is a
straight.

Keys pack like :mod:`tables.rules.evaluate`'s (category, then one nibble per
rank group, most important first), with low ranks (ace 1, king 13); LOWER is
better.

>>> from tables.rules.cards import parse_cards
>>> low_a6_words(low_a6_key(parse_cards("6d4c3h2sAc")))
'6-4-3-2-A low'
>>> low_a6_words(low_a6_key(parse_cards("5d4c3h2sAc")))
'5-4-3-2-A low, straight'
>>> low_a6_key(parse_cards("7c5d4h3s2cKdKs")) < low_a6_key(parse_cards("6d4c3h2sAc"))
False
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from tables.rules.cards import low_rank
from tables.rules.evaluate import (
    CATEGORY_SHIFT,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    low_key,
)

_SUFFIX = {
    HIGH_CARD: "",
    PAIR: ", pair of {0}",
    TWO_PAIR: ", two pair, {0} and {1}",
    THREE_OF_A_KIND: ", three of a kind, {0}",
    STRAIGHT: ", straight",
    FLUSH: ", flush",
    FULL_HOUSE: ", full house, {0} full of {1}",
    FOUR_OF_A_KIND: ", four of a kind, {0}",
    STRAIGHT_FLUSH: ", straight flush",
}
_PLURALS = {1: "aces", 6: "sixes", **{r: f"{r}s" for r in range(2, 11) if r != 6}}
_PLURALS.update({11: "jacks", 12: "queens", 13: "kings"})
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}


def low_a6_key(cards: Sequence[int]) -> int:
    """The best ace-to-six low of 5 to 11 cards; lower is better.

    Most hands hold five ranks that are neither a straight nor forced into a
    flush: then the best ace-to-five low (which ignores both) is the answer,
    read from its fast tables. Only the others try the 21 five-card hands.
    """
    key = low_key(cards)
    if key is not None and key >> CATEGORY_SHIFT == HIGH_CARD:
        ranks = [key >> shift & 15 for shift in (16, 12, 8, 4, 0)]
        if ranks[0] - ranks[4] != 4 and not _flush_forced(cards, ranks):
            return key
    return min(_five_key(five) for five in combinations(cards, 5))


def _flush_forced(cards: Sequence[int], ranks: list[int]) -> bool:
    """Whether every card of these ranks is of one suit, so they make a flush."""
    return len({c & 3 for c in cards if low_rank(c) in ranks}) == 1


def low_a6_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """The five cards the best ace-to-six low plays, highest low rank first."""
    best = min(combinations(sorted(cards, reverse=True), 5), key=_five_key)
    return tuple(sorted(best, key=lambda c: (low_rank(c), c), reverse=True))


def _five_key(five: Sequence[int]) -> int:
    counts = Counter(low_rank(c) for c in five)
    # Rank groups, the biggest group first, higher ranks first within a size.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    sizes = [size for _, size in groups]
    top, bottom = groups[0][0], min(counts)
    straight = len(groups) == 5 and top - bottom == 4
    flush = len({c & 3 for c in five}) == 1
    category = _category(sizes, straight, flush)
    key = category << CATEGORY_SHIFT
    for i, (r, _) in enumerate(groups):
        key |= r << (16 - 4 * i)
    return key


def _category(sizes: list[int], straight: bool, flush: bool) -> int:
    if straight and flush:
        return STRAIGHT_FLUSH
    if sizes[0] == 4:
        return FOUR_OF_A_KIND
    if sizes[:2] == [3, 2]:
        return FULL_HOUSE
    if flush:
        return FLUSH
    if straight:
        return STRAIGHT
    if sizes[0] == 3:
        return THREE_OF_A_KIND
    return {2: TWO_PAIR, 1: PAIR}.get(sizes.count(2), HIGH_CARD)


@functools.cache  # a few thousand keys, named again at every showdown
def low_a6_words(key: int) -> str:
    """Name an ace-to-six low from its key: "7-5-4-3-2 low", "... low, pair of fives"."""
    category = key >> CATEGORY_SHIFT
    groups = [r for r in (key >> (16 - 4 * i) & 15 for i in range(5)) if r]
    spelled = "-".join(_RANK_TEXT[r] for r in _spread(groups, category))
    plurals = [_PLURALS[r] for r in groups]
    return f"{spelled} low{_SUFFIX[category].format(*plurals, '', '')}"


_SHAPES = {
    HIGH_CARD: (1, 1, 1, 1, 1),
    PAIR: (2, 1, 1, 1),
    TWO_PAIR: (2, 2, 1),
    THREE_OF_A_KIND: (3, 1, 1),
    STRAIGHT: (1, 1, 1, 1, 1),
    FLUSH: (1, 1, 1, 1, 1),
    FULL_HOUSE: (3, 2),
    FOUR_OF_A_KIND: (4, 1),
    STRAIGHT_FLUSH: (1, 1, 1, 1, 1),
}


def _spread(groups: list[int], category: int) -> list[int]:
    """All five ranks, highest first, from one rank per group."""
    ranks = [r for r, size in zip(groups, _SHAPES[category], strict=False) for _ in range(size)]
    return sorted(ranks, reverse=True)
