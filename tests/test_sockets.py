"""A websocket's way in (cardroom/sockets.py): the login read once, the frames sent as they are."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from autobahn import util
from autobahn.twisted import websocket
from autobahn.websocket import protocol
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

import cardroom.asgi  # noqa: F401  (the server's set-up: quiet_autobahn_frames)
from cardroom.sockets import quiet_autobahn_frames, websocket_auth


class Seen:
    """An ASGI app that keeps the scope and the send it was called with."""

    scope: dict[str, Any]
    send: Any

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.scope, self.send = scope, send


async def _server_send(message: dict[str, Any]) -> None:
    raise AssertionError("nothing is sent here")


def _through_the_stack(cookie: str | None) -> Seen:
    seen = Seen()
    headers = [(b"cookie", cookie.encode())] if cookie else []
    scope = {"type": "websocket", "path": "/ws/lobby/", "headers": headers}
    async_to_sync(websocket_auth(seen))(scope, None, _server_send)
    return seen


@pytest.mark.django_db(transaction=True)
def test_a_logged_in_socket_gets_its_user_and_session_and_the_servers_own_send() -> None:
    # Alice logs in through the site, then opens a socket with her cookie.
    alice = get_user_model().objects.create_user(username="alice", password="a-long-password-1")
    client = Client()
    client.force_login(alice)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value

    seen = _through_the_stack(f"{settings.SESSION_COOKIE_NAME}={key}")

    assert seen.scope["user"].pk == alice.pk
    assert seen.scope["session"].session_key == key
    # Nothing wraps the frames she is sent: no session check per frame.
    assert seen.send is _server_send


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("session", [None, "not-a-session-of-ours"], ids=["none", "forged"])
def test_a_socket_with_no_login_or_a_forged_session_is_anonymous(session: str | None) -> None:
    cookie = session and f"{settings.SESSION_COOKIE_NAME}={session}"
    seen = _through_the_stack(cookie)
    assert not seen.scope["user"].is_authenticated
    assert seen.scope["session"].session_key is None


def test_the_server_has_autobahn_pass_its_frames_log_arguments_as_they_are() -> None:
    # cardroom.asgi, imported above, set it up, and setting it up again is harmless.
    for module in (protocol, websocket):  # what sends frames, and what receives them
        assert module.hltype is not util.hltype and module.hlval is not util.hlval
    assert quiet_autobahn_frames()
    # The arguments still make the line: a name and a value, uncolored.
    name = protocol.hltype(test_the_server_has_autobahn_pass_its_frames_log_arguments_as_they_are)
    line = f"{name} sent {protocol.hlval(12)} bytes"
    assert "test_the_server_has_autobahn" in line and line.endswith("sent 12 bytes")
    assert "\x1b[" not in line  # no terminal colors
