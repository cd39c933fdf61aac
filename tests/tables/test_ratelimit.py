"""The websockets' token bucket, on a clock the test moves by hand."""

from __future__ import annotations

from tables.ratelimit import RateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_up_to_the_limit_is_allowed_and_the_next_refused() -> None:
    limit = RateLimit(3, 10, clock=Clock())
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]


def test_the_bucket_refills_at_the_limit_per_window() -> None:
    clock = Clock()
    limit = RateLimit(2, 10, clock=clock)
    assert [limit.allow(), limit.allow(), limit.allow()] == [True, True, False]
    clock.now = 5.0  # half the window: one message's worth
    assert [limit.allow(), limit.allow()] == [True, False]


def test_a_long_pause_refills_no_more_than_the_limit() -> None:
    clock = Clock()
    limit = RateLimit(2, 10, clock=clock)
    clock.now = 3600.0
    assert [limit.allow() for _ in range(3)] == [True, True, False]


def test_refused_messages_take_nothing_from_the_bucket() -> None:
    clock = Clock()
    limit = RateLimit(1, 10, clock=clock)
    assert limit.allow()
    assert not any(limit.allow() for _ in range(100))  # a flood, all refused
    clock.now = 10.0
    assert limit.allow()


def test_it_describes_itself_for_error_messages() -> None:
    assert RateLimit(5, 10).describe() == "5 every 10 seconds"
