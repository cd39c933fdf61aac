"""Which address a request comes from, for the login lockout and the signup limit.

Behind reverse proxies (``TRUSTED_PROXIES`` of them, each adding the address it
was reached from to ``X-Forwarded-For``), the visitor is the address the
outermost proxy saw: that many entries from the right of the header, counting
``REMOTE_ADDR`` as the last. Entries further left are whatever the visitor
sent, so they are never read. An IPv6 visitor counts as their whole /64
network, which one household or server usually holds.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

IPV6_NETWORK_BITS = 64
# For a request with no usable address at all (a server on a Unix socket with
# no proxy): every such request counts as this one address.
UNKNOWN = "0.0.0.0"


def client_address(request: HttpRequest) -> str:
    """The visitor's address, as text; IPv6 as the first address of its /64.

    >>> from django.test import RequestFactory
    >>> client_address(RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:3:4:5:6"))
    '2001:db8:1:2::'
    """
    remote = request.META.get("REMOTE_ADDR", "")
    address = _parsed(_visitor(request, remote)) or _parsed(remote)
    if address is None:
        return UNKNOWN
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        network = ipaddress.ip_network(f"{address}/{IPV6_NETWORK_BITS}", strict=False)
        return str(network.network_address)
    return str(address)


def _visitor(request: HttpRequest, remote: str) -> str:
    proxies = settings.TRUSTED_PROXIES
    if not proxies:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()] + [remote]
    # Fewer hops than proxies: the request skipped a proxy, so trust only the peer.
    return hops[-1 - proxies] if len(hops) > proxies else remote


def _parsed(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
