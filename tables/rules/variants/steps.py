"""The steps a variant's script is made of. The engine walks the script in
order; it never asks which game it is dealing.

Stud today needs three steps: deal, bet and showdown. Exposing or rolling
a card, exchanging, declaring and paying will be further step classes that
the engine learns to walk, each one small data like these.
"""

from __future__ import annotations

from dataclasses import dataclass

UP, DOWN = True, False


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal each player still in ``len(faces)`` cards, one at a time around
    the table, face up where ``faces`` says ``UP``. A deal starts a street."""

    street: str
    faces: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Bet:
    """A betting round.

    ``size``: which of the stakes' two sizes fixed limit uses ("small" or
    "big"); the other structures only use the small bet, as their minimum.
    ``bring_in``: the round opens with the forced bring-in, when the stakes
    have one. ``open_pair``: fixed limit allows the big bet in this round
    when a pair shows (seeds 000, 003), if the table plays that rule.
    """

    size: str = "small"
    bring_in: bool = False
    open_pair: bool = False


@dataclass(frozen=True, slots=True)
class Showdown:
    """Show the hands still in and award the pots."""


Step = Deal | Bet | Showdown

SEVEN_CARD_STUD: tuple[Step, ...] = (
    Deal("3rd street", (DOWN, DOWN, UP)),
    Bet("small", bring_in=True),
    Deal("4th street", (UP,)),
    Bet("small", open_pair=True),
    Deal("5th street", (UP,)),
    Bet("big"),
    Deal("6th street", (UP,)),
    Bet("big"),
    Deal("7th street", (DOWN,)),
    Bet("big"),
    Showdown(),
)

# Seed 000's "Mississippi": no betting round between 4th and 5th street, so
# four rounds, bet as Texas hold'em bets them: small, small, big, big. There
# is no 4th-street round, so no open pair either.
MISSISSIPPI_STUD: tuple[Step, ...] = (
    Deal("3rd street", (DOWN, DOWN, UP)),
    Bet("small", bring_in=True),
    Deal("4th street", (UP,)),
    Deal("5th street", (UP,)),
    Bet("small"),
    Deal("6th street", (UP,)),
    Bet("big"),
    Deal("7th street", (DOWN,)),
    Bet("big"),
    Showdown(),
)
