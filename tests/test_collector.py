"""The garbage collector on a clock (cardroom/collector.py), in this very process."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardroom.collector import YOUNG_THRESHOLD, collect_on_a_clock


class Cycle:
    """An object only the collector can free: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


class Passes:
    """The collector's passes that one thread started, by generation."""

    def __init__(self) -> None:
        self.generations: list[int] = []
        self.thread: threading.Thread | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and threading.current_thread() is self.thread:
            self.generations.append(info["generation"])


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """Thresholds of our own, which no clock sets, put back as they were after."""
    before = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    yield gc.get_threshold()
    gc.set_threshold(*before)


@pytest.fixture
def clock_passes(thresholds: tuple[int, int, int]) -> Iterator[Callable[..., Passes]]:
    """Start a clock; return the passes its own thread makes (not another clock's:
    a test process that has imported cardroom.asgi runs one of its own)."""
    stops: list[Callable[[], None]] = []
    passes = Passes()
    gc.callbacks.append(passes)

    def start(**seconds: float) -> Passes:
        before = set(threading.enumerate())
        stops.append(collect_on_a_clock(**seconds))
        (passes.thread,) = set(threading.enumerate()) - before
        return passes

    yield start
    gc.callbacks.remove(passes)
    for stop in stops:
        stop()


def promoted_cycle() -> weakref.ref[Cycle]:
    """A cycle that has outlived a young pass, and is now garbage."""
    cycle = Cycle()
    gc.collect(0)  # it survives, into the next generation
    return weakref.ref(cycle)


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_the_counts_start_young_passes_only(clock_passes: Callable[..., Passes]) -> None:
    clock_passes(full_pass_seconds=3600)
    young, middle, full = gc.get_threshold()
    assert young == YOUNG_THRESHOLD
    assert middle > 10**9 and full > 10**9


def test_the_clock_collects_the_young_generation_often(
    clock_passes: Callable[..., Passes],
) -> None:
    passes = clock_passes(full_pass_seconds=3600, young_pass_seconds=0.02)
    assert wait_for(lambda: len(passes.generations) >= 5)
    assert set(passes.generations) == {0}


def test_a_young_pass_frees_a_cycle_made_since_the_last(
    clock_passes: Callable[..., Passes],
) -> None:
    clock_passes(full_pass_seconds=3600, young_pass_seconds=0.02)
    cycle = weakref.ref(Cycle())
    assert wait_for(lambda: cycle() is None)


def test_an_older_cycle_waits_for_the_full_pass(clock_passes: Callable[..., Passes]) -> None:
    passes = clock_passes(full_pass_seconds=3600, young_pass_seconds=0.02)
    cycle = promoted_cycle()
    assert wait_for(lambda: len(passes.generations) >= 5)
    assert cycle() is not None


def test_the_full_pass_frees_an_older_cycle(clock_passes: Callable[..., Passes]) -> None:
    passes = clock_passes(full_pass_seconds=0.2, young_pass_seconds=0.02)
    cycle = promoted_cycle()
    assert wait_for(lambda: cycle() is None)
    assert 2 in passes.generations


def test_stopping_the_clock_ends_its_passes_and_gives_the_thresholds_back(
    thresholds: tuple[int, int, int],
) -> None:
    before = set(threading.enumerate())
    stop = collect_on_a_clock(full_pass_seconds=3600, young_pass_seconds=0.02)
    (clock,) = set(threading.enumerate()) - before
    stop()
    assert not clock.is_alive()
    assert gc.get_threshold() == thresholds
