"""Betting structures: how big a complete, bet or raise may be, and when the
round is capped.

The engine keeps the round's bookkeeping (the current bet, the last full
wager, how many wagers were made) and asks its structure two questions. A new
structure (spread, pot or no limit) is a new class here, registered in
:data:`STRUCTURES`, not a change to the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tables.rules.state import HandState


class Structure(Protocol):
    code: str

    def raise_sizes(self, state: HandState) -> list[int]:
        """The sizes, ascending, by which a full wager may top the last full wager."""

    def capped(self, state: HandState) -> bool:
        """Whether the round has had all the wagers it may have."""


class FixedLimit:
    """Fixed limit (seeds 002, 003): small bets on 3rd and 4th street, big bets
    after; with an open pair on 4th street the big bet may be chosen, and once
    it is, raises stay big. One bet and ``max_raises`` raises per round."""

    code = "fixed"

    def raise_sizes(self, state: HandState) -> list[int]:
        small, big = state.config.small_bet, state.config.big_bet
        if state.game.streets[state.street].big:
            return [big]
        if state.open_pair:
            return [big] if state.big_made else [small, big]
        return [small]

    def capped(self, state: HandState) -> bool:
        if state.config.heads_up_uncapped and state.round_players == 2:
            return False
        return state.wagers > state.config.max_raises


STRUCTURES: dict[str, Structure] = {FixedLimit.code: FixedLimit()}
