"""The bots' side of ``bench/load.py``: every bench table's bots in one process, measured.

``bench/load.py`` starts this as ``python bench/load_bots.py SPEC RESULTS``. SPEC
is a JSON file naming the server, the tables, each bot's session cookie, the
pace and the measurement window; RESULTS is where the figures are written as
JSON when the run is over. The bots are :class:`tables.bots.Bot` over real
websockets, exactly as ``manage.py run_bots`` plays them; only their hooks
(:class:`TableWatch`) are the benchmark's.

Per table, a :class:`TableWatch`:

- paces the moves: the bot to act waits until the table's next slot on a grid
  ``interval`` seconds apart, and at least ``min_think``, so a table makes one
  move per ``interval`` on average, catching up after the pause between hands;
- now and then (``timeout_share`` of the turns) tells the bot to leave its turn
  to the server's clock, and notes the turn's ``expires_at`` from the snapshot;
- follows each move from the moment it is handed to the socket until *every*
  bot connected to the table has received a snapshot that reflects it (its hand
  has moved past that turn): that is the move's latency. For a turn left to the
  clock, the same moment minus ``expires_at`` is the timeout's lateness.

Everything runs on one event loop, so the receive times include any time a
message waited for this process's CPU; the loop's own lag is reported too.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from cardroom.collector import collect_on_a_clock
from tables.bots import Bot, BotHooks, run_bots

# How often the loop-lag probe wakes up, in seconds.
LAG_PROBE_SECONDS = 0.1
# Longer than any run: the bots' process never walks all it holds.
BOTS_FULL_PASS_SECONDS = 24 * 3600.0
# A table's grid never runs more than this many intervals behind the clock, so
# a long stall (a timeout, a slow hand start) is followed by a short catch-up,
# not by a burst of moves.
MAX_DEBT_INTERVALS = 2


@dataclass
class Tracked:
    """A move (or a turn left to the clock) waiting to reach the whole table."""

    key: tuple[int, int]  # (hand id, turn) it answers
    sent: float  # time.monotonic() when the move left, or the turn was given up
    waiting: set[str]  # bots that have not yet seen its effect
    sender: str
    expires_at: float | None = None  # wall clock; set for turns left to the clock
    action: str = ""
    first: float | None = None  # time.monotonic() when the first bot saw its effect


@dataclass
class Figures:
    """What the whole process measured inside the window."""

    latency_ms: list[float] = field(default_factory=list)
    # Per move: (ms until the last bot saw it, ms until the first did, the action).
    moves: list[tuple[float, float, str]] = field(default_factory=list)
    # The slowest move sent in each whole second of the window (0 its first),
    # in ms: a tail spread over every second is queueing, one in a few is a stall.
    slowest_by_second: dict[int, float] = field(default_factory=dict)
    lateness_ms: list[float] = field(default_factory=list)
    moves_sent: int = 0
    timeouts_left: int = 0
    unresolved_moves: int = 0
    unresolved_timeouts: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: dict[str, str] = field(default_factory=dict)  # one message per code
    disconnects: int = 0
    loop_lag_ms: list[float] = field(default_factory=list)


@dataclass
class TableWatch(BotHooks):
    """Paces one table's bots and times how long their moves take to reach all of them."""

    figures: Figures
    window: tuple[float, float]  # wall-clock start and end of the measurement
    interval: float
    min_think: float
    timeout_share: float
    rng: random.Random
    present: set[str] = field(default_factory=set)  # the bots connected now
    tracked: list[Tracked] = field(default_factory=list)
    next_slot: float = 0.0
    closed: bool = False  # the run is over: stop tracking

    def think(self, bot: Bot, snapshot: dict[str, Any]) -> float | None:
        now = time.monotonic()
        if self.rng.random() < self.timeout_share:
            self.leave_to_clock(bot, snapshot, now)
            return None
        slot = max(self.next_slot, now - MAX_DEBT_INTERVALS * self.interval)
        self.next_slot = slot + self.interval
        return max(slot - now, self.min_think)

    def leave_to_clock(self, bot: Bot, snapshot: dict[str, Any], now: float) -> None:
        timer = snapshot["hand_info"]["timer"]
        if timer is None or timer["expires_at"] is None or not self.in_window():
            return
        expires_at = datetime.fromisoformat(timer["expires_at"]).timestamp()
        self.track(bot, (snapshot["hand_info"]["id"], snapshot["hand"]["turn"]), now, expires_at)
        self.figures.timeouts_left += 1

    def connected(self, bot: Bot) -> None:
        self.present.add(bot.name)

    def disconnected(self, bot: Bot) -> None:
        """Nobody waits for a bot that has gone: it gets a fresh snapshot when it is back."""
        self.present.discard(bot.name)
        if self.closed:
            return
        if self.in_window():
            self.figures.disconnects += 1
        self.seen(bot.name, (sys.maxsize, 0))

    def sent(self, bot: Bot, message: dict[str, Any]) -> None:
        if message["type"] == "act" and self.in_window():
            key = (message["hand"], message["turn"])
            self.track(bot, key, time.monotonic(), None, message["action"])
            self.figures.moves_sent += 1

    def track(
        self,
        bot: Bot,
        key: tuple[int, int],
        now: float,
        expires_at: float | None,
        action: str = "timeout",
    ) -> None:
        self.tracked.append(Tracked(key, now, set(self.present), bot.name, expires_at, action))

    def received(self, bot: Bot, message: dict[str, Any]) -> None:
        if message["type"] == "error":
            self.refused(bot, message)
        elif message["type"] == "snapshot" and message["hand_info"] is not None:
            self.seen(bot.name, (message["hand_info"]["id"], message["hand"]["turn"]))

    def seen(self, name: str, key: tuple[int, int]) -> None:
        """``name`` has a snapshot at ``key``: it has seen every move of an earlier turn."""
        if self.closed:
            return
        now = time.monotonic()
        for item in [item for item in self.tracked if item.key < key]:
            item.waiting.discard(name)
            item.first = item.first or now
            if not item.waiting:
                self.resolve(item, now)

    def resolve(self, item: Tracked, now: float) -> None:
        self.tracked.remove(item)
        if item.expires_at is None:
            latency = (now - item.sent) * 1000
            self.figures.latency_ms.append(latency)
            first = ((item.first or now) - item.sent) * 1000
            self.figures.moves.append((latency, first, item.action))
            second = int(time.time() - latency / 1000 - self.window[0])
            slowest = self.figures.slowest_by_second
            slowest[second] = max(latency, slowest.get(second, 0.0))
        else:
            self.figures.lateness_ms.append((time.time() - item.expires_at) * 1000)

    def refused(self, bot: Bot, message: dict[str, Any]) -> None:
        """A refused move changes nothing, so nobody will see it: stop waiting for it."""
        if self.in_window():
            self.figures.errors[message["code"]] += 1
            self.figures.error_examples.setdefault(message["code"], message["message"])
        mine = [
            item for item in self.tracked if item.sender == bot.name and item.expires_at is None
        ]
        if mine:
            self.tracked.remove(mine[-1])
            self.figures.moves_sent -= 1

    def in_window(self) -> bool:
        return self.window[0] <= time.time() < self.window[1]

    def close(self) -> None:
        """Count what never reached everyone, and stop tracking."""
        self.closed = True
        for item in self.tracked:
            if item.expires_at is None:
                self.figures.unresolved_moves += 1
            else:
                self.figures.unresolved_timeouts += 1


