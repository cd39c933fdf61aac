"""Cards, decks and the CSPRNG shuffle.

A card is a plain ``int`` from 0 to 51 so the engine can compare, hash and
serialise it for free: ``card = (rank - 2) * 4 + suit``. Ranks run 2..14 (ace
high); suits run clubs, diamonds, hearts, spades (0..3), which is also the
bring-in suit order of seeds 000/001/002 (clubs lowest).

>>> parse_card("Ah"), card_str(50)
(50, 'Ah')
>>> rank(parse_card("Td")), suit(parse_card("Td"))
(10, 1)
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable, Sequence

from tables.rules.errors import IllegalAction

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = {
    2: "deuce", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
RANK_PLURALS = {r: ("sixes" if r == 6 else name + "s") for r, name in RANK_NAMES.items()}

DECK_SIZE = 52
FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
# Each card's name ("Ah"), by card: hand histories and results name cards by the thousand.
CARD_NAMES = tuple(RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3] for card in FULL_DECK)


def rank(card: int) -> int:
    """Rank 2..14, ace high."""
    return (card >> 2) + 2


def suit(card: int) -> int:
    """Suit 0..3: clubs, diamonds, hearts, spades."""
    return card & 3


def low_rank(card: int) -> int:
    """Rank 1..13 with the ace low, as ace-to-five lowball reads it."""
    r = rank(card)
    return 1 if r == 14 else r


def make_card(card_rank: int, card_suit: int) -> int:
    return (card_rank - 2) * 4 + card_suit


def parse_card(text: str) -> int:
    """Read one card such as ``"Ah"`` or ``"10d"``; anything else is an IllegalAction."""
    if not isinstance(text, str):
        raise IllegalAction(f"a card must be text like 'Ah', not {text!r}")
    body = text.strip()
    if body[:2] == "10":
        body = "T" + body[2:]
    if len(body) != 2 or body[0].upper() not in RANK_CHARS or body[1].lower() not in SUIT_CHARS:
        raise IllegalAction(f"{text!r} is not a card; write rank then suit, like 'Ah' or 'Td'")
    return make_card(RANK_CHARS.index(body[0].upper()) + 2, SUIT_CHARS.index(body[1].lower()))


def parse_cards(text: str) -> list[int]:
    """Read cards written back to back (``"AhKd"``) or separated by spaces."""
    if not isinstance(text, str):
        raise IllegalAction(f"cards must be text like 'AhKd', not {text!r}")
    packed = "".join(text.split()).replace("10", "T")
    if len(packed) % 2:
        raise IllegalAction(f"{text!r} is not a list of cards")
    return [parse_card(packed[i : i + 2]) for i in range(0, len(packed), 2)]


def card_str(card: int) -> str:
    return CARD_NAMES[card]


def cards_str(cards: Iterable[int]) -> str:
    return "".join(map(CARD_NAMES.__getitem__, cards))


def pretty(card: int) -> str:
    """``"K♦"``, for words meant for people."""
    return ("10" if rank(card) == 10 else RANK_CHARS[card >> 2]) + SUIT_SYMBOLS[card & 3]


DECK_ORDERS = math.factorial(DECK_SIZE)
_ORDER_BITS = DECK_ORDERS.bit_length()


def shuffled_deck() -> list[int]:
    """A fresh 52-card deck shuffled by Fisher-Yates from the OS CSPRNG.

    One draw picks a uniform number below 52! (rejecting the few that are not),
    and its mixed-radix digits are the swap indices: the same uniform shuffle
    as 51 separate draws, for one system call instead of 51.
    """
    order = secrets.randbits(_ORDER_BITS)
    while order >= DECK_ORDERS:
        order = secrets.randbits(_ORDER_BITS)
    return fisher_yates(order)


def fisher_yates(order: int) -> list[int]:
    """The deck that Fisher-Yates makes when ``order`` supplies its swap indices.

    >>> fisher_yates(0)[:3], sorted(fisher_yates(DECK_ORDERS - 1)) == list(FULL_DECK)
    ([1, 2, 3], True)
    """
    deck = list(FULL_DECK)
    for i in range(DECK_SIZE - 1, 0, -1):
        order, j = divmod(order, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_deck(deck: Sequence[int]) -> list[int]:
    """Accept a fixed card order (tests, replays) only if it is a whole 52-card deck."""
    cards = list(deck)
    if not all(type(c) is int for c in cards) or sorted(cards) != list(FULL_DECK):
        raise IllegalAction("a deck must hold each of the 52 cards exactly once")
    return cards
