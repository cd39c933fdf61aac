"""The bug of seed 003's Aces, Straights and Flushes: a joker in the centre
that is every player's seventh card.

The bug "can represent an ace, or a card needed to complete a player's
straight or flush, but cannot be used to form a set of equal cards other
than aces". So a hand with the bug is the best of its cards plus an ace,
and of its cards plus any card that makes a straight, a flush or a straight
flush. Holding all four aces, the bug is the fifth: five aces, the best hand.

The joker is no card of the 52: the functions here take a player's own
cards and add the bug themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from tables.rules import evaluate
from tables.rules.cards import DECK_SIZE, make_card, rank
from tables.rules.evaluators import wild as wilds

ACE = 14
ACES = tuple(make_card(ACE, suit) for suit in range(4))
# The categories the bug may complete besides a set of aces.
_COMPLETES = (evaluate.STRAIGHT, evaluate.FLUSH, evaluate.STRAIGHT_FLUSH)


def bug_card(cards: Sequence[int]) -> int:
    """The card the bug stands for in the best hand of ``cards`` plus the bug.

    Of equal hands the first card found is named, an ace first. With all four
    aces held it names an ace too; :func:`bug_key` then counts five aces.
    """
    return _bug_card(tuple(cards))


@functools.lru_cache(maxsize=4096)  # a showdown asks for a hand's key, name and cards
def _bug_card(cards: tuple[int, ...]) -> int:
    held = set(cards)
    best_card = next((ace for ace in ACES if ace not in held), ACES[0])
    best = evaluate.high_key([*cards, best_card])
    for card in _completers(cards, held):
        key = evaluate.high_key([*cards, card])
        if key > best and key >> evaluate.CATEGORY_SHIFT in _COMPLETES:
            best_card, best = card, key
    return best_card


def _completers(cards: Sequence[int], held: set[int]) -> list[int]:
    """The cards not held that could complete a flush (those of a suit the
    hand holds four of) or a straight (one card of each rank that does)."""
    suits, ranks = [0, 0, 0, 0], 0
    for card in cards:
        suits[card & 3] += 1
        ranks |= 1 << (card >> 2)
    out = [
        card
        for suit, count in enumerate(suits)
        if count >= 4
        for card in range(suit, DECK_SIZE, 4)
        if card not in held
    ]
    for index in range(13):
        if not ranks >> index & 1 and _has_straight(ranks | 1 << index):
            out.append(next(card for card in range(index * 4, index * 4 + 4) if card not in held))
    return out


def _has_straight(ranks: int) -> bool:
    """Whether a mask of rank indexes (0 the deuce, 12 the ace) holds five in
    a row, the ace also low."""
    run = ranks << 1 | ranks >> 12 & 1  # bit 0: the ace as one
    return bool(run & run >> 1 & run >> 2 & run >> 3 & run >> 4)


def bug_key(cards: Sequence[int]) -> int:
    """The high key of ``cards`` with the bug, packed as any high key."""
    if sum(1 for card in cards if rank(card) == ACE) == 4:
        # Five aces: the bug as a wild card joins the biggest group.
        spare = next(card for card in range(DECK_SIZE) if card not in cards)
        return wilds.high_key([*cards, spare], 1 << spare)
    return evaluate.high_key([*cards, bug_card(cards)])


def bug_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """The player's own cards among the five the best hand with the bug plays."""
    if sum(1 for card in cards if rank(card) == ACE) == 4:
        return tuple(card for card in cards if rank(card) == ACE)
    stand_in = bug_card(cards)
    played = evaluate.high_hand([*cards, stand_in]).cards
    return tuple(card for card in played if card != stand_in)  # never a held card
