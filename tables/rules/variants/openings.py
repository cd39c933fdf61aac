"""Who brings in, and who opens each later betting round: variant rules, as
data the engine asks rather than flags it branches on.

High games (stud, stud hi-lo): the lowest door card brings in, ace high,
clubs lowest (seeds 000, 001, 002); later the best showing hand opens.
Low games (razz, London lowball): the highest door card brings in, ace low,
spades highest (seed 003); later the lowest showing hand opens.

Every key here sorts *first* for the player who must act.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.rules import evaluate
from tables.rules.cards import low_rank, rank, suit


@dataclass(frozen=True, slots=True)
class Opening:
    lowball: bool  # ace low, and the lowest hand is the best

    def bring_in_key(self, door: int) -> tuple[int, int]:
        """The door card that sorts first brings in."""
        if self.lowball:
            return (-low_rank(door), -suit(door))
        return (rank(door), suit(door))

    def opener_rank(self, door: int) -> int:
        """With no bring-in the best door card opens, by rank alone (seed 001)."""
        return -low_rank(door) if self.lowball else rank(door)

    def showing_key(self, showing: Sequence[int]) -> int:
        """The showing hand's value; higher is better (pairs and sets only)."""
        return evaluate.showing_key(showing, lowball=self.lowball)

    def showing_words(self, showing: Sequence[int]) -> str:
        return evaluate.showing_words(showing, lowball=self.lowball)

    def top_card(self, showing: Sequence[int]) -> int:
        """The showing card whose suit breaks a tie (seed 003)."""
        if self.lowball:
            return max(showing, key=lambda c: (low_rank(c), suit(c)))
        return max(showing, key=lambda c: (rank(c), suit(c)))

    def suit_tie(self, card: int) -> tuple[int]:
        """Seed 003: the higher suit acts first in high games, the lower in low ones."""
        return (suit(card),) if self.lowball else (-suit(card),)


HIGH_OPENING = Opening(lowball=False)
LOW_OPENING = Opening(lowball=True)
