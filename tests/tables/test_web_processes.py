"""Two Daphne processes on one port (``cardroom.web``), as ``make run`` and the
image start them: a table's viewers land on either, every one of them sees each
change, and when one process is killed its viewers reconnect to what the
database holds. The port is on IPv4, IPv6 or both: ``localhost``, the default,
answers on 127.0.0.1 and ::1, the image's ``--host 0.0.0.0 --host ::`` on every
address of both, and Daphne sees each client's own address.

Real servers on the test database and the real Redis; the viewers are real
websocket clients. Which process holds a connection is read from /proc.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect

import cardroom.web
from accounts.models import User
from cardroom.runner import client_host, free_port
from cardroom.web import bind, process_count, where
from tables.models import Seat, Table
from tests.conftest import (
    live_database_url,
    own_channel_layer,
    start_process,
    stop_process_group,
)
from tests.tables.conftest import session_of

pytestmark = pytest.mark.django_db(transaction=True)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 2
MAX_CONNECTIONS = 40  # to find a viewer on each process; the kernel shares them out


@dataclass
class Web:
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    def daphnes(self) -> list[int]:
        """The pids of the Daphne processes cardroom.web runs now."""
        return [pid for pid in _children(self.process.pid) if b"daphne" in _command(pid)]

    def holder(self, client: ClientConnection) -> int:
        """The Daphne process holding the server end of ``client``'s connection."""
        inode = _server_inode(self.port, client.local_address[1])
        for pid in self.daphnes():
            if inode in _socket_inodes(pid):
                return pid
        raise AssertionError(f"no Daphne holds the connection from port {client.local_address}")


