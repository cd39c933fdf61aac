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
from dataclasses import dataclass, field

from tables.rules import evaluate
from tables.rules.cards import DECK_SIZE, low_rank, make_card, rank, suit
from tables.rules.evaluators.wild import showing_cards

# A card's rank as one count in a multiset of ranks, three bits a rank (no
# rank is shown more than four times): a showing hand's ranks, added up, are
# one int that its value is looked up by.
_RANK_COUNT = tuple(1 << 3 * (card >> 2) for card in range(DECK_SIZE)).__getitem__
# The bits of that multiset that are set when a rank is held twice or more.
_TWICE = sum(0b110 << 3 * r for r in range(13))


def shows_pair(cards: Sequence[int]) -> bool:
    """Whether two of ``cards`` share a rank (an open pair on 4th street).

    >>> shows_pair([0, 1]), shows_pair([0, 4, 51])
    (True, False)
    """
    return bool(sum(map(_RANK_COUNT, cards)) & _TWICE)


@dataclass(frozen=True, slots=True)
class Opening:
    lowball: bool  # ace low, and the lowest hand is the best
    # Each card's place in the game's card order, rank then suit (ace low in
    # lowball), as one int: the keys below are asked for every player every street.
    _order: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Showing values by the multiset of ranks (suits never matter): at most a
    # few thousand of them, each worked out once.
    _showing: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ranks = low_rank if self.lowball else rank
        order = tuple(ranks(card) * 4 + suit(card) for card in range(DECK_SIZE))
        object.__setattr__(self, "_order", order)

    def door_key(self, door: int, bring_in: bool, suit_tie: bool, wild: int = 0) -> int:
        """The door card that sorts first acts first on 3rd street.

        With a bring-in, the lowest card brings in (the highest, in lowball),
        suits breaking ties (clubs lowest; seeds 000-003). With none, the best
        door card opens, by rank alone (seed 001), or by suit too (seed 003:
        the higher suit in high games, the lower in low ones).

        A wild door card counts as the ace of its suit: the best card, in
        high games and low ones alike.
        """
        if wild >> door & 1:
            door = make_card(14, suit(door))
        order = self._order[door]
        if bring_in:
            return -order if self.lowball else order
        if not suit_tie:
            order >>= 2  # the rank alone
        return order if self.lowball else -order

    def showing_order(self, showing: Sequence[int], suit_tie: bool, wild: int = 0) -> int:
        """The best showing hand sorts first and opens the later streets. Only
        pairs and sets count, no straights or flushes. Equal hands tie (position
        decides), or with ``suit_tie`` the suit of the top card decides (seed
        003: the higher suit in high games, the lower in low ones). Wild cards
        count as the cards they best stand for."""
        if wild:
            showing = showing_cards(showing, wild, self.lowball)
        ranks = sum(map(_RANK_COUNT, showing))
        score = self._showing.get(ranks)
        if score is None:
            score = self._showing[ranks] = evaluate.showing_key(showing, lowball=self.lowball)
        if not suit_tie:
            return -score
        top = self._order[max(showing, key=self._order.__getitem__)] & 3  # its suit
        return -score * 4 + (top if self.lowball else 3 - top)


HIGH_OPENING = Opening(lowball=False)
LOW_OPENING = Opening(lowball=True)
