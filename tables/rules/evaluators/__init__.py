"""How a variant values a player's cards: for high, for low, or both.

The engine, the pots, the bots and the narrators ask a variant's
:class:`Evaluator`; none of them calls :mod:`tables.rules.evaluate` directly.
Every key is an ``int``: for high, higher is better; for low, lower is
better, and ``None`` is a hand that doesn't qualify.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.rules import evaluate
from tables.rules.evaluators import bug as bugs
from tables.rules.evaluators import wild as wilds
from tables.rules.evaluators.ace_to_six import low_a6_cards, low_a6_key, low_a6_words

ACE_TO_FIVE, ACE_TO_SIX = "ace-to-five", "ace-to-six"
# Man with the Axe: a hand holding two natural sevens beats every hand
# without them; the flag sits above every packed key.
NATURAL_SEVENS = 1 << 24
SEVENS = tuple(card for card in range(52) if card >> 2 == 5)
LOW_RANKINGS = (ACE_TO_FIVE, ACE_TO_SIX)
# High categories, as :meth:`Evaluator.high_category` counts them.
PAIR, STRAIGHT = evaluate.PAIR, evaluate.STRAIGHT


@dataclass(frozen=True, slots=True)
class Evaluator:
    """Values hands for the high half, the low half, or both.

    ``low``: the low ranking (``ACE_TO_FIVE``: straights and flushes don't
    count; ``ACE_TO_SIX``: they count against), or ``None`` for a high-only
    game. ``qualifier``: a low must be this card or better, unpaired (8 in
    eight-or-better); ``None``: any low plays.
    """

    high: bool
    low: str | None = None
    qualifier: int | None = None
    # Seed 003's Man with the Axe: "The highest hand is a natural pair of
    # Sevens". Two such hands compare as any others.
    sevens_rule: bool = False
    # Seed 003's Aces, Straights and Flushes: every hand plays the joker in
    # the centre as an ace, or to complete a straight or a flush
    # (evaluators/bug.py). The cards valued are the player's own.
    bug: bool = False

    @property
    def split(self) -> bool:
        return self.high and self.low is not None

    # Every method takes ``wild``, the cards that are wild for this hand as a
    # 52-bit mask (:func:`tables.rules.evaluators.wild.wild_mask`); 0 in a
    # game without wild cards, which keeps to the natural evaluator's fast path.

    def high_key(self, cards: Sequence[int], wild: int = 0) -> int | None:
        if not self.high:
            return None
        if self.bug:
            return bugs.bug_key(cards)
        key = wilds.high_key(cards, wild) if wild else evaluate.high_key(cards)
        if self.sevens_rule and self._natural_sevens(cards, wild) >= 2:
            return NATURAL_SEVENS | key
        return key

    @staticmethod
    def _natural_sevens(cards: Sequence[int], wild: int) -> int:
        return sum(1 for card in cards if card in SEVENS and not wild >> card & 1)

    def low_key(self, cards: Sequence[int], wild: int = 0) -> int | None:
        if self.low == ACE_TO_FIVE:
            if wild:
                return wilds.low_key(cards, wild, self.qualifier)
            return evaluate.low_key(cards, self.qualifier)
        if self.low == ACE_TO_SIX:
            key = wilds.low_a6_wild_key(cards, wild) if wild else low_a6_key(cards)
            if self.qualifier is not None and key >> 16 > self.qualifier:
                return None
            return key
        return None

    def high_category(self, cards: Sequence[int], wild: int = 0) -> int:
        """The high hand's category: 0 high card, 1 a pair... up to
        ``evaluate.FIVE_OF_A_KIND``; -1 in a game with no high half."""
        key = self.high_key(cards, wild)
        return -1 if key is None else key >> evaluate.CATEGORY_SHIFT & 0xF

    def high_cards(self, cards: Sequence[int], wild: int = 0) -> tuple[int, ...]:
        """The five cards the best high hand plays (with the bug: the
        player's own cards among them)."""
        if self.bug:
            return bugs.bug_cards(cards)
        return wilds.high_cards(cards, wild) if wild else evaluate.high_hand(cards).cards

    def low_cards(self, cards: Sequence[int], wild: int = 0) -> tuple[int, ...]:
        """The five cards the best low hand plays (qualifying or not)."""
        if self.low == ACE_TO_SIX:
            return wilds.low_a6_wild_cards(cards, wild) if wild else low_a6_cards(cards)
        if wild:
            return wilds.low_cards(cards, wild)
        low = evaluate.low_hand(cards)
        assert low is not None  # no qualifier asked: every hand has a low
        return low.cards

    def high_words(self, key: int) -> str:
        if key & NATURAL_SEVENS:
            return "natural pair of sevens"
        return evaluate.high_words(key)

    def low_words(self, key: int) -> str:
        return low_a6_words(key) if self.low == ACE_TO_SIX else evaluate.low_words(key)

    def high_name(self, cards: Sequence[int], key: int, wild: int = 0) -> str:
        """The high hand's name, saying how many wild cards it plays:
        "four of a kind, nines (two wild)"."""
        words = self.high_words(key)
        if self.bug:
            return words + " (with the bug)" if len(bugs.bug_cards(cards)) < 5 else words
        if not wild or key & NATURAL_SEVENS:
            return words
        return words + wilds.wild_words(self.high_cards(cards, wild), wild)

    def low_name(self, cards: Sequence[int], key: int, wild: int = 0) -> str:
        """The low hand's name, saying how many wild cards it plays."""
        words = self.low_words(key)
        return words + wilds.wild_words(self.low_cards(cards, wild), wild) if wild else words

    def strength(self, cards: Sequence[int], wild: int = 0) -> float:
        """A rough 0-1 value of a made hand of 5 to 11 cards (for bots): its
        high category, or how good its low is, whichever the game plays."""
        scores = []
        if self.high:
            key = self.high_key(cards, wild)
            assert key is not None
            scores.append(min(1.0, (key >> evaluate.CATEGORY_SHIFT) / 8))
        low = self.low_key(cards, wild)
        if low is not None:
            # The top card of an unpaired low: 5 (ace-to-five) or 6 (ace-to-six) is the best.
            best = 6 if self.low == ACE_TO_SIX else 5
            scores.append(max(0.0, 1 - ((low >> 16) - best) / 8) if low >> 20 == 0 else 0.0)
        return max(scores, default=0.0)
