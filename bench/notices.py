"""A change notice sent from sync code, as a Celery worker's task sends one: CPU per notice.

    REDIS_URL=redis://127.0.0.1:6379/0 python bench/notices.py [--notices 500]

Each notice is ``tables.broadcast.announce_changed`` for a table nobody
watches, sent through ``tables.broadcast.deliver`` from this process's main
thread, which has no event loop: first as ``async_to_sync`` runs it (a new
event loop, and a new connection of the channel layer's to Redis, for each
notice), then on ``tables.broadcast.NOTICE_LOOP``, as a worker sends them. It
prints this process's CPU time (user and system) and the wall time per
notice, each way. Redis's own work is not counted. The channel layer is the
project's, on ``REDIS_URL``, under a key prefix of the run's own.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, only bench/ is on the path

TABLE = 2**31 - 1  # no table has this id: nobody hears the notices


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notices", type=int, default=500, help="notices sent each way (500)")
    return parser.parse_args(argv)


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def per_notice(notices: int) -> tuple[float, float]:
    """CPU and wall ms per notice sent ``notices`` times, after one untimed."""
    from tables.broadcast import announce_changed, deliver

    deliver(announce_changed, TABLE, lobby_now=True)
    cpu, wall = cpu_seconds(), time.perf_counter()
    for _ in range(notices):
        deliver(announce_changed, TABLE, lobby_now=True)
    return (
        (cpu_seconds() - cpu) / notices * 1000,
        (time.perf_counter() - wall) / notices * 1000,
    )


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script, not in a test
        if not os.environ.get("REDIS_URL"):
            sys.exit("bench/notices.py: set REDIS_URL to the Redis to send the notices through")
        os.environ["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
        os.environ["CHANNEL_LAYER_PREFIX"] = f"bench-notices-{uuid.uuid4().hex}"
        import django

        django.setup()
    from tables import broadcast

    print(f"{'per notice':22} {'CPU ms':>8} {'wall ms':>8}")
    kept, broadcast.NOTICE_LOOP = broadcast.NOTICE_LOOP, broadcast.NoticeLoop()
    try:
        cpu, wall = per_notice(args.notices)
        print(f"{'async_to_sync':22} {cpu:8.3f} {wall:8.3f}")
        broadcast.NOTICE_LOOP.use()
        cpu, wall = per_notice(args.notices)
        print(f"{'the notice loop':22} {cpu:8.3f} {wall:8.3f}")
    finally:  # as it was, for a test that runs this in its own process
        broadcast.NOTICE_LOOP = kept


if __name__ == "__main__":
    main()
