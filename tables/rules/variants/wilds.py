"""Which cards are wild, for whom, and who may know it: the wild-card rules
of the home games (seeds 000 and 003), as data the engine asks.

A rule answers with a 52-bit mask of the cards wild in one player's hand
(:func:`tables.rules.evaluators.wild.wild_mask`), from what the hand has
dealt so far: the face-up cards in the order they were dealt, and the
player's own cards. Three kinds:

- :class:`FixedWilds`: the same cards in every hand (deuces wild, one-eyed
  jacks...). Everyone knows them.
- :class:`QueensAndAfter` (seed 000): queens, and the rank of the next card
  dealt face up after the last face-up queen. Everyone sees the face-up
  cards, so everyone knows.
- :class:`LowHole` (seed 003): each player's lowest down card, and every
  card of its rank they hold, wild for them alone. It depends on their down
  cards, so only they know it until they show. Played high-low, an ace in
  the hole is the lowest card for the low hand, so aces are wild for the
  low only (:meth:`LowHole.low_wild`).

Every rule answers ``wild`` (the mask for the high hand) and ``low_wild``
(for the low hand, the same but in Low Hole).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tables.rules.cards import RANK_PLURALS, low_rank, rank
from tables.rules.evaluators.wild import wild_mask

__all__ = ["NO_WILDS", "FixedWilds", "LowHole", "QueensAndAfter", "WildRule", "rank_mask"]

QUEEN = 12


def rank_mask(card_rank: int) -> int:
    """The four cards of a rank (2 to 14) as a mask."""
    return 0xF << ((card_rank - 2) * 4)


@dataclass(frozen=True, slots=True)
class FixedWilds:
    """The same cards wild in every hand, whoever holds them."""

    cards: frozenset[int] = frozenset()
    called: str = ""  # how players name them: "deuces"
    mask: int = field(init=False, repr=False, compare=False)

    public = True  # everyone knows which cards are wild
    # Whether the wild cards change as the hand is dealt (the engine tells
    # the table when they do).
    changing = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", wild_mask(self.cards))

    def wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        return self.mask

    def low_wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        return self.mask

    def words(self, up_order: Sequence[int]) -> str:
        return self.called


NO_WILDS = FixedWilds()


@dataclass(frozen=True, slots=True)
class QueensAndAfter:
    """Seed 000: "all Queens are wild, and so is whatever card that is dealt
    face up that follows the Queen", showing or in the hole. A later face-up
    queen moves the second wild rank to the card after it, and the old one
    stops being wild at once; a queen that is the last card up leaves only
    queens wild. A queen followed by a queen passes the wildness on."""

    public = True
    changing = True

    def after(self, up_order: Sequence[int]) -> int | None:
        """The rank wild beside queens (2 to 14), or None for queens alone."""
        wild: int | None = None
        after_queen = False
        for card in up_order:
            card_rank = rank(card)
            if card_rank == QUEEN:
                wild, after_queen = None, True
            elif after_queen:
                wild, after_queen = card_rank, False
        return wild

    def wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        after = self.after(up_order)
        return rank_mask(QUEEN) | (rank_mask(after) if after else 0)

    def low_wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        return self.wild(up_order, held)

    def words(self, up_order: Sequence[int]) -> str:
        """ "queens and fives", or "queens" alone."""
        after = self.after(up_order)
        return "queens" + (f" and {RANK_PLURALS[after]}" if after else "")


@dataclass(frozen=True, slots=True)
class LowHole:
    """Seed 003: "each player's lowest concealed card is wild for that player
    only", with every card of its rank they hold, up or down. Aces are high,
    so the deuce is the lowest card; the 7th-street down card may bring a
    lower rank and move the wildness to it."""

    public = False  # it tells the rank of a down card: the holder's secret
    changing = False

    def wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        down = [rank(card) for card, up in held if not up and card >= 0]
        return rank_mask(min(down)) if down else 0

    def low_wild(self, up_order: Sequence[int], held: Sequence[tuple[int, bool]]) -> int:
        """Seed 003: "if you use ace-to-six or ace-to-five ranking of low
        hands, then an ace in the hole will make aces wild for the purpose
        of low hands but not for high hands": the lowest down card with
        aces low."""
        down = [card for card, up in held if not up and card >= 0]
        return rank_mask(rank(min(down, key=low_rank))) if down else 0

    def words(self, up_order: Sequence[int]) -> str:
        return "each player's lowest down card, for that player"


WildRule = FixedWilds | QueensAndAfter | LowHole


@dataclass(frozen=True, slots=True)
class Payments:
    """Seed 003's Man with the Axe: "players must pay into the pot whenever
    they are dealt an exposed wild card or exposed Seven": so many antes for
    each card dealt face up that is in ``cards``. A payment is not a bet:
    nobody matches it."""

    rates: tuple[tuple[int, int], ...]  # (card mask, antes per card of it)
    called: tuple[str, ...]  # how players name one card of each rate: "seven"

    def antes_for(self, card: int) -> int:
        """How many antes a card dealt face up costs its owner (0: none)."""
        return sum(antes for mask, antes in self.rates if mask >> card & 1)
