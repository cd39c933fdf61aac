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

from collections.abc import Sequence

from tables.rules import evaluate
from tables.rules.cards import DECK_SIZE, make_card, rank
from tables.rules.evaluators import wild as wilds

ACE = 14
# The categories the bug may complete besides a set of aces.
_COMPLETES = (evaluate.STRAIGHT, evaluate.FLUSH, evaluate.STRAIGHT_FLUSH)


def bug_card(cards: Sequence[int]) -> int:
    """The card the bug stands for in the best hand of ``cards`` plus the bug.

    Of equal hands the first card found is named, aces first. With all four
    aces held it names an ace too; :func:`bug_key` then counts five aces.
    """
    held = set(cards)
    aces = [make_card(ACE, s) for s in range(4)]
    candidates = [a for a in aces if a not in held] or aces[:1]
    best_card, best = candidates[0], -1
    for card in candidates:
        key = evaluate.high_key([*cards, card])
        if key > best:
            best_card, best = card, key
    for card in range(DECK_SIZE):
        if card in held or rank(card) == ACE:
            continue
        key = evaluate.high_key([*cards, card])
        if key > best and key >> evaluate.CATEGORY_SHIFT in _COMPLETES:
            best_card, best = card, key
    return best_card


def bug_key(cards: Sequence[int]) -> int:
    """The high key of ``cards`` with the bug, packed as any high key."""
    if sum(1 for card in cards if rank(card) == ACE) == 4:
        # Five aces: the bug as a wild card joins the biggest group.
        spare = next(card for card in range(DECK_SIZE) if card not in cards)
        return wilds.high_key([*cards, spare], 1 << spare)
    return evaluate.high_key([*cards, bug_card(cards)])


def bug_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """The player's own cards among the five the best hand with the bug plays."""
    stand_in = bug_card(cards)
    if sum(1 for card in cards if rank(card) == ACE) == 4:
        return tuple(card for card in cards if rank(card) == ACE)
    played = evaluate.high_hand([*cards, stand_in]).cards
    return tuple(card for card in played if card != stand_in)  # never a held card
