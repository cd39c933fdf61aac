"""Hand values: the best high hand, the best ace-to-five low, and the showing hand.

Every value is one ``int`` so the engine can compare, sort and store hands without
knowing poker. The packing is ``category << 20 | r1 << 16 | r2 << 12 | r3 << 8 |
r4 << 4 | r5``: ranks most important first (a pair before its kickers), one nibble
each, so plain integer order is hand order.

Nothing here tries the 21 five-card subsets of a seven-card hand. Each card sets one
bit in its suit's rank mask; ANDs of those four masks give the ranks held two, three
and four times, and lookup tables indexed by a 13-bit rank mask give straights and the
top (or bottom) five ranks. That keeps ``high_key`` and ``low_key`` to a few
microseconds, which matters because the engine calls them at every showdown.

>>> high_hand(parse_cards("QsKdJcThTdAd2h")).words
'straight, ace high'
>>> low_hand(parse_cards("8d6c4s2hAcKdKs")).words
'8-6-4-2-A low'
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tables.rules.cards import (
    DECK_SIZE,
    RANK_CHARS,
    RANK_NAMES,
    RANK_PLURALS,
    cards_str,  # noqa: F401  (the doctests use it)
    low_rank,
    parse_cards,  # noqa: F401  (the doctests use it)
    rank,
    suit,
)
from tables.rules.errors import IllegalAction

__all__ = [
    "HIGH_CATEGORIES",
    "LOW_CATEGORIES",
    "SHOWING_CATEGORIES",
    "HighHand",
    "LowHand",
    "high_hand",
    "high_key",
    "low_hand",
    "low_key",
    "showing_key",
    "showing_words",
]

HIGH_CATEGORIES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "five of a kind",  # only with wild cards
)
(
    HIGH_CARD,
    PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
    FIVE_OF_A_KIND,
) = range(len(HIGH_CATEGORIES))

# Ace-to-five ignores straights and flushes; each extra matched card makes it worse.
LOW_CATEGORIES: tuple[str, ...] = (
    "no pair",
    "pair",
    "two pair",
    "three of a kind",
    "full house",
    "four of a kind",
)
LOW_NO_PAIR, LOW_PAIR, LOW_TWO_PAIR, LOW_TRIPS, LOW_FULL_HOUSE, LOW_QUADS = range(6)

# Stud counts only matched ranks on the board when it picks who acts first.
SHOWING_CATEGORIES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "four of a kind",
)

CATEGORY_SHIFT = 20
_RANK_MASKS = 1 << 13
_FIRST_KICKER = 0xF000  # where a top rank lands once shifted behind a one-rank group
# Showing keys for razz are flipped so that higher is better in both modes; every
# packed value (category at most 4, five nibbles) is below this.
_SHOW_FLIP = (1 << 24) - 1

# How many cards each packed rank stands for, per category; a straight packs only
# its top card and is expanded separately.
_HIGH_SHAPES: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1, 1),
    (2, 1, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (),
    (1, 1, 1, 1, 1),
    (3, 2),
    (4, 1),
    (),
    (5,),
)
_LOW_SHAPES: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 1, 1),
    (2, 1, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (3, 2),
    (4, 1),
)
_HIGH_WORDS = (
    "high card, {n0}",
    "pair of {p0}",
    "two pair, {p0} and {p2}",
    "three of a kind, {p0}",
    "straight, {n0} high",
    "flush, {n0} high",
    "full house, {p0} full of {p3}",
    "four of a kind, {p0}",
    "straight flush, {n0} high",
    "five of a kind, {p0}",
)
_LOW_WORDS = (
    "",
    ", pair of {p0}",
    ", two pair, {p0} and {p2}",
    ", three of a kind, {p0}",
    ", full house, {p0} full of {p3}",
    ", four of a kind, {p0}",
)
_SHOWING_WORDS = (
    "",
    "pair of {0}",
    "two pair, {0} and {1}",
    "three of a kind, {0}",
    "four of a kind, {0}",
)


def _build_tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """Per 13-bit rank mask: top five packed, straight top, bottom five packed, all packed.

    High masks use bit ``rank - 2``; low masks use bit ``low_rank - 1`` (ace is bit 0).
    Each entry is built from the mask without its highest bit, so the whole job is
    one pass of 8192 steps at import.
    """
    top, straight = [0] * _RANK_MASKS, [0] * _RANK_MASKS
    low_all, low_five = [0] * _RANK_MASKS, [0] * _RANK_MASKS
    for mask in range(1, _RANK_MASKS):
        high_bit = mask.bit_length() - 1
        rest = mask ^ (1 << high_bit)
        # Shifting the rest down a nibble drops a sixth rank off the end.
        top[mask] = (high_bit + 2) << 16 | top[rest] >> 4
        low_all[mask] = (high_bit + 1) << 16 | low_all[rest] >> 4
        low_five[mask] = low_five[rest] if mask.bit_count() > 5 else low_all[mask]
        # Bit j of ``wide`` is rank j + 1, with the ace also at bit 0 for the wheel.
        wide = mask << 1 | mask >> 12
        runs = wide & wide >> 1 & wide >> 2 & wide >> 3 & wide >> 4
        straight[mask] = runs.bit_length() + 4 if runs else 0
    return top, straight, low_five, low_all


_TOP, _STRAIGHT, _LOW_FIVE, _LOW_ALL = _build_tables()


def high_key(cards: Sequence[int]) -> int:
    """Value of the best five-card high hand in 5 to 11 cards; higher is better.

    The caller (the engine) guarantees distinct valid cards; use ``high_hand`` for
    checked input and words.

    >>> hex(high_key(parse_cards("9h5d9cKhKc3s5s")))  # two pair, kings and nines, five
    '0x2d9500'
    >>> high_key(parse_cards("Ah2h3h4h5hKcKd")) >> CATEGORY_SHIFT == STRAIGHT_FLUSH
    True
    """
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card & 3] |= 1 << (card >> 2)
    a, b, c, d = masks
    ranks = a | b | c | d
    trips = a & b & (c | d) | c & d & (a | b)
    flush = 0
    for mask in masks:
        if mask.bit_count() >= 5:
            # Ten cards or more (Baseball's extra cards) can hold two flushes.
            flush = _better_flush(flush, mask) if flush else mask
    if flush and _STRAIGHT[flush]:
        return STRAIGHT_FLUSH << CATEGORY_SHIFT | _STRAIGHT[flush] << 16
    pairs = a & b | c & d | (a | b) & (c | d)
    if trips:
        quads = a & b & c & d
        if quads:
            quads = 1 << (quads.bit_length() - 1)  # eight cards can hold two
            return (
                FOUR_OF_A_KIND << CATEGORY_SHIFT
                | _TOP[quads]
                | _TOP[ranks ^ quads] >> 4 & _FIRST_KICKER
            )
        best = 1 << (trips.bit_length() - 1)
        # The pair may be a second set of trips, played as two cards.
        if pairs ^ best:
            return (
                FULL_HOUSE << CATEGORY_SHIFT | _TOP[best] | _TOP[pairs ^ best] >> 4 & _FIRST_KICKER
            )
    # Only now, since quads and full houses (checked above) outrank a flush.
    if flush:
        return FLUSH << CATEGORY_SHIFT | _TOP[flush]
    if _STRAIGHT[ranks]:
        return STRAIGHT << CATEGORY_SHIFT | _STRAIGHT[ranks] << 16
    if trips:
        return THREE_OF_A_KIND << CATEGORY_SHIFT | _TOP[trips] | _TOP[ranks ^ trips] >> 4 & 0xFF00
    return _pairs_key(ranks, pairs)


def _better_flush(one: int, other: int) -> int:
    """Of two suits' rank masks of five or more, the one that plays higher:
    a straight flush first, then the higher top five."""
    if _STRAIGHT[one] != _STRAIGHT[other]:
        return one if _STRAIGHT[one] > _STRAIGHT[other] else other
    return one if _TOP[one] >= _TOP[other] else other


def _pairs_key(ranks: int, pairs: int) -> int:
    """Two pair, pair or high card, once trips and better are ruled out."""
    if not pairs:
        return _TOP[ranks]
    if pairs.bit_count() == 1:
        return PAIR << CATEGORY_SHIFT | _TOP[pairs] | _TOP[ranks ^ pairs] >> 4 & 0xFFF0
    while pairs.bit_count() > 2:
        pairs &= pairs - 1  # a third pair only competes for the kicker
    return TWO_PAIR << CATEGORY_SHIFT | _TOP[pairs] | _TOP[ranks ^ pairs] >> 8 & 0x0F00


def low_key(cards: Sequence[int], qualifier: int | None = None) -> int | None:
    """Ace-to-five value of the best five of 5 to 11 cards; LOWER is better.

    Straights and flushes do not count; pairs do. With ``qualifier`` (8 for
    eight-or-better) a hand that is paired or has a card above it is ``None``.

    >>> low_key(parse_cards("2c3d4h6s8c")) < low_key(parse_cards("Ad2h4c7d8s"))
    True
    >>> low_key(parse_cards("9c5d4h3s2cKdKs"), qualifier=8) is None
    True
    >>> hex(low_key(parse_cards("As2s3s4s5s")))
    '0x54321'
    """
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card & 3] |= 1 << (card >> 2)
    a, b, c, d = masks
    ranks = _ace_low(a | b | c | d)
    if ranks.bit_count() >= 5:
        key = _LOW_FIVE[ranks]
    else:
        pairs = _ace_low(a & b | c & d | (a | b) & (c | d))
        trips = _ace_low(a & b & (c | d) | c & d & (a | b))
        key = _paired_low_key(ranks, pairs, trips)
    # A paired hand's category bits put it above any qualifier from 1 to 13.
    if qualifier is not None and key >> 16 > qualifier:
        return None
    return key


def _ace_low(mask: int) -> int:
    """Move the ace from the top bit of a high rank mask to the bottom."""
    return mask << 1 & 0x1FFF | mask >> 12


def _paired_low_key(ranks: int, pairs: int, trips: int) -> int:
    """Best low when fewer than five ranks are distinct: every rank plays, then as
    few extra matches as possible, on the lowest ranks that allow them."""
    distinct = ranks.bit_count()
    if distinct == 4:
        lowest = pairs & -pairs
        return LOW_PAIR << CATEGORY_SHIFT | _LOW_ALL[lowest] | _LOW_ALL[ranks ^ lowest] >> 4
    if distinct == 3 and pairs.bit_count() >= 2:
        two = pairs & -pairs
        two |= (pairs ^ two) & -(pairs ^ two)
        return LOW_TWO_PAIR << CATEGORY_SHIFT | _LOW_ALL[two] | _LOW_ALL[ranks ^ two] >> 8
    if distinct == 3:
        return LOW_TRIPS << CATEGORY_SHIFT | _LOW_ALL[pairs] | _LOW_ALL[ranks ^ pairs] >> 4
    lower = ranks & -ranks
    for set_, pair in ((lower, ranks ^ lower), (ranks ^ lower, lower)):
        if trips & set_ and pairs & pair:
            return LOW_FULL_HOUSE << CATEGORY_SHIFT | _LOW_ALL[set_] | _LOW_ALL[pair] >> 4
    # Two ranks and no full house: four of one and a single of the other.
    quads = lower if trips & lower else ranks ^ lower
    return LOW_QUADS << CATEGORY_SHIFT | _LOW_ALL[quads] | _LOW_ALL[ranks ^ quads] >> 4


@dataclass(frozen=True, slots=True)
class HighHand:
    """The best high hand: its key, category, five cards (most important first), words."""

    key: int
    category: int
    cards: tuple[int, ...]
    words: str


@dataclass(frozen=True, slots=True)
class LowHand:
    """The best ace-to-five low: its key, five cards (highest low rank first), words."""

    key: int
    cards: tuple[int, ...]
    words: str


def high_hand(cards: Sequence[int]) -> HighHand:
    """The best high hand in 5 to 11 cards, with the cards it plays and its name.

    >>> jimmy = high_hand(parse_cards("9h5d9cKhKc3s5s"))
    >>> jimmy.words, cards_str(jimmy.cards)
    ('two pair, kings and nines', 'KhKc9h9c5s')
    >>> high_hand(parse_cards("Ts Js Qs Ks As 2c 2d")).words
    'royal flush'
    """
    _check_hand(cards)
    key = high_key(cards)
    category = key >> CATEGORY_SHIFT
    ranks = high_ranks(key)
    only_suit = _flush_suit(cards) if category in (FLUSH, STRAIGHT_FLUSH) else None
    played = _pick(cards, ranks, rank, only_suit)
    return HighHand(key, category, played, _high_words(category, ranks))


@functools.cache  # a few thousand keys, named again at every showdown
def high_words(key: int) -> str:
    """Name a high hand from its key alone, without the cards.

    >>> high_words(high_key(parse_cards("9h5d9cKhKc3s5s")))
    'two pair, kings and nines'
    """
    return _high_words(key >> CATEGORY_SHIFT, high_ranks(key))


@functools.cache  # a few thousand keys, named again at every showdown
def low_words(key: int) -> str:
    """Name an ace-to-five low from its key alone.

    >>> low_words(low_key(parse_cards("8c6d4h2sAc")))
    '8-6-4-2-A low'
    """
    category = key >> CATEGORY_SHIFT
    ranks = _expand(key, _LOW_SHAPES[category])
    spelled = "-".join(_rank_text(r) for r in sorted(ranks, reverse=True))
    return f"{spelled} low{_low_suffix(category, ranks)}"


def top_ranks(mask: int) -> int:
    """The top five ranks of a 13-bit rank mask, packed as a high key's are."""
    return _TOP[mask]


