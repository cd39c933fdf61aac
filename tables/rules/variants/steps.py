"""The steps a variant's script is made of. The engine walks the script in
order; it never asks which game it is dealing.

Stud needs three steps: deal, bet and showdown. The home games of seeds
000 and 003 add three decisions a player makes that are not bets: rolling a
down card face up (roll your own), exchanging a card (English stud) and
declaring high, low or both (hi-lo declare).
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
    # Dealt only when the hand began with at most this many players
    # (English stud's 7th card, seed 003); None: always.
    most_players: int | None = None

    def dealt_to(self, players: int) -> bool:
        """Whether a hand that began with ``players`` players is dealt this street."""
        return self.most_players is None or players <= self.most_players


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


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll your own (seed 000): each player still in turns one of their
    down cards face up. Everyone chooses at once, and nobody sees another's
    card until all have chosen."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """English stud (seed 003): each player still in, in turn from the
    dealer's left, may exchange one card for the next from the deck, dealt
    face up or down as the card it replaces was, or stand pat."""


@dataclass(frozen=True, slots=True)
class Declare:
    """Hi-lo declare (seed 003): each player still in declares high, low or
    both; at once (the closed fist) unless the table declares in turn."""


Decision = Roll | Exchange | Declare
Step = Deal | Bet | Roll | Exchange | Declare | Showdown

# Stud to five cards (two down, three up) and their three rounds: the start
# of seven-card stud and of the home games that change what comes after.
STUD_TO_FIVE: tuple[Step, ...] = (
    Deal("3rd street", (DOWN, DOWN, UP)),
    Bet("small", bring_in=True),
    Deal("4th street", (UP,)),
    Bet("small", open_pair=True),
    Deal("5th street", (UP,)),
    Bet("big"),
)

SEVEN_CARD_STUD: tuple[Step, ...] = (
    *STUD_TO_FIVE,
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

# Seed 000's roll your own: "four rounds of two cards each are dealt down,
# and each player must 'roll' one card to face up, followed by a round of
# betting". Eight cards each, four of them up; the best five play.
ROLL_YOUR_OWN: tuple[Step, ...] = (
    Deal("1st round", (DOWN, DOWN)),
    Roll(),
    Bet("small", bring_in=True),
    Deal("2nd round", (DOWN, DOWN)),
    Roll(),
    Bet("small", open_pair=True),
    Deal("3rd round", (DOWN, DOWN)),
    Roll(),
    Bet("big"),
    Deal("4th round", (DOWN, DOWN)),
    Roll(),
    Bet("big"),
    Showdown(),
)

# Seed 003's English stud: stud to five cards, an exchange after the 5th and
# the 6th street's rounds, and the 7th card (face down) only with five
# players or fewer; a final round follows the second exchange either way.
ENGLISH_STUD: tuple[Step, ...] = (
    *STUD_TO_FIVE,
    Exchange(),
    Deal("6th street", (UP,)),
    Bet("big"),
    Exchange(),
    Deal("7th street", (DOWN,), most_players=5),
    Bet("big"),
    Showdown(),
)

# Seed 003's Aces, Straights and Flushes: six cards each, dealt as stud to
# five and then one down, with four betting rounds; the joker in the centre
# is everyone's seventh card.
SIX_CARD_STUD: tuple[Step, ...] = (
    *STUD_TO_FIVE,
    Deal("6th street", (DOWN,)),
    Bet("big"),
    Showdown(),
)

# Hi-lo declare (seed 003): seven-card stud, and after the 7th street's
# round each player still in declares before the showdown.
DECLARE_STUD: tuple[Step, ...] = (*SEVEN_CARD_STUD[:-1], Declare(), Showdown())
