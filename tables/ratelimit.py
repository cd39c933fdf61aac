"""Per-connection rate limits for the websockets: a token bucket, with no Django in it."""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimit:
    """At most ``limit`` messages at once, and ``limit`` more every ``window`` seconds.

    A bucket of ``limit`` tokens that refills continuously at ``limit`` per
    ``window``; each allowed message takes one. A refused message takes none,
    so a client that stops flooding is let in again as the bucket refills.
    ``clock`` is for tests.

    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.tokens = float(limit)
        self.updated = clock()

    def allow(self) -> bool:
        """Take a token if there is one; whether the message may go on."""
        now = self.clock()
        refill = (now - self.updated) * self.limit / self.window
        self.tokens, self.updated = min(self.limit, self.tokens + refill), now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def describe(self) -> str:
        """``"5 every 10 seconds"``, for error messages."""
        return f"{self.limit} every {self.window:g} seconds"