def high_ranks(key: int) -> list[int]:
    """The five ranks a high key stands for, in the order the hand is read."""
    category = key >> CATEGORY_SHIFT
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        top = key >> 16 & 15
        return [14 if r == 1 else r for r in range(top, top - 5, -1)]
    return _expand(key, _HIGH_SHAPES[category])


def _expand(key: int, shape: Sequence[int]) -> list[int]:
    """Unpack one rank per group and repeat it as many times as the group holds."""
    packed = [key >> (16 - 4 * i) & 15 for i in range(len(shape))]
    return [r for r, size in zip(packed, shape, strict=True) for _ in range(size)]


def _flush_suit(cards: Sequence[int]) -> int:
    """The suit of the flush the hand plays (of two, the better: ten cards
    or more can hold two)."""
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card & 3] |= 1 << (card >> 2)
    best = 0
    for mask in masks:
        if mask.bit_count() >= 5:
            best = _better_flush(best, mask) if best else mask
    return masks.index(best)


def _pick(
    cards: Sequence[int],
    ranks: Sequence[int],
    rank_of: Callable[[int], int],
    only_suit: int | None = None,
) -> tuple[int, ...]:
    """Match each rank to an unused card of it; the highest suit wins so the choice
    is the same whatever order the cards arrived in."""
    pool = sorted(cards, reverse=True)
    played = []
    for wanted in ranks:
        card = next(c for c in pool if rank_of(c) == wanted and only_suit in (None, suit(c)))
        pool.remove(card)
        played.append(card)
    return tuple(played)


