"""Failed logins, held to one limit for an account and a higher one for an address.

django-axes counts failed logins for each of ``AXES_LOCKOUT_PARAMETERS`` (here
the account, from anywhere, and the address, for any accounts) but holds every
count to the one ``AXES_FAILURE_LIMIT``. Friends who play home games together
often share one address, a home router's, and at the account's limit one
forgetful player would lock all of them out. So each count has its own limit:
``LOGIN_FAILURE_LIMIT`` for an account, which also covers the account at any
one address, and the much higher ``LOGIN_ADDRESS_FAILURE_LIMIT`` for an
address, which stops one machine guessing at many accounts.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest

# Each lockout parameter, and the setting that holds its count, read at each
# login so the limits follow the settings in force.
LIMIT_SETTINGS = {"username": "LOGIN_FAILURE_LIMIT", "ip_address": "LOGIN_ADDRESS_FAILURE_LIMIT"}


# Axes has no type hints, so its handler is Any to mypy.
class LoginLimitsHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler, with a limit for each count of failures."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The failures axes holds to ``AXES_FAILURE_LIMIT``, for the count nearest its own limit.

        Axes locks out when this reaches ``AXES_FAILURE_LIMIT``: so it is that
        limit less the failures that count has left before its own.
        """
        left = min(self.failures_left(request, credentials).values())
        limit: int = get_failure_limit(request, credentials)
        return limit - left

    def failures_left(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> dict[str, int]:
        """For the account and for the address, how many more failures before it is
        locked out: 0 or less while it is."""
        parameters = get_lockout_parameters(request, credentials)
        counts = self.get_user_attempts(request, credentials)  # in the parameters' order
        return {
            parameter: getattr(settings, LIMIT_SETTINGS[parameter]) - _failures(attempts)
            for parameter, attempts in zip(parameters, counts, strict=True)
        }


def _failures(attempts: QuerySet[Any]) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
