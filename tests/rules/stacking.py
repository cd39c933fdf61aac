"""Build decks that deal exactly the cards a test wants.

The engine burns one card, then deals a street one card at a time around the
live players in seat order; ``stack_deck`` lays cards out in that order and
fills burns, ``??`` placeholders and the rest of the deck with unused cards.
"""

from __future__ import annotations

from tables.rules import GameConfig, HandState
from tables.rules.cards import FULL_DECK, parse_card


def stack_deck(*streets: dict[int, str]) -> list[int]:
    """``streets``: one mapping per street of player -> that street's cards, e.g.
    ``{0: "????4s", 1: "QsHhKd"}`` then ``{1: "Jc"}``; the key ``"burn"`` names
    that street's burn card. ``{"draws": "7h2c"}`` is no street: the cards
    drawn next, in order, with no burn (English stud's exchanges)."""
    wanted = [{p: _tokens(text) for p, text in street.items()} for street in streets]
    named = {c for street in wanted for cards in street.values() for c in cards if c is not None}
    spare = iter([c for c in FULL_DECK if c not in named])
    order: list[int] = []
    for street in wanted:
        if "draws" in street:
            order.extend(next(spare) if c is None else c for c in street["draws"])
            continue
        burn = street.pop("burn", [None])[0]
        order.append(next(spare) if burn is None else burn)
        players = sorted(street)
        for k in range(len(street[players[0]])):
            for p in players:
                card = street[p][k]
                order.append(next(spare) if card is None else card)
    order.extend(spare)
    return order


def _tokens(text: str) -> list[int | None]:
    packed = text.replace(" ", "")
    pairs = [packed[i : i + 2] for i in range(0, len(packed), 2)]
    return [None if pair == "??" else parse_card(pair) for pair in pairs]


def play(state: HandState, *moves: tuple) -> HandState:
    """Apply ``(player, kind)`` or ``(player, kind, amount)`` moves in order."""
    for move in moves:
        state.act(*move)
    return state


def config(**options) -> GameConfig:
    """The house test game: ante 1, bring-in 2, 5/10 fixed limit, stud, no rake."""
    base = {"variant": "stud", "ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}
    return GameConfig(**{**base, **options})
