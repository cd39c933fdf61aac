"""Two requests at one table at the same moment: the table lock lets exactly one through.

These need real concurrent transactions and row locks, so they use committed data
(``transaction=True``) and PostgreSQL. SQLite has no row locks; there they are
skipped, unless REQUIRE_SERVICES says this run must be the real thing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from accounts.models import User
from tables import services, tasks
from tables.models import Hand, Seat, Table
from tests.tables.conftest import player_to_act

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10  # seconds: far more than any of these requests needs


@pytest.fixture(autouse=True)
def row_locks(require_services: bool) -> None:
    if connection.vendor == "sqlite" and not require_services:
        pytest.skip("SQLite has no row locks; run against PostgreSQL (DATABASE_URL)")


def at_once(table: Table, *requests: Callable[[], object]) -> list[str]:
    """Run each request in its own thread and connection, all queued on the table's lock.

    The test holds the table's row lock until every request is waiting for it
    (or, off PostgreSQL, for a moment), so they really do race when it lets go.
    Returns each request's outcome: "ok" or the name of the error it raised.
    """
    outcomes: list[str] = []

    def run(request: Callable[[], object]) -> None:
        try:
            request()
            outcomes.append("ok")
        except Exception as exc:  # the outcome is what the test checks
            outcomes.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(request,)) for request in requests]
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        for thread in threads:
            thread.start()
        wait_for_lock_waiters(len(requests))
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    return outcomes


def wait_for_lock_waiters(count: int) -> None:
    if connection.vendor != "postgresql":
        time.sleep(0.5)
        return
    deadline = time.monotonic() + TIMEOUT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Inside a transaction PostgreSQL keeps showing its first look at
            # pg_stat_activity unless told to look again.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] >= count:
                return
            time.sleep(0.01)
    pytest.fail(f"{count} requests never all waited on the table's lock")


def test_two_moves_on_one_version_apply_exactly_once(table: Table, alice: User, bob: User):
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=100)
    hand = services.hand_start(table_id=table.pk)
    actor = player_to_act(hand)

    def bring_in() -> Hand:
        return services.hand_act(hand_id=hand.pk, player_id=actor, kind="bring_in", version=0)

    outcomes = at_once(table, bring_in, bring_in)

    assert sorted(outcomes) == [
        "StaleMove: hand #1 is at version 1, not 0; reload it and try again",
        "ok",
    ]
    hand.refresh_from_db()
    assert len(hand.moves()) == 1
    assert hand.version == 1 and hand.state["turn"] == 1


def test_two_players_taking_one_seat_at_once_get_one_seat(table: Table, alice: User, bob: User):
    def sit(player: User) -> Callable[[], Seat]:
        return lambda: services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=1, buy_in=100
        )

    outcomes = at_once(table, sit(alice), sit(bob))

    assert sorted(outcomes) == ["ServiceError: seat 1 at Table 1 is taken", "ok"]
    seat = Seat.objects.get(table=table)
    loser = bob if seat.player_id == alice.pk else alice
    loser.refresh_from_db()
    assert loser.balance == loser.transfers.get().amount  # only the signup grant: no buy-in


def test_the_task_and_the_sweep_dealing_at_once_deal_one_hand(
    table: Table, alice: User, bob: User
) -> None:
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=100)
    dealt: dict[str, int] = {}

    def task() -> None:
        dealt["task"] = int(tasks.start_next_hand(table.pk))

    def sweep() -> None:
        dealt["sweep"] = services.hands_start_due()

    assert at_once(table, task, sweep) == ["ok", "ok"]
    assert dealt["task"] + dealt["sweep"] == 1
    assert Hand.objects.filter(table=table).count() == 1
