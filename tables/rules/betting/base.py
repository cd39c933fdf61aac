"""What every betting structure answers, and the sizes they share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from tables.rules.variants.steps import Bet, Deal, Step

if TYPE_CHECKING:
    from tables.rules.config import GameConfig
    from tables.rules.state import HandState


class Targets(NamedTuple):
    """The street totals a full wager may go to: ``low`` to ``high``, and
    ``exact`` lists them where the structure allows only some (fixed limit)."""

    low: int
    high: int
    exact: tuple[int, ...] | None = None


class Structure(Protocol):
    code: str  # stored in configs and on stakes: "fixed", "spread", "pot", "no"
    name: str  # "Fixed limit"
    words: str  # how PokerStars-style text names it: "Limit", "Pot Limit"
    open_pair: bool  # whether an open pair on 4th street may allow the big bet
    # The stakes size that is one whole bet at its biggest, and its name: what a
    # table's minimum buy-in must cover ("big_bet", "a big bet").
    one_bet: tuple[str, str]

    def targets(self, state: HandState, player: int) -> Targets:
        """The totals a full complete, bet or raise by ``player`` may go to."""
        ...

    def is_full(self, state: HandState, total: int) -> bool:
        """Whether raising the street to ``total`` is a full wager (reopens the betting)."""
        ...

    def capped(self, state: HandState) -> bool:
        """Whether the round has had all the wagers it may have."""
        ...

    def reopened(self, state: HandState, player: int) -> bool:
        """Whether ``player`` may wager now: not yet acted this round, or the
        betting reopened to them since they did."""
        ...

    def describe(self, config: GameConfig) -> str:
        """The bet sizes in words: "2/4", "spread 5-20", "pot limit, minimum bet 5"."""
        ...

    def plays(self, config: GameConfig) -> str:
        """How betting goes at a table with ``config``, in a sentence or two for
        a player new to it (the table page's "How this game plays")."""
        ...

    def problems(self, small_bet: int, big_bet: int) -> list[str]:
        """What is wrong with the two sizes for this structure (empty: nothing)."""
        ...


def limit_capped(state: HandState) -> bool:
    """Fixed and spread limit: one bet and ``max_raises`` raises a round, unless
    the table lifts the cap for a round that two players started (seed 003)."""
    if state.config.heads_up_uncapped and state.round_players == 2:
        return False
    return state.wagers > state.config.max_raises


def wager_base(state: HandState) -> int:
    """What a bet or raise is measured from: the current bet once a full wager
    was made; before that (a bring-in, or an all-in short of a bet) nothing,
    so a complete goes to a full bet."""
    return state.current_bet if state.wagers else 0


def least_raise(state: HandState) -> int:
    """The smallest full raise: the minimum bet, or the last full bet or raise
    if that was bigger (seed 003; WSOP for pot and no limit)."""
    return max(state.config.small_bet, state.raise_size)


def raises_fully(state: HandState, total: int, least: int) -> bool:
    """The full-bet rule: a wager reopens the betting only if it tops the last
    full level by a whole ``least`` raise; smaller all-ins add up until one does."""
    return total - state.full_level >= least


def faces_full_raise(state: HandState, player: int, least: int) -> bool:
    """The full-bet rule for who may raise again (WSOP): a player who has
    chosen an action this round may raise only when what they now face, over
    what they matched then, is at least a full raise; short all-ins in between
    count together. A bring-in is forced, not chosen: it leaves the option."""
    matched = state.acted_bet[player]
    return matched < 0 or state.current_bet - matched >= least


def bet_rounds(script: Sequence[Step]) -> list[tuple[str, Bet]]:
    """Each betting round of a variant's script, with the street it follows.

    >>> from tables.rules.variants.steps import MISSISSIPPI_STUD
    >>> [(street, bet.size) for street, bet in bet_rounds(MISSISSIPPI_STUD)][:2]
    [('3rd street', 'small'), ('5th street', 'small')]
    """
    rounds, street = [], ""
    for step in script:
        if isinstance(step, Deal):
            street = step.street
        elif isinstance(step, Bet):
            rounds.append((street, step))
    return rounds


def at_streets(streets: Sequence[str]) -> str:
    """Where some streets' rounds are, for a sentence.

    >>> at_streets(["3rd street", "4th street"]), at_streets(["3rd round", "4th round"])
    ('on 3rd and 4th street', 'in the 3rd and 4th round')
    >>> at_streets(["5th street", "6th street", "7th street"])
    'on 5th, 6th and 7th street'
    """
    *firsts, last = (street.rpartition(" ")[0] for street in streets)
    kind = streets[0].rpartition(" ")[2]
    named = f"{', '.join(firsts)} and {last}" if firsts else last
    return f"{'on' if kind == 'street' else 'in the'} {named} {kind}"
