"""Benchmark our stud rules engine against pokerkit, side by side.

Our engine plays random six-handed hands of every game in every betting
structure; pokerkit plays the same number of each one it can: fixed-limit
stud, razz and stud hi-lo, and pot- and no-limit stud and razz (built from
pokerkit's stud in tests/rules/pokerkit_hands.py). Both get the same stakes,
the same per-hand starting stacks and the same random policy, and the script
prints hands per second and microseconds per player action for each, then
one row per game and structure with the ratio. pokerkit is a benchmark-only
dependency (the ``bench`` extra).

    python bench/engine.py [--hands N] [--seed S] [--games stud,razz,stud8,london,mississippi]
                           [--structures fixed,spread,pot,no]

Only the play loop is timed: state creation plus every player decision. Stacks
are drawn before the clock starts. Dealing, antes, bet collection and showdown
happen inside the timed loop for both engines, automatically in pokerkit's case.
The engines take turns every 50 hands, so that a slower minute on the machine
slows both.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

import pokerkit  # noqa: E402

from tests.rules.pokerkit_hands import STRUCTURED_GAMES, structured_game  # noqa: E402

SEATS = 6
ANTE = 1
BRING_IN = 2
# Fixed limit 5/10, a 5-10 spread, and a least bet of 5 at pot and no limit.
SMALL_BET = 5
BIG_BET = 10
# Short stacks next to deep ones so that all-ins and side pots are exercised.
MIN_STACK = 20
MAX_STACK = 300
# A stud hand has a few dozen decisions at most (uncapped raising ends when
# the stacks do); far more means a bug in an engine or its adapter, and an
# error beats a benchmark that hangs.
MAX_ACTIONS_PER_HAND = 500
GAMES = ("stud", "razz", "stud8", "london", "mississippi")
STRUCTURES = ("fixed", "spread", "pot", "no")
# Both engines build lookup tables and caches on first use; that is not play.
WARM_UP_HANDS = 200
# Hands per turn when the engines take turns (see run).
CHUNK = 50

# One legal choice as the policy sees it: (engine's own kind, min amount, max amount).
Option = tuple[str, int | None, int | None]
# Plays one hand from the given starting stacks; returns (actions, final stacks).
PlayHand = Callable[[list[int], random.Random], tuple[int, list[int]]]


@dataclass(frozen=True)
class Result:
    engine: str
    game: str
    structure: str
    hands: int
    actions: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def micros_per_action(self) -> float:
        return self.seconds * 1e6 / self.actions


def choose(rng: random.Random, options: Sequence[Option]) -> tuple[str, int | None]:
    """The shared random policy: a uniform pick among the legal kinds.

    Each adapter passes exactly one option per kind (fold, check/call, bring-in,
    complete/bet/raise), so both engines face the same distribution. A sized
    action takes its min or max with equal chance when the two differ.
    """
    option = rng.choice(options)
    kind, low, high = option[0], option[1], option[2]
    if low is None or low == high:
        return kind, low
    return kind, rng.choice((low, high))


def make_ours(game: str, structure: str) -> PlayHand:
    """Our engine's adapter; every name from ``tables.rules`` is used only here.

    Raises ImportError while the engine is not there yet.
    """
    from tables.rules import GameConfig, HandState

    config = GameConfig(
        variant=game,
        structure=structure,
        ante=ANTE,
        bring_in=BRING_IN,
        small_bet=SMALL_BET,
        big_bet=BIG_BET,
    )

    def play(stacks: list[int], rng: random.Random) -> tuple[int, list[int]]:
        state = HandState.new(config, stacks=stacks)
        actions = 0
        while not state.finished:
            # LegalAction is already a (kind, min, max, ...) tuple, and like pokerkit
            # the engine offers a fold only to a player facing a bet.
            kind, amount = choose(rng, state.legal_actions())
            state.act(state.to_act, kind, amount)
            actions = _count(actions)
        return actions, list(state.stacks)

    return play


def make_pokerkit(game: str, structure: str) -> PlayHand | None:
    """pokerkit's adapter, where pokerkit plays the game: automations do
    everything but the players' decisions."""
    if (game, structure) not in STRUCTURED_GAMES:
        return None
    automation = pokerkit.Automation
    automations = (
        automation.ANTE_POSTING,
        automation.BET_COLLECTION,
        automation.BLIND_OR_STRADDLE_POSTING,
        automation.CARD_BURNING,
        automation.HOLE_DEALING,
        automation.BOARD_DEALING,
        automation.RUNOUT_COUNT_SELECTION,
        automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        automation.HAND_KILLING,
        automation.CHIPS_PUSHING,
        automation.CHIPS_PULLING,
    )
    # Uniform antes want ante trimming on, as pokerkit's docs advise.
    definition = structured_game(
        game,
        structure,
        automations,
        ante=ANTE,
        bring_in=BRING_IN,
        small_bet=SMALL_BET,
        big_bet=BIG_BET,
        ante_trimming=True,
    )

    def play(stacks: list[int], rng: random.Random) -> tuple[int, list[int]]:
        state = definition(stacks, SEATS)
        actions = 0
        while state.status:
            if state.actor_index is None:
                raise RuntimeError("pokerkit waits on a step no automation covers")
            _pokerkit_act(state, rng)
            actions = _count(actions)
        return actions, list(state.stacks)

    return play


