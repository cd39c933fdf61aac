"""Variants as data: streets, who brings in, who acts first, how hands are read.

A new stud game is a new :class:`Variant` value, not a copy of the engine.
The engine asks the variant four questions: which door card brings in, which
upcard opens when there is no bring-in, whose showing hand acts first, and how
a finished hand is valued for the high and low halves.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.rules.cards import low_rank, rank, suit
from tables.rules.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Street:
    name: str
    down: int  # cards dealt face down to each player
    up: int  # cards dealt face up to each player
    big: bool  # fixed limit: big bets on this street


STUD_STREETS: tuple[Street, ...] = (
    Street("3rd street", down=2, up=1, big=False),
    Street("4th street", down=0, up=1, big=False),
    Street("5th street", down=0, up=1, big=True),
    Street("6th street", down=0, up=1, big=True),
    Street("7th street", down=1, up=0, big=True),
)


@dataclass(frozen=True, slots=True)
class Variant:
    code: str  # our short name, stored on tables
    name: str
    phh: str  # the PHH standard's variant code
    high: bool  # a high hand wins (all or half of) the pot
    low_qualifier: int | None  # eight-or-better: 8; razz: None (any low plays)
    low: bool  # an ace-to-five low wins (all or half of) the pot
    lowball_order: bool  # razz: highest door card brings in, lowest showing hand acts first
    open_pair_default: bool  # 4th-street open pair allows the big bet, unless the table says no
    open_pair_allowed: bool
    streets: tuple[Street, ...] = STUD_STREETS

    @property
    def split(self) -> bool:
        return self.high and self.low

    def bring_in_key(self, card: int) -> tuple[int, int]:
        """The door card that sorts *first* brings in.

        Stud and hi-lo: lowest rank, ace high, clubs lowest (seeds 000, 001, 002).
        Razz: highest rank, ace low, spades highest (seed 003).
        """
        if self.lowball_order:
            return (-low_rank(card), -suit(card))
        return (rank(card), suit(card))

    def opener_rank(self, card: int) -> int:
        """With no bring-in the *best* upcard opens, by rank alone (seed 001: no suits)."""
        return -low_rank(card) if self.lowball_order else rank(card)


STUD = Variant(
    code="stud",
    name="Seven-card stud",
    phh="F7S",
    high=True,
    low=False,
    low_qualifier=None,
    lowball_order=False,
    open_pair_default=True,
    open_pair_allowed=True,
)
RAZZ = Variant(
    code="razz",
    name="Razz",
    phh="FR",
    high=False,
    low=True,
    low_qualifier=None,
    lowball_order=True,
    open_pair_default=False,
    open_pair_allowed=False,
)
STUD8 = Variant(
    code="stud8",
    name="Seven-card stud hi-lo, eight or better",
    phh="F7S/8",
    high=True,
    low=True,
    low_qualifier=8,
    lowball_order=False,
    open_pair_default=False,
    open_pair_allowed=True,
)

VARIANTS: dict[str, Variant] = {v.code: v for v in (STUD, RAZZ, STUD8)}
BY_PHH: dict[str, Variant] = {v.phh: v for v in VARIANTS.values()}


def get_variant(code: str) -> Variant:
    try:
        return VARIANTS[code]
    except (KeyError, TypeError):
        raise IllegalAction(
            f"unknown variant {code!r}; choose one of {', '.join(VARIANTS)}"
        ) from None
