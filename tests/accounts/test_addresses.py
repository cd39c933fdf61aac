"""The visitor's address, behind no proxy, behind trusted proxies, and over IPv6."""

from __future__ import annotations

import doctest

import pytest
from django.test import RequestFactory

from accounts import addresses
from accounts.addresses import client_address


def request(remote: str = "203.0.113.9", forwarded: str | None = None):
    headers = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **headers)


def test_with_no_proxy_the_address_is_the_peer_and_the_header_is_ignored(settings) -> None:
    settings.TRUSTED_PROXIES = 0

    assert client_address(request(forwarded="192.0.2.1")) == "203.0.113.9"


def test_behind_one_proxy_it_is_the_address_the_proxy_added(settings) -> None:
    settings.TRUSTED_PROXIES = 1

    # The visitor sent "192.0.2.1" themselves; the proxy added 198.51.100.7.
    found = client_address(request(remote="10.0.0.2", forwarded="192.0.2.1, 198.51.100.7"))

    assert found == "198.51.100.7"


def test_behind_two_proxies_it_is_the_address_the_outer_one_added(settings) -> None:
    settings.TRUSTED_PROXIES = 2

    found = client_address(request(remote="10.0.0.2", forwarded="198.51.100.7, 10.0.0.1"))

    assert found == "198.51.100.7"


@pytest.mark.parametrize("forwarded", [None, "", "not-an-address"])
def test_a_request_that_skipped_the_proxy_counts_as_its_peer(settings, forwarded) -> None:
    settings.TRUSTED_PROXIES = 1

    assert client_address(request(remote="10.0.0.2", forwarded=forwarded)) == "10.0.0.2"


def test_an_ipv6_visitor_counts_as_their_whole_64_network(settings) -> None:
    settings.TRUSTED_PROXIES = 0

    one = client_address(request(remote="2001:db8:1:2::1"))
    other = client_address(request(remote="2001:db8:1:2:ffff:ffff:ffff:ffff"))

    assert one == other == "2001:db8:1:2::"
    assert client_address(request(remote="2001:db8:1:3::1")) != one


def test_an_ipv4_mapped_address_is_the_ipv4_one(settings) -> None:
    settings.TRUSTED_PROXIES = 0

    assert client_address(request(remote="::ffff:203.0.113.9")) == "203.0.113.9"


def test_a_request_with_no_address_counts_as_the_unknown_one(settings) -> None:
    settings.TRUSTED_PROXIES = 0

    assert client_address(request(remote="")) == "0.0.0.0"


def test_the_module_passes_its_doctests() -> None:
    result = doctest.testmod(addresses)
    assert result.attempted > 0 and result.failed == 0