def _high_words(category: int, ranks: Sequence[int]) -> str:
    if category == STRAIGHT_FLUSH and ranks[0] == 14:
        return "royal flush"
    return _HIGH_WORDS[category].format(
        n0=RANK_NAMES[ranks[0]],
        p0=RANK_PLURALS[ranks[0]],
        p2=RANK_PLURALS[ranks[2]],
        p3=RANK_PLURALS[ranks[3]],
    )


def low_hand(cards: Sequence[int], qualifier: int | None = None) -> LowHand | None:
    """The best ace-to-five low in 5 to 11 cards, or ``None`` if it fails ``qualifier``.

    >>> low_hand(parse_cards("Kd Qc 6h 6s 2d Kh Qs")).words
    'K-Q-6-6-2 low, pair of sixes'
    >>> low_hand(parse_cards("9c7d5h3s2c"), qualifier=8) is None
    True
    """
    _check_hand(cards)
    key = low_key(cards, qualifier)
    if key is None:
        return None
    ranks = _expand(key, _LOW_SHAPES[key >> CATEGORY_SHIFT])
    played = sorted(_pick(cards, ranks, low_rank), key=lambda c: (low_rank(c), c), reverse=True)
    return LowHand(key, tuple(played), low_words(key))


def _low_suffix(category: int, ranks: Sequence[int]) -> str:
    return _LOW_WORDS[category].format(
        p0=_plural(ranks[0]), p2=_plural(ranks[2]), p3=_plural(ranks[3])
    )


