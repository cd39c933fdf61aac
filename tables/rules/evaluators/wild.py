"""Hands with wild cards: a wild card stands for any card its holder likes.

A hand is split into its natural cards and a count of wild ones; the keys
pack exactly as :mod:`tables.rules.evaluate`'s do, so a wild hand and a
natural one compare as plain ints and equal hands tie.

- **High.** The wild cards go where they do the most: five of a kind (the
  one hand only wild cards make, above a straight flush, seeds 000 and
  003), then a straight flush, four of a kind, and so on down. A wild card
  may copy a card the hand holds only to make five of a kind; in a flush or
  a straight it is a card the hand lacks, so no flush holds two aces of
  spades.
- **Ace-to-five low.** A wild card plays as the lowest rank that doesn't pair
  the hand.
- **Ace-to-six low.** The same, except that it skips a rank that would make a
  straight; its suit is always one that spoils a flush.
- **Showing hands** (who opens): wild cards join the biggest group of equal
  ranks showing (aces, when only wild cards show), or in a low game are the
  lowest ranks not showing.

>>> from tables.rules.cards import parse_cards
>>> deuces = wild_mask(parse_cards("2c2d2h2s"))
>>> high_words(high_key(parse_cards("Ah Ad 2c Kh 9s As 3d"), deuces))
'four of a kind, aces'
>>> high_words(high_key(parse_cards("Ah Ad 2c Kh 2s As 3d"), deuces))
'five of a kind, aces'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from tables.rules import evaluate
from tables.rules.cards import make_card, rank, suit
from tables.rules.evaluate import (
    CATEGORY_SHIFT,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    high_words,  # noqa: F401  (the doctests use it)
)
from tables.rules.evaluators.ace_to_six import low_a6_cards, low_a6_key

__all__ = [
    "high_cards",
    "high_key",
    "low_a6_wild_cards",
    "low_a6_wild_key",
    "low_cards",
    "low_key",
    "natural",
    "showing_cards",
    "wild_mask",
    "wild_words",
]

_NUMBERS = ("no", "one", "two", "three", "four", "five")


def wild_mask(cards: Iterable[int]) -> int:
    """The cards as a 52-bit mask: the form every wild rule takes here."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def natural(cards: Sequence[int], wild: int) -> list[int]:
    """The cards that are not wild."""
    return [card for card in cards if not wild >> card & 1]


def wild_words(played: Sequence[int], wild: int) -> str:
    """ " (two wild)", when wild cards are among the five played; else ""."""
    count = sum(wild >> card & 1 for card in played)
    return f" ({_NUMBERS[count]} wild)" if count else ""


# ------------------------------------------------------------------- high


def high_key(cards: Sequence[int], wild: int) -> int:
    """The best high hand of 5 to 11 cards when the cards in ``wild`` are wild."""
    naturals = natural(cards, wild)
    wilds = len(cards) - len(naturals)
    if not wilds:
        return evaluate.high_key(cards)
    masks = [0, 0, 0, 0]
    counts = [0] * 13
    for card in naturals:
        masks[card & 3] |= 1 << (card >> 2)
        counts[card >> 2] += 1
    most = max(counts)
    if most + wilds >= 5:
        top = _highest(counts, 5 - wilds)
        return FIVE_OF_A_KIND << CATEGORY_SHIFT | (top + 2) << 16
    top = max(_straight_top(mask, wilds) for mask in masks)
    if top:
        return STRAIGHT_FLUSH << CATEGORY_SHIFT | top << 16
    ranks = masks[0] | masks[1] | masks[2] | masks[3]
    if most + wilds == 4:  # no more, or five of a kind would have been made
        quads = _highest(counts, most)
        return FOUR_OF_A_KIND << CATEGORY_SHIFT | _packed(1 << quads, ranks ^ 1 << quads, 0xF000)
    pairs = [r for r in range(12, -1, -1) if counts[r] == 2]
    if len(pairs) >= 2:  # two pair and a wild card: the higher pair becomes trips
        return FULL_HOUSE << CATEGORY_SHIFT | (pairs[0] + 2) << 16 | (pairs[1] + 2) << 12
    flush = max(
        (_filled_top(mask, wilds) for mask in masks if mask.bit_count() + wilds >= 5), default=0
    )
    if flush:
        return FLUSH << CATEGORY_SHIFT | flush
    top = _straight_top(ranks, wilds)
    if top:
        return STRAIGHT << CATEGORY_SHIFT | top << 16
    # Trips from a pair and one wild card, or a single card and two.
    group = _highest(counts, most)
    if most + wilds == 3:
        return THREE_OF_A_KIND << CATEGORY_SHIFT | _packed(1 << group, ranks ^ 1 << group, 0xFF00)
    return PAIR << CATEGORY_SHIFT | _packed(1 << group, ranks ^ 1 << group, 0xFFF0)


