"""Python's garbage collector in a server process: passes on a clock, a few ms each.

A Daphne process is one event loop for every table it serves, so while the
collector walks the heap every one of those tables waits. Left to its counts,
the collector did that for a long time at once (bench/README.md, "Where 300
tables' tail comes from"):

- Its young passes start when allocations outrun frees by a threshold, and
  every freed object counts, old ones too. In steady play the old die as fast
  as the new are made (a hand's state replaced, a change's rows dropped), so
  the count hardly moves: passes came every few seconds, over 60,000 to
  137,000 young objects, and stopped the process for up to 100 ms.
- What a young pass leaves is walked again by every middle and full pass,
  which took 200 to 350 ms.

So a server process collects on a clock instead (:func:`collect_on_a_clock`):

- The young generation every :data:`YOUNG_PASS_SECONDS`, a few ms each; the
  count still starts one sooner if allocations run far ahead.
- Nothing older is walked on the counts. What survives a young pass is freed by
  its reference count when it goes, like nearly everything else.
- What only the collector frees, reference cycles that outlived a young pass
  (the rows around a hand that just ended), waits for the full pass every
  ``GC_FULL_PASS_SECONDS`` (five minutes unless set; docs/deploy.md). That one
  pause is as long as before, once in minutes instead of every few seconds.

Call ``gc.freeze()`` before the clock starts, once what the process loads at
start-up is loaded: the full passes then leave it alone.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from time import monotonic

YOUNG_PASS_SECONDS = 0.1
# A young pass starts early past this many more allocations than frees.
YOUNG_THRESHOLD = 20_000
# Counts the older generations never reach: the clock collects them.
_NEVER = 2**30


def collect_on_a_clock(
    *, full_pass_seconds: float, young_pass_seconds: float = YOUNG_PASS_SECONDS
) -> Callable[[], None]:
    """Collect the young generation every ``young_pass_seconds`` and everything
    every ``full_pass_seconds``, from a thread of its own; return what stops it
    and gives the collector back its thresholds."""
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, _NEVER, _NEVER)
    stopped = threading.Event()
    clock = threading.Thread(
        target=_passes,
        args=(stopped, young_pass_seconds, full_pass_seconds),
        name="gc-clock",
        daemon=True,
    )
    clock.start()

    def stop() -> None:
        stopped.set()
        clock.join()
        gc.set_threshold(*thresholds)

    return stop


def _passes(stopped: threading.Event, young_every: float, full_every: float) -> None:
    full_due = monotonic() + full_every
    while not stopped.wait(young_every):
        if monotonic() < full_due:
            gc.collect(0)
        else:
            gc.collect()
            full_due = monotonic() + full_every
