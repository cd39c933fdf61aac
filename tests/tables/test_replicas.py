"""The hand history and the reports read a replica; everything else the primary.

A real Daphne is given ``DATABASE_REPLICA_URLS`` naming a lagging copy of
the test database, taken after one hand, so it lags the primary by what
happened since, as a replica behind its primary does. What
its pages show then says which database answered each read.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.error import HTTPError

import pytest
from django.db import connection

from accounts.models import User
from tables import services
from tables.models import Hand, Table
from tests.conftest import live_database_url, stop_process_group
from tests.tables.conftest import bet_and_call, daphne_start, play_out, session_of

pytestmark = pytest.mark.django_db(transaction=True)


class Replica:
    """A lagging copy of the test database: every table as it was when
    :meth:`copy` ran, in a schema of its own, which the replica's connections
    read first (``search_path``). A copy of the whole database would need
    nobody else connected to it, and the browser tests' server may be."""

    SCHEMA = "lagging_replica"

    def copy(self) -> str:
        """Copy every table as it is now; the replica's URL."""
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE SCHEMA {self.SCHEMA}")
            cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            for (name,) in cursor.fetchall():
                cursor.execute(f'CREATE TABLE {self.SCHEMA}."{name}" AS TABLE public."{name}"')
        return live_database_url() + f"?options=-csearch_path%3D{self.SCHEMA}"

    def drop(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {self.SCHEMA} CASCADE")


@pytest.fixture
def replica() -> Iterator[Replica]:
    made = Replica()
    try:
        yield made
    finally:
        made.drop()


def play_hand(table: Table) -> Hand:
    return play_out(services.hand_start(table_id=table.pk), bet_and_call)


def get(url: str, session: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read().decode()
    except HTTPError as error:
        return error.code, error.read().decode()


def test_history_and_reports_read_the_replica_and_ask_the_primary_for_a_hand_it_lacks(
    seated: Table,
    alice: User,
    server_env: dict[str, str],
    replica: Replica,
    tmp_path: Path,
) -> None:
    first = play_hand(seated)
    replica_url = replica.copy()
    second = play_hand(seated)  # on the primary only, as if not yet replicated
    # Both logins are made now, on the primary only: the login check reads it.
    staff = User.objects.create_superuser(username="sam", password="sam-pw-1234")
    sessions = {"alice": session_of(alice), "sam": session_of(staff)}
    env = {**server_env, "HTTPS": "false", "DATABASE_REPLICA_URLS": replica_url}
    ws_url, server = daphne_start(env, tmp_path / "daphne.log")
    base = ws_url.replace("ws://", "http://")
    try:
        status, page = get(f"{base}/hands/", sessions["alice"])
        assert status == 200
        assert f"/hands/{first.pk}/" in page  # the replica's hands
        assert f"/hands/{second.pk}/" not in page

        status, page = get(f"{base}/admin/hand-search/?player=alice", sessions["sam"])
        assert status == 200
        assert f"/hands/{first.pk}/" in page
        assert f"/hands/{second.pk}/" not in page

        # The replica has no second hand: its page is the primary's.
        for number in (first, second):
            status, page = get(f"{base}/hands/{number.pk}/", sessions["alice"])
            assert status == 200, page
            assert f"Hand #{number.number} at" in page
        status, text = get(f"{base}/hands/{second.pk}/export.txt", sessions["alice"])
        assert status == 200, text
        # A hand that is nowhere is still not found.
        status, _ = get(f"{base}/hands/{second.pk + 1000}/", sessions["alice"])
        assert status == 404
    finally:
        stop_process_group(server)
        print((tmp_path / "daphne.log").read_text())  # shown only when the test fails