def _highest(counts: list[int], at_least: int) -> int:
    """The highest rank index held at least ``at_least`` times (aces when none is)."""
    return next((r for r in range(12, -1, -1) if counts[r] >= at_least), 12)


def _packed(group: int, rest: int, kickers: int) -> int:
    """A one-rank group's key bits, then the kickers that fit behind it."""
    return evaluate.top_ranks(group) | evaluate.top_ranks(rest) >> 4 & kickers


@functools.cache  # per rank mask and count of wild cards: a few thousand
def _straight_top(mask: int, wilds: int) -> int:
    """The top rank (5 to 14) of the best straight ``wilds`` wild cards
    complete from these ranks, or 0 when they can't."""
    if mask.bit_count() + wilds < 5:
        return 0
    wide = mask << 1 | mask >> 12  # bit j is rank j + 1, the ace at both ends
    for top in range(14, 4, -1):
        if (wide >> (top - 5) & 0b11111).bit_count() + wilds >= 5:
            return top
    return 0


def _filled_top(mask: int, wilds: int) -> int:
    """The packed top five ranks of a flush whose wild cards fill the
    highest ranks missing from ``mask``."""
    for bit in range(12, -1, -1):
        if not wilds:
            break
        if not mask >> bit & 1:
            mask |= 1 << bit
            wilds -= 1
    return evaluate.top_ranks(mask)


def high_cards(cards: Sequence[int], wild: int) -> tuple[int, ...]:
    """The five cards the best high hand plays, most important first; each
    wild card sits where the rank it stands for would."""
    key = high_key(cards, wild)
    ranks = evaluate.high_ranks(key)
    if key >> CATEGORY_SHIFT in (FLUSH, STRAIGHT_FLUSH):
        # The suit whose natural cards of these ranks, with the wild cards, make five.
        naturals = natural(cards, wild)
        wilds = len(cards) - len(naturals)
        held = [sum(suit(c) == s and rank(c) in ranks for c in naturals) for s in range(4)]
        return _play(cards, wild, ranks, next(s for s in range(4) if held[s] + wilds >= 5))
    return _play(cards, wild, ranks, None)


def _play(
    cards: Sequence[int], wild: int, ranks: Sequence[int], only_suit: int | None
) -> tuple[int, ...]:
    naturals = sorted(natural(cards, wild), reverse=True)
    wilds = sorted(set(cards) - set(naturals), reverse=True)
    played = []
    for wanted in ranks:
        card = next(
            (c for c in naturals if rank(c) == wanted and only_suit in (None, suit(c))), None
        )
        if card is None:
            card = wilds.pop(0)
        else:
            naturals.remove(card)
        played.append(card)
    return tuple(played)


# -------------------------------------------------------------------- low


def _stand_ins(ranks: Iterable[int], off_suit: int) -> list[int]:
    """Cards of the given low ranks (1 for the ace), in a suit chosen by the caller."""
    return [make_card(14 if r == 1 else r, off_suit) for r in ranks]


