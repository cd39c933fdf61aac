"""Benchmark the hand evaluator of ``tables.rules``, natural against wild cards.

    python bench/evaluator.py [--hands N] [--repeats R] [--seed S]

Every row times one :class:`tables.rules.evaluators.Evaluator` call on the same
N random seven-card hands (a seeded ``random.Random``, so runs repeat), each
hand with its own mask of wild cards:

- **high key**: ``high_key`` with no wild cards, with each wild game's mask
  (most hands of a game hold none of its wild cards, or one), and with
  exactly 1 to 4 of the hand's own cards made wild;
- **ace-to-five and ace-to-six low keys**: ``low_key`` with no wild cards and
  with exactly 1 or 2;
- **showdown**: what the engine does per shown hand: the high key, the hand's
  name (``high_name``) and its five cards (``high_cards``, for the odd chip),
  with no wild cards and in deuces wild, then again for only those of the
  hands that hold a deuce, and Aces, Straights and Flushes' six cards and
  the bug (the first six of each hand). The goal: a wild showdown costs no
  more than 10 natural ones.

A row's time is the median over R rounds of a batch of N calls, in
microseconds per hand, loop included; "wild/hand" is the mean count of wild
cards the hands hold. The rows take turns within each round,
so that a slow moment of the machine slows them alike, after one untimed
round that fills the evaluator's caches. The ratio compares a row with the
first, natural, row of its section.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

from tables.rules.evaluators import ACE_TO_FIVE, ACE_TO_SIX, Evaluator  # noqa: E402
from tables.rules.evaluators.bug import _bug_card  # noqa: E402
from tables.rules.evaluators.wild import wild_mask  # noqa: E402
from tables.rules.variants import VARIANTS  # noqa: E402

WILD_GAMES = ("deuces", "acey_ducey", "one_eyed_jacks", "suicide_king")
GOAL = 10  # a wild showdown should cost at most this many natural ones
bug_card_cache_clear = _bug_card.cache_clear

Hand = tuple[tuple[int, ...], int]  # seven cards, and the mask of the wild ones
Call = Callable[[tuple[int, ...], int], object]


@dataclass(frozen=True)
class Case:
    section: str
    label: str
    call: Call
    hands: list[Hand]

    @property
    def wild_per_hand(self) -> float:
        return sum((mask >> c & 1) for cards, mask in self.hands for c in cards) / len(self.hands)


def showdown(evaluator: Evaluator) -> Call:
    """One shown hand at a showdown, as the engine values and names it."""

    def call(cards: tuple[int, ...], wild: int) -> object:
        key = evaluator.high_key(cards, wild)
        assert key is not None  # a high evaluator
        evaluator.high_name(cards, key, wild)
        return evaluator.high_cards(cards, wild)

    return call


def fresh_bug(call: Call) -> Call:
    """A showdown with the bug, its hand's card for the bug not yet found:
    the rounds repeat the same hands, and a showdown finds it once per hand."""

    def fresh(cards: tuple[int, ...], wild: int) -> object:
        bug_card_cache_clear()
        return call(cards, wild)

    return fresh


def cases(count: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    deals = [tuple(rng.sample(range(52), 7)) for _ in range(count)]

    def game(mask: int) -> list[Hand]:
        return [(cards, mask) for cards in deals]

    def forced(wilds: int) -> list[Hand]:
        # Its own generator per count, so one row's hands don't depend on another's.
        pick = random.Random(f"{seed}:{wilds} wild")
        return [(cards, wild_mask(pick.sample(cards, wilds))) for cards in deals]

    high = Evaluator(high=True)
    out = [Case("high key", "natural", high.high_key, game(0))]
    out += [Case("high key", name, high.high_key, game(VARIANTS[name].wild)) for name in WILD_GAMES]
    out += [Case("high key", f"{k} wild", high.high_key, forced(k)) for k in (1, 2, 3, 4)]
    for low in (ACE_TO_FIVE, ACE_TO_SIX):
        key = Evaluator(high=False, low=low).low_key
        out.append(Case(f"{low} low key", "natural", key, game(0)))
        out += [Case(f"{low} low key", f"{k} wild", key, forced(k)) for k in (1, 2)]
    out.append(Case("showdown", "natural", showdown(high), game(0)))
    deuces = VARIANTS["deuces"].wild
    out.append(Case("showdown", "deuces", showdown(high), game(deuces)))
    # The same, only the hands that hold a deuce: what a wild card itself costs.
    held = [(cards, deuces) for cards in deals if wild_mask(cards) & deuces]
    out.append(Case("showdown", "deuces, holding one or more", showdown(high), held))
    bug = Evaluator(high=True, bug=True)
    six = [(cards[:6], 0) for cards in deals]
    out.append(Case("showdown", "six cards and the bug", fresh_bug(showdown(bug)), six))
    return out


def batch_ns(case: Case) -> int:
    call, hands = case.call, case.hands
    began = time.perf_counter_ns()
    for cards, wild in hands:
        call(cards, wild)
    return time.perf_counter_ns() - began


def measure(all_cases: Sequence[Case], repeats: int) -> list[float]:
    """Microseconds per hand for each case: the median of its rounds."""
    for case in all_cases:
        batch_ns(case)  # untimed: fills the caches
    rounds: list[list[int]] = [[] for _ in all_cases]
    for _ in range(repeats):
        for times, case in zip(rounds, all_cases, strict=True):
            times.append(batch_ns(case))
    return [
        statistics.median(times) / len(case.hands) / 1000
        for times, case in zip(rounds, all_cases, strict=True)
    ]


def print_table(all_cases: Sequence[Case], micros: Sequence[float]) -> list[float]:
    """The table, one section after another; returns the ratios of the last section."""
    print(f"{'':<29} {'wild/hand':>9} {'µs/hand':>8} {'×natural':>8}")
    natural, ratios = 0.0, []
    for case, us in zip(all_cases, micros, strict=True):
        if case.label == "natural":
            natural, ratios = us, []
            print(case.section)
        ratio = us / natural
        ratios.append(ratio)
        print(f"  {case.label:<27} {case.wild_per_hand:>9.2f} {us:>8.2f} {ratio:>8.2f}")
    return ratios  # the showdown's rows after the natural one


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per batch")
    parser.add_argument("--repeats", type=int, default=5, help="timed batches per row")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{args.hands} seven-card hands, median of {args.repeats} rounds, seed {args.seed}"
    )
    all_cases = cases(args.hands, args.seed)
    _, every, held, bug = print_table(all_cases, measure(all_cases, args.repeats))
    verdict = "within" if max(every, held, bug) <= GOAL else "OVER"
    print(
        f"\nshowdown, deuces wild: {every:.1f}× natural, {held:.1f}× for hands holding a deuce; "
        f"with the bug {bug:.1f}× ({verdict} the goal of {GOAL}×)"
    )


if __name__ == "__main__":
    main()
