"""Benchmark replaying PHH files: our reader against pokerkit's, on the same files.

    python bench/replay.py [--hands N] [--rounds R]

The files are N random stud, razz and stud hi-lo hands that pokerkit plays
and writes with its own PHH writer (tests/rules/pokerkit_hands.py), plus the
televised WSOP hands of tests/rules/phh/wsop/. Only files that both engines
replay to the same finishing stacks are kept, so both do the same work.

Each engine replays every file from its text: parse the TOML, check the
fields, build the hand and apply every action to the end. Making the files
and importing the engines is outside the clock, and each engine replays the
whole set once untimed first, to fill its caches. The engines take turns
every 50 files, and each engine's best of R timed rounds counts, as other
load on the machine only ever slows a round down.
"""

from __future__ import annotations

import argparse
import collections
import importlib.metadata
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

import pokerkit  # noqa: E402

from tables.rules.formats.phh import read_phh, read_phhs, replay, write_phh  # noqa: E402
from tests.rules.pokerkit_hands import GAMES, pokerkit_hand  # noqa: E402

WSOP = ROOT / "tests" / "rules" / "phh" / "wsop"

# Files per turn when the engines take turns (see interleaved_seconds).
CHUNK = 50
# Replays one file's text and returns the finishing stacks.
Replayer = Callable[[str], list[int]]


def ours(text: str) -> list[int]:
    return replay(read_phh(text)).stacks


def theirs(text: str) -> list[int]:
    history = pokerkit.HandHistory.loads(text)
    *_, state = history  # one State object, advanced an action at a time
    return list(state.stacks)


REPLAYERS: dict[str, Replayer] = {"ours": ours, "pokerkit": theirs}


def corpus(hands: int) -> list[str]:
    """The files both engines replay alike: pokerkit's random hands and the WSOP ones."""
    games = list(GAMES)
    texts = [pokerkit_hand(seed, game=games[seed % len(games)]).text for seed in range(hands)]
    for path in sorted(WSOP.glob("*.phhs")):
        texts += [write_phh(replay(h)) for h in read_phhs(path.read_text(encoding="utf-8"))]
    return [text for text in texts if _alike(text)]


def _alike(text: str) -> bool:
    try:
        return ours(text) == theirs(text)
    except ValueError:  # PHHError, or pokerkit refusing a file
        return False


def interleaved_seconds(texts: Sequence[str], rounds: int) -> dict[str, float]:
    """Each engine's total time, taking turns, best of ``rounds`` per engine.

    The engines take turns every CHUNK files, so that anything else slowing
    the machine for a while slows both alike (whole runs of the same work
    drifted by a third here); a chunk keeps each engine's code and tables
    warm in the processor's caches, as a run of replays would.
    """
    for text in texts:  # untimed: caches, lookup tables
        for replayer in REPLAYERS.values():
            replayer(text)
    best = dict.fromkeys(REPLAYERS, float("inf"))
    clock = time.perf_counter
    chunks = [texts[i : i + CHUNK] for i in range(0, len(texts), CHUNK)]
    for _ in range(rounds):
        spent = dict.fromkeys(REPLAYERS, 0.0)
        for chunk in chunks:
            for name, replayer in REPLAYERS.items():
                start = clock()
                for text in chunk:
                    replayer(text)
                spent[name] += clock() - start
        best = {name: min(best[name], spent[name]) for name in REPLAYERS}
    return best


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="random pokerkit hands")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds; the best counts")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        parser.error("--hands and --rounds must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    # pokerkit warns when it deals mucked cards again; the corpus has such hands.
    warnings.simplefilter("ignore", UserWarning)
    texts = corpus(args.hands)
    histories = [read_phh(text) for text in texts]
    variants = collections.Counter(history.fields["variant"] for history in histories)
    actions = sum(len(history.actions) for history in histories)
    print(
        f"{len(texts)} files ({dict(variants)}), {actions} actions; "
        f"pokerkit {importlib.metadata.version('pokerkit')}, best of {args.rounds} rounds"
    )
    results = interleaved_seconds(texts, args.rounds)
    print(f"{'engine':<9} {'seconds':>8} {'hands/s':>9} {'µs/action':>10}")
    for name, seconds in results.items():
        rate, per_action = len(texts) / seconds, seconds * 1e6 / actions
        print(f"{name:<9} {seconds:>8.3f} {rate:>9.0f} {per_action:>10.1f}")
    print(f"replay: ours {results['pokerkit'] / results['ours']:.1f}x pokerkit's hands per second")


if __name__ == "__main__":
    main()