def _pokerkit_act(state: pokerkit.State, rng: random.Random) -> None:
    """Offer the policy one option per legal kind, then apply its pick."""
    options: list[Option] = []
    # In pokerkit's default tournament mode can_fold() is false unless facing a bet.
    if state.can_fold():
        options.append(("fold", None, None))
    if state.can_check_or_call():
        options.append(("check_or_call", None, None))
    if state.can_post_bring_in():
        options.append(("bring_in", None, None))
    if state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        options.append(("raise", low, high))
    kind, amount = choose(rng, options)
    if kind == "fold":
        state.fold()
    elif kind == "check_or_call":
        state.check_or_call()
    elif kind == "bring_in":
        state.post_bring_in()
    else:
        state.complete_bet_or_raise_to(amount)


def _count(actions: int) -> int:
    if actions >= MAX_ACTIONS_PER_HAND:
        raise RuntimeError(f"a hand ran past {MAX_ACTIONS_PER_HAND} actions")
    return actions + 1


def draw_stacks(hands: int, seed: int) -> list[list[int]]:
    # Its own generator, so both engines get the same stacks for hand i.
    rng = random.Random(f"{seed}:stacks")
    return [[rng.randint(MIN_STACK, MAX_STACK) for _ in range(SEATS)] for _ in range(hands)]


def run(
    game: str, structure: str, plays: dict[str, PlayHand], stacks: list[list[int]], seed: int
) -> list[Result]:
    """Time each engine over every hand, then check that no chip was made or lost.

    The engines take turns every CHUNK hands, so that anything slowing the
    machine for a while slows both alike: whole runs of one engine drifted by
    half here from one minute to the next. Each engine has its own policy
    generator, seeded alike, so each sees the same stream of choices.
    """
    for play in plays.values():  # fill each engine's caches, untimed
        warm = random.Random(f"{seed}:warm-up")
        for hand_stacks in stacks[:WARM_UP_HANDS]:
            play(list(hand_stacks), warm)
    rngs = {engine: random.Random(seed) for engine in plays}
    seconds = dict.fromkeys(plays, 0.0)
    actions = dict.fromkeys(plays, 0)
    finals: dict[str, list[list[int]]] = {engine: [] for engine in plays}
    for start in range(0, len(stacks), CHUNK):
        chunk = stacks[start : start + CHUNK]
        for engine, play in plays.items():
            began = time.perf_counter()
            for hand_stacks in chunk:
                # A copy, in case an engine keeps and mutates the list it is given.
                count, final = play(list(hand_stacks), rngs[engine])
                actions[engine] += count
                finals[engine].append(final)
            seconds[engine] += time.perf_counter() - began
    for engine in plays:
        for before, after in zip(stacks, finals[engine], strict=True):
            if sum(before) != sum(after):
                raise RuntimeError(
                    f"{engine} {game} {structure}: chips {sum(before)} became {sum(after)}"
                )
    return [Result(e, game, structure, len(stacks), actions[e], seconds[e]) for e in plays]


