"""Several Daphne processes behind one port.

    python -m cardroom.web [--host localhost ...] [--port 8000] [--processes N]

This opens the listening sockets once, then starts N Daphne processes that all
serve them. Every process accepts from the same queues in the kernel, so there
is no balancer in between: a connection goes to whichever process accepts it
first. A table's viewers can be on any of the processes. They share Redis (the
channel layer) and PostgreSQL, as docs/protocol.md describes under "How
changes reach everyone".

``--host`` is an IPv4 or IPv6 address (``127.0.0.1``, ``0.0.0.0``, ``::1``,
``[::1]``, ``::``) or a name, with one socket for each address it stands for.
``localhost``, the default, is both loopback addresses, 127.0.0.1 and ::1
(RFC 6761), as browsers take it: a browser that tries ::1 first for
http://localhost:8000/ is answered, not refused. (On a machine without IPv6 it
is 127.0.0.1 alone.) Any other name is every address the resolver gives for
it. ``::`` alone takes IPv4 connections too, where the system maps them to
IPv6 (Linux does by default).

``--host`` may be given more than once, for every address of each. An IPv6
socket beside an IPv4 one takes IPv6 alone, so ``--host 0.0.0.0 --host ::``
(the image's) is two sockets on one port, one per family, each seeing its
clients' own addresses. The IPv6 loopback or wildcard beside an IPv4 address
is left out on a machine without IPv6, as ``localhost``'s ::1 is, so the image
still starts on a host whose kernel has IPv6 turned off.

Each Daphne is handed the sockets as systemd's socket activation hands them
over (:func:`exec_daphne`), and adopts each in its own address family through
Twisted's ``systemd:`` endpoint. Daphne's own ``--fd`` adopts every socket as
IPv4, which would read each IPv6 client's address wrong.

N is ``--processes``, else ``WEB_PROCESSES``, else :data:`DEFAULT_PROCESSES`,
the number the load figures in bench/README.md justify on a two-core machine.

The processes are supervised as ``cardroom.runner`` supervises its own: one
that exits is started again (its sockets' browsers reconnect, to any process),
and one that keeps crashing stops the rest, and this exits 1. SIGTERM or
SIGINT stops them all.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import sys
from collections.abc import Sequence
from typing import NoReturn

from cardroom.runner import Supervisor

DEFAULT_PROCESSES = 2
BACKLOG = 1024
APPLICATION = "cardroom.asgi:application"


# The loopback addresses ``localhost`` names (RFC 6761); ::1 only where this
# machine has IPv6.
LOCALHOST = ("127.0.0.1", "::1")
# IPv6 addresses left out beside an IPv4 one where this machine has no IPv6:
# localhost's loopback, and the wildcard asked for beside 0.0.0.0.
IPV6_IF_ANY = ("::1", "::")
# Errors binding ::1 that mean this machine has no IPv6 (not, say, a port in use).
NO_IPV6 = (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL)
# The first descriptor that socket activation hands over (sd_listen_fds(3)).
LISTEN_FDS_START = 3


Address = tuple[socket.AddressFamily, str]


def addresses(host: str) -> list[Address]:
    """The addresses ``--host`` stands for, each with its family (as the
    resolver gives them: :func:`_wanted` drops repeats and puts IPv4 first)."""
    host = host.removeprefix("[").removesuffix("]")
    if host == "localhost":
        return [(socket.AF_INET, LOCALHOST[0]), (socket.AF_INET6, LOCALHOST[1])]
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise SystemExit(f"cardroom.web can't listen on {host!r}: {error.strerror}") from None
    return [(family, str(address[0])) for family, _, _, _, address in found]


def bind(hosts: str | Sequence[str], port: int) -> list[socket.socket]:
    """TCP sockets bound on every address ``hosts`` stand for, at ``port``, that
    child processes can inherit; not yet listening, so nobody can connect.

    With ``port`` 0 the first socket gets a free port and the others the same.
    An IPv6 socket beside an IPv4 one takes IPv6 only, so the two never clash
    (``::`` would otherwise take 0.0.0.0's connections too, and its port).
    """
    wanted, sockets = _wanted([hosts] if isinstance(hosts, str) else hosts), []
    v6_only = any(family == socket.AF_INET for family, _ in wanted)
    try:
        for family, address in wanted:
            try:
                sock = _bind_one(family, address, port, v6_only=v6_only)
            except OSError as error:
                if v6_only and address in IPV6_IF_ANY and error.errno in NO_IPV6:
                    continue  # no IPv6 here: the IPv4 address serves alone
                raise SystemExit(
                    f"cardroom.web can't listen on {_url_address((address, port))}: "
                    f"{error.strerror}"
                ) from None
            sockets.append(sock)
            port = sock.getsockname()[1]
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _wanted(hosts: Sequence[str]) -> list[Address]:
    """Every address of ``hosts``, once each, IPv4 first."""
    unique = {pair: None for host in hosts for pair in addresses(host)}
    return sorted(unique, key=lambda pair: pair[0] != socket.AF_INET)


def _bind_one(
    family: socket.AddressFamily, address: str, port: int, *, v6_only: bool
) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and v6_only:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((address, port))
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def where(sockets: Sequence[socket.socket]) -> str:
    """Where the sockets are bound, as URLs write it: ``127.0.0.1:8000 and [::1]:8000``."""
    return " and ".join(_url_address(sock.getsockname()) for sock in sockets)


def _url_address(address: tuple[str, int] | tuple[str, int, int, int]) -> str:
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def daphne_argv(sockets: Sequence[socket.socket]) -> list[str]:
    """The command of one Daphne serving the inherited ``sockets``: this module
    hands them over (:func:`exec_daphne`), then becomes Daphne."""
    fds = ",".join(str(sock.fileno()) for sock in sockets)
    return [sys.executable, "-m", "cardroom.web", "--daphne-on-fds", fds]


def exec_daphne(fds: Sequence[int]) -> NoReturn:
    """Become one Daphne serving the inherited listening sockets ``fds``.

    They are handed over as systemd's socket activation does (sd_listen_fds(3)):
    moved to descriptors 3, 4, ... and announced in ``LISTEN_FDS`` and
    ``LISTEN_FDNAMES``, for ``LISTEN_PID``, this process, whose id Daphne keeps
    through ``exec``. Twisted's ``systemd:`` endpoint then adopts each socket
    in the family it is told, IPv4 or IPv6.
    """
    endpoints = []
    # In ascending order each descriptor is at least its target, so a move
    # never overwrites a socket still to be moved.
    for index, fd in enumerate(sorted(fds)):
        with socket.socket(fileno=os.dup(fd)) as probe:  # the family, read from the socket
            family = probe.family.name.removeprefix("AF_")
        target = LISTEN_FDS_START + index
        if fd != target:
            os.dup2(fd, target)
            os.close(fd)
        endpoints += ["-e", f"systemd:domain={family}:index={index}"]
    env = {
        **os.environ,
        "LISTEN_PID": str(os.getpid()),
        "LISTEN_FDS": str(len(fds)),
        "LISTEN_FDNAMES": ":".join(["cardroom-web"] * len(fds)),
    }
    argv = [sys.executable, "-m", "daphne", *endpoints, APPLICATION]
    os.execve(sys.executable, argv, env)


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


def serve(hosts: Sequence[str], port: int, count: int) -> int:
    """Run ``count`` Daphnes on ``hosts`` at ``port`` until stopped; the exit status."""
    sockets = bind(hosts, port)
    try:
        # Said before the port opens: whoever waits for the port (the runner)
        # then prints after this line.
        print(f"cardroom.web: {count} Daphne process(es) on {where(sockets)}", flush=True)
        for sock in sockets:
            sock.listen(BACKLOG)
        return _supervise(sockets, count)
    finally:
        for sock in sockets:
            sock.close()


def _supervise(sockets: Sequence[socket.socket], count: int) -> int:
    supervisor = Supervisor(env=dict(os.environ), pass_fds=tuple(sock.fileno() for sock in sockets))
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, supervisor.request_stop)
    try:
        for number in range(1, count + 1):
            supervisor.start(f"daphne-{number}", daphne_argv(sockets))
        failed = supervisor.wait()
    finally:
        supervisor.stop_all()
    return 0 if failed is None else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve cardroom from N Daphnes on one port.")
    # argparse appends to a default list instead of replacing it: localhost is
    # filled in after parsing, when no --host was given.
    parser.add_argument(
        "--host",
        action="append",
        help="address or name to listen on, repeatable (--host 0.0.0.0 --host ::); "
        "the default, localhost, is 127.0.0.1 and ::1",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--processes",
        type=int,
        help=f"Daphne processes (default: WEB_PROCESSES, else {DEFAULT_PROCESSES})",
    )
    # What each Daphne process starts as, to take the sockets it inherits.
    parser.add_argument("--daphne-on-fds", metavar="FD,FD", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.daphne_on_fds:
        exec_daphne([int(fd) for fd in args.daphne_on_fds.split(",")])
    return serve(args.host or ["localhost"], args.port, process_count(args.processes))


if __name__ == "__main__":
    sys.exit(main())
