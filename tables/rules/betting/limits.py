"""Limit structures: fixed limit and spread limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.rules.betting.base import (
    Targets,
    at_streets,
    bet_rounds,
    faces_full_raise,
    least_raise,
    limit_capped,
    raises_fully,
    wager_base,
)

if TYPE_CHECKING:
    from tables.rules.config import GameConfig
    from tables.rules.state import HandState


def _cap(config: GameConfig) -> str:
    """The limit games' cap on a round's wagers, in a sentence."""
    raises = "raise" if config.max_raises == 1 else "raises"
    cap = f"At most a bet and {config.max_raises} {raises} a round"
    uncapped = ", with no cap on a round two players start" if config.heads_up_uncapped else ""
    return f"{cap}{uncapped}."


# Targets(...) without NamedTuple's Python-level __new__: asked every move.
_targets = tuple.__new__


class FixedLimit:
    """Fixed limit (seeds 002, 003): small bets on the rounds the variant's
    script calls small, big bets on the others. With an open pair on 4th
    street the big bet may be chosen, and once it is, raises stay big. One bet
    and ``max_raises`` raises per round. An all-in of half a bet or more is a
    full raise unless the table plays the full-bet rule."""

    code = "fixed"
    name = "Fixed limit"
    words = "Limit"
    open_pair = True
    one_bet = ("big_bet", "a big bet")

    def _least(self, state: HandState) -> int:
        """The smaller of this round's bet sizes: the big bet on a big round or
        once a big bet was chosen on an open pair, else the small bet."""
        config = state.config
        if state.game.big_steps[state.step] or state.big_made:  # round_is_big, asked every move
            return config.big_bet
        return config.small_bet

    def targets(self, state: HandState, player: int) -> Targets:
        least, base = self._least(state), state.full_level
        if state.open_pair and least != state.config.big_bet:  # either size, by choice
            low, high = base + least, base + state.config.big_bet
            return _targets(Targets, (low, high, (low, high)))
        total = base + least
        return _targets(Targets, (total, total, (total,)))

    def is_full(self, state: HandState, total: int) -> bool:
        least = self._least(state)
        increase = total - state.full_level
        return increase >= least or (state.config.short_all_in == "half" and 2 * increase >= least)

    capped = staticmethod(limit_capped)

    def reopened(self, state: HandState, player: int) -> bool:
        # Only a full wager (or, by the half-bet rule, an all-in of half a bet
        # or more) since the player last acted lets them raise again.
        return state.acted_level[player] < state.full_level

    def describe(self, config: GameConfig) -> str:
        return f"{config.small_bet}/{config.big_bet}"

    def plays(self, config: GameConfig) -> str:
        """ "Fixed limit: every bet and raise is 2 on 3rd and 4th street and 4
        on 5th, 6th and 7th street. ..." """
        small, big = config.small_bet, config.big_bet
        rounds = bet_rounds(config.game.script)
        sizes = f"every bet and raise is {small}"
        if small != big:
            smalls = [street for street, bet in rounds if bet.size == "small"]
            bigs = [street for street, bet in rounds if bet.size == "big"]
            sizes += f" {at_streets(smalls)} and {big} {at_streets(bigs)}"
        if config.open_pair:
            [pair] = [street for street, bet in rounds if bet.open_pair]
            sizes += f"; with a pair showing {at_streets([pair])}, anyone may bet or raise {big}"
        return f"Fixed limit: {sizes}. {_cap(config)}"

    def problems(self, small_bet: int, big_bet: int) -> list[str]:
        if big_bet < small_bet:
            return [f"the big bet ({big_bet}) can't be below the small bet ({small_bet})"]
        return []


class SpreadLimit:
    """Spread limit (seed 003's $1-5, $5-20): any bet or raise from the
    spread's minimum (``small_bet``) to its maximum (``big_bet``) on every
    street. By default a raise is at least the last bet or raise of the round
    (seed 003's rule, the ``raise_at_least_last`` option). Capped as fixed limit."""

    code = "spread"
    name = "Spread limit"
    words = "Spread Limit"
    open_pair = False
    one_bet = ("big_bet", "the spread's maximum")

    def _least(self, state: HandState) -> int:
        if state.config.raise_at_least_last:
            return least_raise(state)
        return state.config.small_bet

    def targets(self, state: HandState, player: int) -> Targets:
        base = wager_base(state)
        least = min(self._least(state), state.config.big_bet)
        return Targets(base + least, base + state.config.big_bet)

    def is_full(self, state: HandState, total: int) -> bool:
        return raises_fully(state, total, min(self._least(state), state.config.big_bet))

    capped = staticmethod(limit_capped)

    def reopened(self, state: HandState, player: int) -> bool:
        return faces_full_raise(state, player, min(self._least(state), state.config.big_bet))

    def describe(self, config: GameConfig) -> str:
        return f"spread {config.small_bet}-{config.big_bet}"

    def plays(self, config: GameConfig) -> str:
        sizes = f"every bet and raise is from {config.small_bet} to {config.big_bet}"
        if config.raise_at_least_last:
            sizes += ", and a raise at least the last bet or raise"
        return f"Spread limit: {sizes}. {_cap(config)}"

    def problems(self, small_bet: int, big_bet: int) -> list[str]:
        if big_bet <= small_bet:
            return [f"a spread's maximum ({big_bet}) must be above its minimum ({small_bet})"]
        return []