def _missing_low_ranks(naturals: Sequence[int]) -> list[int]:
    held = {1 if rank(c) == 14 else rank(c) for c in naturals}
    return [r for r in range(1, 14) if r not in held]


def low_key(cards: Sequence[int], wild: int, qualifier: int | None) -> int | None:
    """The best ace-to-five low: each wild card is the lowest rank the hand lacks."""
    naturals = natural(cards, wild)
    wilds = len(cards) - len(naturals)
    if not wilds:
        return evaluate.low_key(cards, qualifier)
    subs = _stand_ins(_missing_low_ranks(naturals)[:wilds], 0)
    return evaluate.low_key(naturals + subs, qualifier)


def low_cards(cards: Sequence[int], wild: int) -> tuple[int, ...]:
    """The five cards the best ace-to-five low plays, highest first, each wild
    card where the rank it stands for would be."""
    naturals = natural(cards, wild)
    wilds = sorted(set(cards) - set(naturals))
    subs = _stand_ins(_missing_low_ranks(naturals)[: len(wilds)], 0)
    low = evaluate.low_hand(naturals + subs)
    assert low is not None  # no qualifier asked
    back = dict(zip(subs, wilds, strict=True))
    return tuple(back.get(card, card) for card in low.cards)


def _a6_choices(cards: Sequence[int], wild: int) -> Iterator[tuple[list[int], dict[int, int]]]:
    """The ways worth trying to spend the wild cards in an ace-to-six low,
    the lowest ranks first: the hand with stand-ins for them, and which
    stand-in is which wild card."""
    naturals = natural(cards, wild)
    wilds = sorted(set(cards) - set(naturals))
    if not wilds:
        yield list(cards), {}
        return
    suits = [suit(c) for c in naturals]
    off_suit = min(range(4), key=suits.count)  # a suit that spoils any flush
    # The lowest few missing ranks are enough: one more than the wild cards
    # per straight the hand might make skips past it.
    missing = _missing_low_ranks(naturals)[: len(wilds) + 3]
    for ranks in combinations(missing, len(wilds)):
        subs = _stand_ins(ranks, off_suit)
        yield naturals + subs, dict(zip(subs, wilds, strict=True))


def low_a6_wild_key(cards: Sequence[int], wild: int) -> int:
    """The best ace-to-six low when the cards in ``wild`` are wild."""
    return low_a6_key(_best_a6_choice(cards, wild)[0])


def low_a6_wild_cards(cards: Sequence[int], wild: int) -> tuple[int, ...]:
    hand, back = _best_a6_choice(cards, wild)
    return tuple(back.get(card, card) for card in low_a6_cards(hand))


def _best_a6_choice(cards: Sequence[int], wild: int) -> tuple[list[int], dict[int, int]]:
    choices = _a6_choices(cards, wild)
    # The lowest ranks come first. When they make no straight or flush, their
    # ace-to-six low is the ace-to-five one, which no choice can beat.
    first = next(choices)
    if low_a6_key(first[0]) == evaluate.low_key(first[0]):
        return first
    return min((first, *choices), key=lambda choice: low_a6_key(choice[0]))


# ---------------------------------------------------------------- showing


def showing_cards(upcards: Sequence[int], wild: int, lowball: bool) -> list[int]:
    """The upcards with each wild one replaced by the card it best stands for
    when the showing hands pick who opens: a copy of the biggest group of
    equal ranks showing (the highest, of equal groups; aces with none), or in
    a low game the lowest rank not showing."""
    naturals = natural(upcards, wild)
    wilds = len(upcards) - len(naturals)
    if not wilds:
        return list(upcards)
    if lowball:
        return naturals + _stand_ins(_missing_low_ranks(naturals)[:wilds], 0)
    counts = [0] * 13
    for card in naturals:
        counts[card >> 2] += 1
    best = _highest(counts, max(counts)) if naturals else 12
    # The showing key reads ranks only, so a copy's suit doesn't matter.
    return naturals + [best << 2] * wilds
