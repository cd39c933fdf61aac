"""Several floor Daphnes behind one port, as ``cardroom.web`` serves the real site.

    python -m bench.floor.web [--host 127.0.0.1] [--port 8700] [--processes N]

The same sockets, handed to each Daphne the same way (``cardroom.web``'s
``bind`` and ``exec_daphne``) and the same supervisor; only the application
differs: :mod:`bench.floor.asgi`.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

from cardroom import web
from cardroom.runner import Supervisor

APPLICATION = "bench.floor.asgi:application"


def serve(hosts: Sequence[str], port: int, count: int) -> int:
    sockets = web.bind(hosts, port)
    try:
        print(f"bench.floor.web: {count} Daphne process(es) on {web.where(sockets)}", flush=True)
        for sock in sockets:
            sock.listen(web.BACKLOG)
        fds = ",".join(str(sock.fileno()) for sock in sockets)
        supervisor = Supervisor(
            env=dict(os.environ), pass_fds=tuple(sock.fileno() for sock in sockets)
        )
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, supervisor.request_stop)
        try:
            argv = [sys.executable, "-m", "bench.floor.web", "--daphne-on-fds", fds]
            for number in range(1, count + 1):
                supervisor.start(f"floor-{number}", argv)
            failed = supervisor.wait()
        finally:
            supervisor.stop_all()
        return 0 if failed is None else 1
    finally:
        for sock in sockets:
            sock.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the floor from N Daphnes on one port.")
    parser.add_argument("--host", action="append", help="address to listen on (localhost)")
    parser.add_argument("--port", type=int, default=8700, help="port to listen on (8700)")
    parser.add_argument("--processes", type=int, help="Daphne processes (as cardroom.web)")
    parser.add_argument("--daphne-on-fds", metavar="FD,FD", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.daphne_on_fds:
        # cardroom.web's Daphne, serving the floor's application instead of the site's.
        web.APPLICATION = APPLICATION
        web.exec_daphne([int(fd) for fd in args.daphne_on_fds.split(",")])
    return serve(args.host or ["localhost"], args.port, web.process_count(args.processes))


if __name__ == "__main__":
    sys.exit(main())
