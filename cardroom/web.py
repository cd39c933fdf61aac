"""Several Daphne processes behind one port.

    python -m cardroom.web [--host 127.0.0.1] [--port 8000] [--processes N]

This opens the listening socket once, then starts N Daphne processes that all
serve it, through Daphne's own ``--fd`` (Twisted's adopted socket). Every
process accepts from the same queue in the kernel, so there is no balancer in
between: a connection goes to whichever process accepts it first. A table's
viewers can be on any of the processes. They share Redis (the channel layer)
and PostgreSQL, as docs/protocol.md describes under "How changes reach
everyone".

N is ``--processes``, else ``WEB_PROCESSES``, else :data:`DEFAULT_PROCESSES`,
the number the load figures in the README justify on a two-core machine.

The processes are supervised as ``cardroom.runner`` supervises its own: one
that exits is started again (its sockets' browsers reconnect, to any process),
and one that keeps crashing stops the rest, and this exits 1. SIGTERM or
SIGINT stops them all.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from collections.abc import Sequence

from cardroom.runner import Supervisor

DEFAULT_PROCESSES = 2
BACKLOG = 1024
APPLICATION = "cardroom.asgi:application"


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` that child processes can inherit.

    IPv4 only: Daphne's ``fd`` endpoint adopts every socket as IPv4.
    """
    if ":" in host:
        raise SystemExit(f"cardroom.web listens on IPv4 addresses only, not {host!r}")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


def daphne_argv(sock: socket.socket) -> list[str]:
    """The command of one Daphne serving the inherited ``sock``."""
    return [sys.executable, "-m", "daphne", "--fd", str(sock.fileno()), APPLICATION]


def process_count(asked: int | None) -> int:
    """``asked``, else ``WEB_PROCESSES``, else the default; at least 1."""
    if asked is not None:
        count = asked
    else:
        text = os.environ.get("WEB_PROCESSES", "").strip()
        try:
            count = int(text) if text else DEFAULT_PROCESSES
        except ValueError:
            raise SystemExit(f"WEB_PROCESSES must be a whole number, not {text!r}") from None
    if count < 1:
        raise SystemExit(f"the number of Daphne processes must be at least 1, not {count}")
    return count


def serve(host: str, port: int, count: int) -> int:
    """Run ``count`` Daphnes on ``host``:``port`` until stopped; the exit status."""
    # Said before the port opens: whoever waits for the port (the runner) then
    # prints after this line.
    print(f"cardroom.web: {count} Daphne process(es) on {host}:{port}", flush=True)
    sock = listen(host, port)
    supervisor = Supervisor(env=dict(os.environ), pass_fds=(sock.fileno(),))
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, supervisor.request_stop)
    try:
        for number in range(1, count + 1):
            supervisor.start(f"daphne-{number}", daphne_argv(sock))
        failed = supervisor.wait()
    finally:
        supervisor.stop_all()
        sock.close()
    return 0 if failed is None else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve cardroom from N Daphnes on one port.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--processes",
        type=int,
        help=f"Daphne processes (default: WEB_PROCESSES, else {DEFAULT_PROCESSES})",
    )
    args = parser.parse_args(argv)
    return serve(args.host, args.port, process_count(args.processes))


if __name__ == "__main__":
    sys.exit(main())