async def probe_loop_lag(figures: Figures, window: tuple[float, float]) -> None:
    """How late this process's event loop wakes up: time its messages wait for the CPU."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(LAG_PROBE_SECONDS)
        late = time.monotonic() - before - LAG_PROBE_SECONDS
        if window[0] <= time.time() < window[1]:
            figures.loop_lag_ms.append(late * 1000)


def make_bots(spec: dict[str, Any], figures: Figures) -> tuple[list[Bot], list[TableWatch]]:
    rng = random.Random(spec["seed"])
    window = (spec["window_start"], spec["window_end"])
    bots, watches = [], []
    for table in spec["tables"]:
        watch = TableWatch(
            figures,
            window,
            interval=spec["interval"],
            min_think=spec["min_think"],
            timeout_share=spec["timeout_share"],
            rng=random.Random(rng.random()),
        )
        watches.append(watch)
        for name, cookie in table["bots"]:
            bots.append(
                Bot(
                    name=name,
                    cookie=cookie,
                    url=table["url"],
                    table_id=table["id"],
                    buy_in=spec["buy_in"],
                    seats=spec["seats"],
                    rng=random.Random(rng.random()),
                    hooks=watch,
                )
            )
    return bots, watches


async def play(spec: dict[str, Any]) -> Figures:
    """Start the tables' bots a few at a time, play until the window is over, then stop."""
    figures = Figures()
    bots, watches = make_bots(spec, figures)
    window = (spec["window_start"], spec["window_end"])
    probe = asyncio.create_task(probe_loop_lag(figures, window))
    per_table = len(bots) // len(spec["tables"])
    tasks = []
    for start in range(0, len(bots), per_table):
        tasks.append(asyncio.create_task(run_bots(bots[start : start + per_table])))
        await asyncio.sleep(1 / spec["tables_per_second"])
    # What the bots hold once they are all playing stays with them: the
    # collector's passes leave it alone from the window's start, as the
    # servers' leave what they load at start-up.
    await asyncio.sleep(max(0.0, spec["window_start"] - time.time()))
    gc.freeze()
    # The drain lets moves made just before the window closed reach everyone.
    await asyncio.sleep(max(0.0, spec["window_end"] + spec["drain"] - time.time()))
    for watch in watches:
        watch.close()
    probe.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(probe, *tasks, return_exceptions=True)
    return figures


def main() -> int:
    spec_path, results_path = map(Path, sys.argv[1:3])
    spec = json.loads(spec_path.read_text())
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    # The bots' process collects as a server does (cardroom.collector), so that
    # its own pauses, up to 70 ms when left to the counts, are not counted
    # as the server's latency. Its life is one run: no full pass is due.
    collect_on_a_clock(full_pass_seconds=BOTS_FULL_PASS_SECONDS)
    figures = asyncio.run(play(spec))
    results = {**figures.__dict__, "errors": dict(figures.errors)}
    results_path.write_text(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