@contextmanager
def serving(
    tmp_path: Path, redis_url: str, *options: str, processes: int = PROCESSES
) -> Iterator[Web]:
    """``python -m cardroom.web`` with ``options``, until it answers on ``options``'
    host (default: localhost, as ``make run``) with every Daphne up; stopped after."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": live_database_url(),
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions the test makes are signed with it
        **own_channel_layer(),
    }
    log = tmp_path / "web.log"
    argv = [sys.executable, "-m", "cardroom.web", "--port", str(port), *options]
    process = start_process([*argv, "--processes", str(processes)], env, log)
    server = Web(port, process, log)
    host = options[options.index("--host") + 1] if "--host" in options else "127.0.0.1"
    try:
        _wait_for(lambda: _answers(port, host) and len(server.daphnes()) == processes, server)
        yield server
    finally:
        stop_process_group(process)
        print(log.read_text())  # shown only when the test fails


@pytest.fixture
def web(tmp_path: Path, redis_url: str, db: None) -> Iterator[Web]:
    with serving(tmp_path, redis_url) as server:
        yield server


def test_the_process_count_comes_from_the_flag_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_PROCESSES", "3")
    assert (process_count(None), process_count(1)) == (3, 1)
    monkeypatch.setenv("WEB_PROCESSES", "")
    assert process_count(None) == 2
    for bad in ("two", "0"):
        monkeypatch.setenv("WEB_PROCESSES", bad)
        with pytest.raises(SystemExit, match="WEB_PROCESSES|at least 1"):
            process_count(None)


def test_viewers_on_either_process_see_the_same_change_and_survive_a_killed_process(
    web: Web, table: Table, alice: User, bob: User
) -> None:
    cookies = {user.username: session_of(user) for user in (alice, bob)}
    seen = asyncio.run(_scenario(web, table.pk, cookies))
    held = sorted(Seat.objects.filter(table=table).values_list("number", "player__username"))
    assert seen == [{"number": n, "player": name} for n, name in held]
    assert "alice" in [name for _, name in held]
    _wait_for(lambda: len(web.daphnes()) == PROCESSES, web)  # the killed one is back
    assert "restarted daphne-" in web.log.read_text()


# --------------------------------------------------------- IPv4 and IPv6


def test_localhost_is_both_loopbacks_on_one_port() -> None:
    sockets = bind("localhost", 0)
    try:
        bound = sorted((sock.family, sock.getsockname()[:2]) for sock in sockets)
        port = bound[0][1][1]
        assert bound == [
            (socket.AF_INET, ("127.0.0.1", port)),
            (socket.AF_INET6, ("::1", port)),
        ]
        assert where(sockets) == f"127.0.0.1:{port} and [::1]:{port}"
        for sock in sockets:
            sock.listen()
            # Each takes its own family's connections, and knows where they came from.
            with socket.create_connection((sock.getsockname()[0], port), timeout=2) as client:
                accepted, peer = sock.accept()
                accepted.close()
                assert peer[:2] == client.getsockname()[:2]
    finally:
        for sock in sockets:
            sock.close()


@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_an_ipv6_address_is_listened_on_over_ipv6_alone(host: str) -> None:
    (sock,) = bind(host, 0)
    with sock:
        assert (sock.family, sock.getsockname()[0]) == (socket.AF_INET6, "::1")
        assert sock.get_inheritable()


def test_an_address_in_use_is_refused_naming_it() -> None:
    with socket.socket(socket.AF_INET6) as taken:
        taken.bind(("::1", 0))
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit, match=rf"can't listen on \[::1\]:{port}: "):
            bind("localhost", port)


def test_ipv4_and_ipv6_wildcards_are_one_socket_each_on_one_port() -> None:
    sockets = bind(["0.0.0.0", "::"], 0)
    try:
        (v4, v6) = sockets
        port = v4.getsockname()[1]
        assert (v4.family, v4.getsockname()) == (socket.AF_INET, ("0.0.0.0", port))
        assert (v6.family, v6.getsockname()[:2]) == (socket.AF_INET6, ("::", port))
        # Dual-stack, :: would have clashed with 0.0.0.0 on the port.
        assert v6.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
        assert where(sockets) == f"0.0.0.0:{port} and [::]:{port}"
        for sock in sockets:
            sock.listen()
        for server, loopback in ((v4, "127.0.0.1"), (v6, "::1")):
            with socket.create_connection((loopback, port), timeout=2) as client:
                accepted, peer = server.accept()  # each family to its own socket
                accepted.close()
                assert peer[:2] == client.getsockname()[:2]
    finally:
        for sock in sockets:
            sock.close()


def test_the_ipv6_wildcard_beside_ipv4_is_left_out_on_a_machine_without_ipv6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_bind_one = cardroom.web._bind_one

    def without_ipv6(family: socket.AddressFamily, *args: Any, **kwargs: Any) -> socket.socket:
        if family == socket.AF_INET6:  # as socket() fails where the kernel has no IPv6
            raise OSError(errno.EAFNOSUPPORT, os.strerror(errno.EAFNOSUPPORT))
        return real_bind_one(family, *args, **kwargs)

    monkeypatch.setattr(cardroom.web, "_bind_one", without_ipv6)
    (sock,) = bind(["0.0.0.0", "::"], 0)
    with sock:
        assert (sock.family, sock.getsockname()[0]) == (socket.AF_INET, "0.0.0.0")
    # Asked for alone, it is not quietly dropped.
    with pytest.raises(SystemExit, match=r"can't listen on \[::\]:0: "):
        bind("::", 0)


def test_daphnes_on_the_images_hosts_answer_ipv4_and_ipv6(
    tmp_path: Path, redis_url: str, table: Table
) -> None:
    hosts = _image_host_options()
    with serving(tmp_path, redis_url, *hosts, processes=1) as web:
        for address in ("127.0.0.1", "[::1]"):
            assert asyncio.run(_watch(f"{address}:{web.port}", table.pk))["type"] == "snapshot"
        log = web.log.read_text()
        assert f"on 0.0.0.0:{web.port} and [::]:{web.port}" in log
        assert re.search(r'^127\.0\.0\.1:\d+ - - .*"WSCONNECT /ws/tables/', log, re.M), log
        assert re.search(r'^::1:\d+ - - .*"WSCONNECT /ws/tables/', log, re.M), log


def _image_host_options() -> list[str]:
    """The ``--host`` options of the image's command, the Dockerfile's CMD."""
    lines = (PROJECT_ROOT / "Dockerfile").read_text().splitlines()
    (cmd,) = [line.removeprefix("CMD") for line in lines if line.startswith("CMD ")]
    command = json.loads(cmd)
    flags = [index for index, word in enumerate(command) if word == "--host"]
    return [word for index in flags for word in command[index : index + 2]]


def test_daphnes_on_ipv6_alone_serve_it_and_see_each_clients_address(
    tmp_path: Path, redis_url: str, table: Table
) -> None:
    with serving(tmp_path, redis_url, "--host", "::1", processes=1) as web:
        assert _answers(web.port, "::1") and not _answers(web.port, "127.0.0.1")
        snapshot = asyncio.run(_watch(f"[::1]:{web.port}", table.pk))
        assert snapshot["table"]["id"] == table.pk
        log = web.log.read_text()
        assert f"on [::1]:{web.port}" in log
        # Daphne's access log names the client: ::1, read as IPv6.
        assert re.search(r'^::1:\d+ - - .*"GET /static/favicon.svg" 200', log, re.M), log


def test_localhost_daphnes_answer_on_both_loopbacks(web: Web, table: Table) -> None:
    for address in ("127.0.0.1", "[::1]"):
        assert asyncio.run(_watch(f"{address}:{web.port}", table.pk))["type"] == "snapshot"
    log = web.log.read_text()
    assert re.search(r'^127\.0\.0\.1:\d+ - - .*"WSCONNECT /ws/tables/', log, re.M), log
    assert re.search(r'^::1:\d+ - - .*"WSCONNECT /ws/tables/', log, re.M), log


async def _watch(netloc: str, table_id: int) -> dict[str, Any]:
    """The snapshot an observer gets on opening the table's page served at ``netloc``."""
    url, origin = f"ws://{netloc}/ws/tables/{table_id}/", f"http://{netloc}"
    async with connect(url, origin=origin) as client:  # type: ignore[arg-type]
        return await _snapshot(client)


