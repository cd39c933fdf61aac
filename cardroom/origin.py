"""Websockets only from this site's own pages: the Origin check in front of every socket.

Browsers send cookies with a cross-site websocket handshake, so without this
check a page anywhere could open a socket that acts as the player. Channels'
``AllowedHostsOriginValidator`` compares only the Origin's host name with
``ALLOWED_HOSTS``: a page at ``http://localhost:9999`` or ``https://127.0.0.1``
got in to a site at ``http://127.0.0.1:8000``. This check compares scheme,
host and port, as Django's CSRF check does for form posts:

- the handshake's ``Host`` must be one of ``ALLOWED_HOSTS`` (so a DNS-rebinding
  page, whose Origin and Host both name the attacker's domain, is refused);
- the ``Origin`` must then be the site's own origin, ``http://`` or
  ``https://`` (as the socket is ``ws://`` or ``wss://``) plus that ``Host``,
  or one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.com`` covers
  subdomains), which is how a site behind an HTTPS proxy names its ``https://``
  origin while Daphne itself is spoken to over plain ``ws://``.

Default ports count as given: ``http://example.com`` is ``http://example.com:80``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope, WebSocketScope

DEFAULT_PORTS = {"http": 80, "https": 443}
# What Django's own host check allows when DEBUG is on and ALLOWED_HOSTS is empty.
DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]


class Origin(NamedTuple):
    scheme: str
    host: str
    port: int


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as an :class:`Origin`; None if it isn't one (``null``, junk)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return Origin(scheme, parts.hostname, port or DEFAULT_PORTS[scheme])


def origin_allowed(scope: WebSocketScope) -> bool:
    """Whether a websocket handshake comes from a page of this site."""
    headers = _headers(scope)
    origin = parse_origin(headers.get("origin", ""))
    host = headers.get("host", "")
    if origin is None or not _host_allowed(host):
        return False
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    if origin == parse_origin(f"{scheme}://{host}"):
        return True
    return any(_trusted(origin, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS)


def _headers(scope: WebSocketScope) -> dict[str, str]:
    """The handshake's headers by lower-case name; the first of a repeated one."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(name.decode("latin1").lower(), value.decode("latin1"))
    return found


def _host_allowed(host: str) -> bool:
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS or (DEBUG_HOSTS if settings.DEBUG else [])
    return bool(domain) and validate_host(domain, allowed)


def _trusted(origin: Origin, pattern: str) -> bool:
    """Whether ``origin`` is the trusted origin ``pattern``, which may start ``scheme://*.``."""
    wildcard = "://*." in pattern
    trusted = parse_origin(pattern.replace("://*.", "://", 1))
    if trusted is None or (trusted.scheme, trusted.port) != (origin.scheme, origin.port):
        return False
    if wildcard:
        return is_same_domain(origin.host, "." + trusted.host)
    return origin.host == trusted.host


class SiteOriginValidator:
    """ASGI middleware: refuse, during the handshake, a websocket from any other origin."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.denier = WebsocketDenier.as_asgi()

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator is for websockets only")
        if not origin_allowed(scope):
            await self.denier(scope, receive, send)
        else:
            await self.application(scope, receive, send)
