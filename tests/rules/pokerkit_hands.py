"""Random stud, razz and stud hi-lo hands played by pokerkit and written as PHH
by pokerkit's own writer: the other side of the differential tests, and the
files of the replay benchmark (bench/replay.py).

pokerkit is a test and benchmark dependency, never a runtime one. It shuffles
and reshuffles with the ``random`` module's shared generator, so each hand is
played with that generator seeded from the hand's seed and put back after:
the same seed always gives the same file.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pokerkit

GAMES = {
    "stud": pokerkit.FixedLimitSevenCardStud,
    "razz": pokerkit.FixedLimitRazz,
    "stud8": pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
}
# Everything but the players' decisions: the dealer's steps, the showdown, the pots.
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
# What pokerkit warns when it deals the reserved (mucked, folded, burned) cards again.
RESERVED_WARNING = "Returning reserved"
# A fixed-limit stud hand has a few dozen decisions; far more is a bug somewhere.
MAX_DECISIONS = 300


@dataclass(frozen=True)
class PokerkitHand:
    seed: int
    game: str
    text: str  # the hand as pokerkit's writer puts it
    stacks: list[int]  # pokerkit's finishing stacks
    # pokerkit ran out of cards and dealt mucked or folded cards again
    reused_cards: bool


def pokerkit_hand(seed: int, *, game: str | None = None, crowded: bool = False) -> PokerkitHand:
    """One random hand; ``crowded``: eight players who never fold, so the deck runs out.

    Otherwise 2 to 8 players with short stacks (all-ins on the ante, the
    bring-in and every street) or mixed ones, and a policy that folds now and
    then, so that some hands end early and some reach the showdown.
    """
    rng = random.Random(seed)
    name = game or rng.choice(list(GAMES))
    small = rng.randint(2, 10)
    stakes = (rng.randint(0, 3), rng.randint(1, small - 1), small, 2 * small)
    players = 8 if crowded else rng.randint(2, 8)
    top = 400 if crowded else rng.choice((60, 300))
    stacks = [rng.randint(200 if crowded else 1, top) for _ in range(players)]
    folds = 0 if crowded else rng.choice((1, 3, 10))
    definition = GAMES[name](AUTOMATIONS, True, *stakes)
    with seeded_shuffles(seed), warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        state = definition(stacks, players)
        for _ in range(MAX_DECISIONS):
            if not state.status:
                break
            _decide(state, rng, folds)
        else:
            raise RuntimeError(f"pokerkit hand {seed} ran past {MAX_DECISIONS} decisions")
    text = pokerkit.HandHistory.from_game_state(definition, state).dumps()
    reused = any(RESERVED_WARNING in str(warning.message) for warning in warned)
    return PokerkitHand(seed, name, text, list(state.stacks), reused)


@contextmanager
def seeded_shuffles(seed: int) -> Iterator[None]:
    saved = random.getstate()
    random.seed(f"pokerkit deck {seed}")
    try:
        yield
    finally:
        random.setstate(saved)


def _decide(state: pokerkit.State, rng: random.Random, folds: int) -> None:
    """A random legal decision; a fold weighs 1 against ``folds`` for any other."""
    choices: list[str] = []
    if state.can_fold() and folds:
        choices.append("fold")
    other = []
    if state.can_check_or_call():
        other.append("check_or_call")
    if state.can_post_bring_in():
        other.append("bring_in")
    if state.can_complete_bet_or_raise_to():
        other.append("wager")
    choices += other * max(folds, 1)
    choice = rng.choice(choices)
    if choice == "fold":
        state.fold()
    elif choice == "check_or_call":
        state.check_or_call()
    elif choice == "bring_in":
        state.post_bring_in()
    else:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(rng.choice((low, high)))


# Pot- and no-limit stud and razz, which pokerkit has no classes for: its
# seven-card stud streets under a big-bet structure's mixin, uncapped. Build
# them through structured_game, which gives every street the small bet as its
# least bet, as our pot and no limit do.
class PotLimitSevenCardStud(pokerkit.PotLimitPokerMixin, pokerkit.SevenCardStud):
    deck = pokerkit.Deck.STANDARD
    hand_types = (pokerkit.StandardHighHand,)
    low = False


class NoLimitSevenCardStud(pokerkit.NoLimitPokerMixin, pokerkit.SevenCardStud):
    deck = pokerkit.Deck.STANDARD
    hand_types = (pokerkit.StandardHighHand,)
    low = False


class PotLimitRazz(pokerkit.PotLimitPokerMixin, pokerkit.SevenCardStud):
    deck = pokerkit.Deck.REGULAR
    hand_types = (pokerkit.RegularLowHand,)
    low = True


class NoLimitRazz(pokerkit.NoLimitPokerMixin, pokerkit.SevenCardStud):
    deck = pokerkit.Deck.REGULAR
    hand_types = (pokerkit.RegularLowHand,)
    low = True


# Every game pokerkit can play of ours, by (variant, structure).
STRUCTURED_GAMES: dict[tuple[str, str], type[pokerkit.SevenCardStud]] = {
    ("stud", "fixed"): pokerkit.FixedLimitSevenCardStud,
    ("razz", "fixed"): pokerkit.FixedLimitRazz,
    ("stud8", "fixed"): pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    ("stud", "pot"): PotLimitSevenCardStud,
    ("stud", "no"): NoLimitSevenCardStud,
    ("razz", "pot"): PotLimitRazz,
    ("razz", "no"): NoLimitRazz,
}


def structured_game(
    variant: str,
    structure: str,
    automations: tuple[pokerkit.Automation, ...],
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    ante_trimming: bool = True,
) -> pokerkit.SevenCardStud:
    """pokerkit's definition of one of our games at these stakes. Pot and no
    limit ignore ``big_bet``: the small bet is the least bet on every street."""
    largest = big_bet if structure == "fixed" else small_bet
    game = STRUCTURED_GAMES[variant, structure]
    return game(automations, ante_trimming, ante, bring_in, small_bet, largest)
