"""What a websocket passes through on its way to a consumer, kept off the path
of every frame it sends.

A live table sends each of its viewers a frame per change, so whatever wraps a
socket's ``send`` or runs per frame is paid once per viewer per move. Two such
costs had nothing to do (bench/README.md, "Sessions read, debug logs left
unformatted"):

- Channels' ``SessionMiddleware`` wraps ``send`` to save a changed session
  when an HTTP response starts. A websocket never sends one, yet every frame
  went through the wrapper's checks of the session. :func:`websocket_auth`
  reads the session and the user once, at the handshake, and hands the
  consumer the server's own ``send``.
- autobahn writes a debug line for every frame it sends and every chunk it
  receives, and works out the line's colored arguments before the logger can
  say it is off. :func:`quiet_autobahn_frames` hands it its arguments as they
  are.
"""

from __future__ import annotations

import itertools
from importlib import import_module
from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware
from django.conf import settings


class SessionReadMiddleware:
    """The Django session named by the request's cookie, in ``scope["session"]``,
    read and never saved. Needs ``CookieMiddleware`` above it.

    A consumer that changes the session must save it itself, as it must under
    Channels' middleware too (which saves only when an HTTP response starts).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        store = import_module(settings.SESSION_ENGINE).SessionStore
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": store(key)}, receive, send)


def websocket_auth(inner: Any) -> Any:
    """``inner`` with the cookies, the session and the user in its scope, as
    Channels' ``AuthMiddlewareStack`` gives it, and the server's ``send``."""
    return CookieMiddleware(SessionReadMiddleware(AuthMiddleware(inner)))


def _as_given(value: Any, *args: Any, **kwargs: Any) -> Any:
    return value


def quiet_autobahn_frames() -> bool:
    """Have autobahn's websocket protocol, and its Twisted adapter, which Daphne
    runs, pass their log lines' arguments as they are instead of coloring them
    first (``hltype``, ``hlval``); whether they do.

    Only the text of autobahn's own log lines changes, and only where it still
    uses autobahn's helpers: a version that no longer does is left alone.
    """
    from autobahn import util
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    names, modules = ("hltype", "hlval"), (protocol, websocket)
    for module, name in itertools.product(modules, names):
        if getattr(module, name, None) is getattr(util, name, _as_given):
            setattr(module, name, _as_given)
    return all(getattr(module, name, None) is _as_given for module in modules for name in names)
