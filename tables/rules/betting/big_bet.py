"""Big-bet structures: pot limit and no limit. No cap on raises; the minimum
bet is the small bet; a raise is at least the last full bet or raise; an
all-in short of a full raise doesn't reopen the betting (the full-bet rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.rules.betting.base import (
    Targets,
    faces_full_raise,
    least_raise,
    raises_fully,
    wager_base,
)

if TYPE_CHECKING:
    from tables.rules.config import GameConfig
    from tables.rules.state import HandState


class PotLimit:
    """Pot limit (seed 003): a bet or raise up to the size of the pot, the
    call counted first. The bring-in may be completed to the small bet, or
    more, up to the pot."""

    code = "pot"
    name = "Pot limit"
    words = "Pot Limit"
    open_pair = False
    one_bet = ("small_bet", "a minimum bet")

    def targets(self, state: HandState, player: int) -> Targets:
        low = wager_base(state) + least_raise(state)
        to_call = state.current_bet - state.bets[player]
        pot_after_call = state.pot_total + to_call
        return Targets(low, max(low, state.current_bet + pot_after_call))

    def is_full(self, state: HandState, total: int) -> bool:
        return raises_fully(state, total, least_raise(state))

    def capped(self, state: HandState) -> bool:
        return False

    def reopened(self, state: HandState, player: int) -> bool:
        return faces_full_raise(state, player, least_raise(state))

    def describe(self, config: GameConfig) -> str:
        return f"pot limit, minimum bet {config.small_bet}"

    def plays(self, config: GameConfig) -> str:
        return (
            f"Pot limit: a bet is at least {config.small_bet} and at most the pot; a raise "
            "is at least the last bet or raise and at most the pot once the bet is called."
        )

    def problems(self, small_bet: int, big_bet: int) -> list[str]:
        return []  # the big bet is unused


class NoLimit(PotLimit):
    """No limit: as pot limit, but a bet or raise may be the whole stack."""

    code = "no"
    name = "No limit"
    words = "No Limit"

    def targets(self, state: HandState, player: int) -> Targets:
        low = wager_base(state) + least_raise(state)
        return Targets(low, max(low, state.bets[player] + state.stacks[player]))

    def describe(self, config: GameConfig) -> str:
        return f"no limit, minimum bet {config.small_bet}"

    def plays(self, config: GameConfig) -> str:
        return (
            f"No limit: a bet is at least {config.small_bet} and a raise at least the last "
            "bet or raise, up to all the chips a player has on the table."
        )