def showing_key(upcards: Sequence[int], lowball: bool = False) -> int:
    """Value of the face-up cards for choosing who acts first; HIGHER is better.

    Only matched ranks count (no straights or flushes; five upcards holding a full
    house read as trips with the pair as kickers). With ``lowball`` (razz) the ace
    is low and the lowest hand is the best, still as the highest key.

    >>> trips, pair, high = (showing_key(parse_cards(up)) for up in ("3c3d3h", "7c7d8h", "AcKdQh"))
    >>> trips > pair > high
    True
    >>> showing_key(parse_cards("6c2d"), lowball=True) > showing_key(parse_cards("7c2d"), True)
    True
    """
    pattern = (lowball, *sorted(c >> 2 for c in upcards))  # suits never matter here
    key = _SHOWING_KEYS.get(pattern)
    if key is None:
        category, ranks = _showing(upcards, lowball)
        key = category << CATEGORY_SHIFT
        for i, r in enumerate(ranks):
            key |= r << (16 - 4 * i)
        key = _SHOWING_KEYS[pattern] = _SHOW_FLIP - key if lowball else key
    return key


# Showing keys by rank pattern: at most a few thousand patterns of one to five
# ranks, each worked out once; the engine asks on every street for every player.
_SHOWING_KEYS: dict[tuple[int, ...], int] = {}


