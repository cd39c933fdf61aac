"""Signups from one address at the same moment: the quota lets exactly as many through
as it has left, so the grant can't be collected by signing up in parallel.

Real concurrent transactions need committed data and PostgreSQL's row locks;
on SQLite this is skipped, unless REQUIRE_SERVICES says the run must be real.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import AddressQuota, ChipTransfer, User
from accounts.services import user_signup
from tests.tables.test_concurrency import TIMEOUT, wait_for_lock_waiters

pytestmark = pytest.mark.django_db(transaction=True)

ADDRESS = "198.51.100.7"


@pytest.fixture(autouse=True)
def row_locks(require_services: bool) -> None:
    if connection.vendor == "sqlite" and not require_services:
        pytest.skip("SQLite has no row locks; run against PostgreSQL (DATABASE_URL)")


def test_parallel_signups_from_one_address_get_only_the_signups_left(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CARDROOM_SIGNUPS_PER_ADDRESS = 2
    AddressQuota.objects.create(
        purpose="signup", key=ADDRESS, window_started=timezone.now(), used=1
    )
    outcomes: list[str] = []

    def sign_up(n: int) -> None:
        try:
            user_signup(username=f"farmer{n}", password="farm-chips-77", address=ADDRESS)
            outcomes.append("ok")
        except Exception as exc:  # the outcome is what the test checks
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(4)]
    # Hold the quota's row until all four are waiting for it, so they race.
    with transaction.atomic():
        AddressQuota.objects.select_for_update().get(purpose="signup", key=ADDRESS)
        for thread in threads:
            thread.start()
        wait_for_lock_waiters(len(threads))
    for thread in threads:
        thread.join(TIMEOUT)

    assert sorted(outcomes) == ["SignupLimited"] * 3 + ["ok"]
    assert User.objects.count() == 1
    assert ChipTransfer.objects.filter(kind="grant").count() == 1
    assert AddressQuota.objects.get(purpose="signup", key=ADDRESS).used == 2
