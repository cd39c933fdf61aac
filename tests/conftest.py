"""Fixtures shared by every test."""

from __future__ import annotations

import pytest
from django.conf import settings
from pytest_django import Settings


@pytest.fixture
def require_services() -> bool:
    """Whether this run must reach real PostgreSQL and Redis (CI sets REQUIRE_SERVICES=1).

    The settings read it through env_bool, so a typo such as REQUIRE_SERVICES=ture
    stops the run instead of quietly turning the checks off.
    """
    return settings.REQUIRE_SERVICES


@pytest.fixture
def redis_url(require_services: bool) -> str:
    """The real Redis to test against; without one the test is skipped, except in CI."""
    if not settings.REDIS_URL:
        # With REQUIRE_SERVICES on, the settings refuse to load without REDIS_URL,
        # so this skip can only happen on a laptop.
        assert not require_services, "REQUIRE_SERVICES=1 but REDIS_URL is empty"
        pytest.skip("REDIS_URL is not set; set it to test against a real Redis")
    return settings.REDIS_URL


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings: Settings) -> None:
    """Each test gets a fresh in-memory channel layer, so consumers need no Redis.

    That layer lives in one process only, which is why it is for tests alone; the
    tests of the real Redis layer build theirs from the project's settings.
    """
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