async def _scenario(web: Web, table_id: int, cookies: dict[str, str]) -> list[dict[str, Any]]:
    url = f"ws://127.0.0.1:{web.port}/ws/tables/{table_id}/"
    origin = f"http://127.0.0.1:{web.port}"

    async def viewer(cookie: str | None = None) -> ClientConnection:
        headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
        client = await connect(url, origin=origin, additional_headers=headers)  # type: ignore[arg-type]
        await _snapshot(client)  # every connection starts with one
        return client

    by_process: dict[int, list[ClientConnection]] = {}
    opened: list[ClientConnection] = []
    try:
        while len(by_process) < PROCESSES:
            assert len(opened) < MAX_CONNECTIONS, "every connection went to one process"
            client = await viewer()
            opened.append(client)
            by_process.setdefault(web.holder(client), []).append(client)
        alice = await viewer(cookies["alice"])
        opened.append(alice)
        await alice.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
        # One change, seen alike from both processes.
        tables = []
        for clients in by_process.values():
            for client in clients:
                snapshot = await _snapshot(client)
                tables.append(snapshot["table"])
        assert all(seen == tables[0] for seen in tables)
        assert [s["player"] for s in tables[0]["seats"]] == ["alice"]
        # Bob sits through one process, which is killed with his message in flight.
        bob = await viewer(cookies["bob"])
        opened.append(bob)
        doomed = web.holder(bob)
        await bob.send(json.dumps({"type": "sit", "seat": 2, "buy_in": 100}))
        os.kill(doomed, signal.SIGKILL)
        # Its viewers are cut off; one reconnecting lands on a live process and
        # is shown what the database holds.
        await asyncio.wait_for(by_process[doomed][0].wait_closed(), 10)
        again = await viewer()
        opened.append(again)
        await asyncio.sleep(0.5)  # whatever bob's sit did is committed or gone by now
        await again.send(json.dumps({"type": "snapshot"}))
        snapshot = await _snapshot(again)
        return [{"number": s["number"], "player": s["player"]} for s in snapshot["table"]["seats"]]
    finally:
        for client in opened:
            await client.close()


async def _snapshot(client: ClientConnection) -> dict[str, Any]:
    """The next snapshot, from a frame of one message or of several."""
    while True:
        data = json.loads(await asyncio.wait_for(client.recv(), 10))
        for message in data if isinstance(data, list) else [data]:
            if message["type"] == "snapshot":
                return message


# ------------------------------------------------------------------- /proc


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue  # exited while we looked
    return found


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _server_inode(server_port: int, client_port: int) -> str:
    """The inode of the server's end of the TCP connection from ``client_port``."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == (
            client_port
        ):
            return inode
    raise AssertionError(f"no connection from port {client_port} to {server_port}")


def _answers(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with urllib.request.urlopen(
            f"http://{client_host(host)}:{port}/static/favicon.svg", timeout=2
        ):
            return True
    # Refused, reset, or (on a busy machine, while Django loads) too slow for
    # this try: all OSErrors, and all mean "not yet".
    except OSError:
        return False


def _wait_for(ready: Any, web: Web, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert web.process.poll() is None, web.log.read_text()
        assert time.monotonic() < deadline, web.log.read_text()
        time.sleep(0.2)
