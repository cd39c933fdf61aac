"""Fixtures shared by every test."""

from __future__ import annotations

import pytest

from cardroom.env import env_bool


@pytest.fixture
def require_services() -> bool:
    """Whether this run must reach real PostgreSQL and Redis (CI sets it).

    Read through env_bool so a typo such as CARDROOM_REQUIRE_SERVICES=ture fails
    loudly instead of quietly turning the checks off.
    """
    return env_bool("CARDROOM_REQUIRE_SERVICES", default=False)