def load_ours(games: Sequence[tuple[str, str]]) -> dict[tuple[str, str], PlayHand]:
    """Our adapter per game and structure, or none while ``tables.rules`` cannot be imported."""
    try:
        return {(game, structure): make_ours(game, structure) for game, structure in games}
    except ImportError as exc:
        print(f"note: our engine is not importable yet ({exc}); benchmarking pokerkit only")
        return {}


def pokerkit_version() -> str:
    try:
        return importlib.metadata.version("pokerkit")
    except importlib.metadata.PackageNotFoundError:
        return "(unknown version)"


def print_table(results: Sequence[Result]) -> None:
    header = f"{'game':<6} {'struct':<6} {'engine':<9} {'hands':>7} {'actions':>9} {'seconds':>8}"
    print(f"{header} {'hands/s':>9} {'µs/action':>10}")
    for r in results:
        row = (
            f"{r.game:<6} {r.structure:<6} {r.engine:<9} {r.hands:>7} {r.actions:>9} "
            f"{r.seconds:>8.3f}"
        )
        print(f"{row} {r.hands_per_second:>9.0f} {r.micros_per_action:>10.1f}")


def print_ratios(results: Sequence[Result]) -> None:
    """One row per game and structure, as a Markdown table (bench/README.md's)."""
    by_game: dict[tuple[str, str], dict[str, Result]] = {}
    for r in results:
        by_game.setdefault((r.game, r.structure), {})[r.engine] = r
    print("| game | structure | ours hands/s | pokerkit hands/s | ratio |")
    print("|---|---|---|---|---|")
    for (game, structure), engines in by_game.items():
        row = ratio_row(engines.get("ours"), engines.get("pokerkit"))
        print(f"| {game} | {structure} | {row} |")


def ratio_row(ours: Result | None, theirs: Result | None) -> str:
    cells = [f"{r.hands_per_second:.0f}" if r else "n/a" for r in (ours, theirs)]
    ratio = f"{ours.hands_per_second / theirs.hands_per_second:.1f}x" if ours and theirs else "n/a"
    return " | ".join([*cells, ratio])


def parse_choices(allowed: Sequence[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        chosen = [c.strip() for c in text.split(",") if c.strip()]
        unknown = sorted(set(chosen) - set(allowed))
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(f"choose from {','.join(allowed)}; got {text!r}")
        return chosen

    return parse


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=2000, help="hands per game, structure and engine"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for stacks and the policy")
    parser.add_argument(
        "--games", type=parse_choices(GAMES), default=list(GAMES), help=",".join(GAMES)
    )
    parser.add_argument(
        "--structures",
        type=parse_choices(STRUCTURES),
        default=list(STRUCTURES),
        help=",".join(STRUCTURES),
    )
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    print(
        f"{args.hands} hands per game, structure and engine, seed {args.seed}, "
        f"pokerkit {pokerkit_version()}"
    )
    stacks = draw_stacks(args.hands, args.seed)
    games = [(game, structure) for game in args.games for structure in args.structures]
    ours_by_game = load_ours(games)
    results: list[Result] = []
    for game, structure in games:
        plays: dict[str, PlayHand] = {}
        if (game, structure) in ours_by_game:
            plays["ours"] = ours_by_game[game, structure]
        theirs = make_pokerkit(game, structure)
        if theirs is not None:
            plays["pokerkit"] = theirs
        if plays:
            results += run(game, structure, plays, stacks, args.seed)
    print_table(results)
    print()
    print_ratios(results)


if __name__ == "__main__":
    main()