def showing_words(upcards: Sequence[int], lowball: bool = False) -> str:
    """Name the showing hand the way a dealer would call it.

    >>> showing_words(parse_cards("9cKhKc3s")), showing_words(parse_cards("KdJc"))
    ('pair of kings', 'K-J high')
    >>> showing_words(parse_cards("6d2c4h"), lowball=True)
    '6-4-2 low'
    """
    category, ranks = _showing(upcards, lowball)
    if category:
        return _SHOWING_WORDS[category].format(*map(_plural, ranks))
    spelled = "-".join(_rank_text(r) for r in ranks)
    return f"{spelled} {'low' if lowball else 'high'}"


def _showing(upcards: Sequence[int], lowball: bool) -> tuple[int, list[int]]:
    """Category and ranks of the upcards: matched ranks first, then single cards.

    Ranks run high to low within each part in both modes, since razz also compares
    the highest card first.
    """
    if not 1 <= len(upcards) <= 5:
        raise IllegalAction(f"a showing hand has 1 to 5 upcards, not {len(upcards)}")
    counts = Counter((low_rank if lowball else rank)(c) for c in upcards)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    sizes = [size for _, size in groups] + [0]
    # Three or four of a kind by size; otherwise count the pairs (0, 1 or 2).
    category = sizes[0] if sizes[0] >= 3 else (sizes[0] == 2) + (sizes[1] == 2)
    made = [r for r, _ in groups[: 2 if category == 2 else 1 if category else 0]]
    kickers = sorted((r for r, size in groups if r not in made for _ in range(size)), reverse=True)
    return category, made + kickers


def _rank_text(r: int) -> str:
    """ "A", "K" ... "10" ... "2" for a rank either way up (ace as 1 or 14)."""
    if r in (1, 14):
        return "A"
    return "10" if r == 10 else RANK_CHARS[r - 2]


def _plural(r: int) -> str:
    return RANK_PLURALS[14 if r == 1 else r]


# The most cards a hand holds: Baseball's seven and an extra card for each
# of the four fours dealt face up.
MOST_CARDS = 11


def _check_hand(cards: Sequence[int]) -> None:
    """Reject what the unchecked key functions would silently misread."""
    if not 5 <= len(cards) <= MOST_CARDS:
        raise IllegalAction(f"a hand has 5 to {MOST_CARDS} cards, not {len(cards)}")
    if any(type(c) is not int or not 0 <= c < DECK_SIZE for c in cards):
        raise IllegalAction(f"cards must be ints from 0 to {DECK_SIZE - 1}, not {list(cards)}")
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"a hand cannot hold the same card twice: {list(cards)}")
