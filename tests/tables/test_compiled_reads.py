"""Reads compiled once give what the querysets they were compiled from give,
and writes compiled once write what ``Model.save`` writes.

A table with alice and bob seated and a hand under way, carol on its waiting
list; a second table nobody sits at, for reads that find nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Model
from django.db.models.fields import json as json_field_module
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from psycopg.pq import Trace

from accounts.models import User
from tables import services
from tables.compiled import CompiledRead, CompiledUpdate, one_trip
from tables.models import Hand, Seat, Table
from tables.rules import HandState
from tables.selectors.carried import carry
from tables.selectors.players import LoginCheck, NoLongerCurrent
from tables.selectors.snapshots import LATEST_HAND, SEATS, WAITING, build_snapshot, read_table
from tests.tables.conftest import session_of

pytestmark = pytest.mark.django_db


def fields(obj: Model) -> dict[str, Any]:
    """Every column's value as the instance holds it."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def busy(table: Table, alice: User, bob: User, carol: User) -> Table:
    table.stakes.seats = 2  # full: carol waits
    table.stakes.save(update_fields=["seats"])
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    services.hand_start(table_id=table.pk)
    services.waiting_join(table_id=table.pk, player_id=carol.pk)
    return table


@pytest.mark.parametrize(
    ("read", "related"),
    [(LATEST_HAND, ["table", "table.stakes"]), (SEATS, ["player"]), (WAITING, ["player"])],
)
def test_a_compiled_read_gives_the_querysets_rows_and_related_rows(
    busy: Table, read: CompiledRead[Any], related: list[str]
) -> None:
    compiled, queried = read(busy.pk), list(read.build(busy.pk))
    assert compiled and [fields(o) for o in compiled] == [fields(o) for o in queried]
    for mine, theirs in zip(compiled, queried, strict=True):
        for path in related:
            ours, orms = mine, theirs
            for name in path.split("."):
                ours, orms = getattr(ours, name), getattr(orms, name)
            assert fields(ours) == fields(orms)


def test_a_compiled_read_decodes_json_columns_with_orjson_to_what_the_orm_gives(
    busy: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand's state, seating and deck as the ORM decodes them, though the
    standard library's decoder is not asked (it would refuse, here)."""
    queried = LATEST_HAND.build(busy.pk).get()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a compiled read decoded JSON with the standard library")

    monkeypatch.setattr(json_field_module.json, "loads", refused)
    [compiled] = LATEST_HAND(busy.pk)
    for name in ("state", "seating", "deck"):
        assert getattr(compiled, name) == getattr(queried, name)
    assert isinstance(compiled.state, dict) and compiled.state["to_act"] is not None


def test_a_compiled_read_is_one_query_related_rows_included(busy: Table) -> None:
    SEATS(busy.pk)  # compiled on first use
    with CaptureQueriesContext(connection) as queries:
        seats = SEATS(busy.pk)
        names = [seat.player.username for seat in seats]
        hand = LATEST_HAND(busy.pk)[0]
        stakes = hand.table.stakes.describe()
    assert names == ["alice", "bob"] and stakes
    assert len(queries) == 2


def test_a_compiled_read_runs_with_each_value_it_is_given(busy: Table, stakes: Any) -> None:
    empty = Table.objects.create(name="Table 2", stakes=stakes)
    assert [seat.number for seat in SEATS(busy.pk)] == [1, 2]
    assert SEATS(empty.pk) == [] and LATEST_HAND(empty.pk) == [] and WAITING(empty.pk) == []
    assert [seat.number for seat in SEATS(busy.pk)] == [1, 2]


def test_instances_from_a_compiled_read_save_like_the_orms(busy: Table) -> None:
    seat = SEATS(busy.pk)[0]
    seat.stack = 123
    seat.save(update_fields=["stack"])
    assert Seat.objects.get(pk=seat.pk).stack == 123


def test_a_queryset_that_ignores_a_value_is_refused(busy: Table) -> None:
    read = CompiledRead(lambda table_id, _: Seat.objects.filter(table_id=table_id), arity=2)
    with pytest.raises(ValueError, match="doesn't use each of its values"):
        read(busy.pk, 1)


def test_a_read_of_two_values_puts_each_where_it_belongs(busy: Table, bob: User) -> None:
    read = CompiledRead(
        lambda table_id, player_id: Seat.objects.filter(table_id=table_id, player_id=player_id),
        arity=2,
    )
    assert [seat.number for seat in read(busy.pk, bob.pk)] == [2]
    with pytest.raises(TypeError, match="takes 2 value"):
        read(busy.pk)


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_is_refused_outside_a_transaction_every_time(busy: Table) -> None:
    locked = CompiledRead(lambda table_id: Table.objects.select_for_update().filter(pk=table_id))
    with transaction.atomic():
        assert [table.pk for table in locked(busy.pk)] == [busy.pk]  # compiled here
    with pytest.raises(TransactionManagementError, match="outside of a transaction"):
        locked(busy.pk)  # as the ORM refuses it: a lock outside one would lock nothing


def test_a_compiled_write_stores_what_save_would_and_only_the_fields_named(busy: Table) -> None:
    hand = Hand.objects.get(table=busy)
    saved = Hand.objects.get(pk=hand.pk)
    state, version = {**hand.state, "note": {"1": [True, None, 2.5, "é"]}}, hand.version + 1
    for copy in (hand, saved):
        copy.state, copy.version, copy.deck_salt = state, version, "not written"
    saved.save(update_fields=["state", "version"])
    expected = fields(Hand.objects.get(pk=hand.pk))
    Hand.objects.filter(pk=hand.pk).update(state={}, version=0)
    assert CompiledUpdate(Hand)(hand, ["state", "version"]) is True
    assert fields(Hand.objects.get(pk=hand.pk)) == expected  # the salt as it was


def test_a_compiled_write_with_a_condition_writes_nothing_when_it_fails(busy: Table) -> None:
    hand = Hand.objects.get(table=busy)
    before = fields(hand)
    write = CompiledUpdate(Hand)
    hand.version += 1
    assert write(hand, ["version"], where=("version", hand.version)) is False
    assert fields(Hand.objects.get(pk=hand.pk)) == before
    assert write(hand, ["version"], where=("version", hand.version - 1)) is True
    assert Hand.objects.get(pk=hand.pk).version == before["version"] + 1


def test_a_compiled_write_refuses_a_name_that_is_no_column(busy: Table) -> None:
    seat = SEATS(busy.pk)[0]
    with pytest.raises(ValueError, match="not a column"):
        CompiledUpdate(Table)(busy, ["seat_set"])
    assert Seat.objects.get(pk=seat.pk).stack == seat.stack


def a_move_staying_in(table: Table) -> dict[str, Any]:
    """``hand_play``'s arguments for a move that keeps the table's hand going."""
    hand = Hand.objects.get(table=table)
    state = HandState.from_dict(hand.state)
    assert state.to_act is not None
    option = next(o for o in state.legal_actions() if o.kind != "fold")
    return {
        "table_id": table.pk,
        "player_id": hand.player_ids()[state.to_act],
        "kind": option.kind,
        "amount": option.min if option.kind in ("bet", "raise", "complete") else None,
        "version": hand.version,
        "hand_id": hand.pk,
    }


ACCOUNT_SECRETS = ("password", "email", "last_login", "is_superuser")


def account_columns_read(queries: list[dict[str, Any]]) -> set[str]:
    """The account columns that the captured queries name."""
    user = User._meta.db_table
    return {
        field.column
        for field in User._meta.concrete_fields
        if any(f'"{user}"."{field.column}"' in query["sql"] for query in queries)
    }


@pytest.mark.django_db(transaction=True)
def test_a_move_and_its_snapshots_read_no_account_field_but_a_players_name_and_balance(
    busy: Table, alice: User, bob: User
) -> None:
    with CaptureQueriesContext(connection) as queries:
        rows = services.hand_play(**a_move_staying_in(busy))
        assert rows is not None
        carry(rows)  # for the other processes, as the move's socket does
        read = read_table(busy.pk)
        assert read is not None
        for made in (rows, read):
            for viewer in (alice.pk, bob.pk, None):
                build_snapshot(made, viewer, None, with_events=True)
    # The stakes' rake comes with the table, locked or read, never on its own.
    assert busy.stakes.rake is not None
    assert not [q for q in queries.captured_queries if 'FROM "tables_rakerule"' in q["sql"]]
    read_columns = account_columns_read(queries.captured_queries)
    assert {"username", "balance"} <= read_columns  # the seats' and the waiting list's players
    assert read_columns.isdisjoint(ACCOUNT_SECRETS)


@pytest.mark.django_db(transaction=True)
def test_reads_sent_in_one_trip_give_what_each_gives_alone(busy: Table) -> None:
    with transaction.atomic():
        with one_trip():
            sent = [read.send(busy.pk) for read in (LATEST_HAND, SEATS, WAITING)]
        together = [[fields(o) for o in reading.rows()] for reading in sent]
    alone = [[fields(o) for o in read(busy.pk)] for read in (LATEST_HAND, SEATS, WAITING)]
    assert together == alone and all(together)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_rows_taken_inside_a_trip_send_what_came_before_them(busy: Table) -> None:
    """Rows asked for before the block ends come back then, in a round trip
    of their own, and what is sent after them still goes with the block's end."""
    with transaction.atomic():
        with one_trip():
            seats = SEATS.send(busy.pk).rows()
            waiting = WAITING.send(busy.pk)
        assert [fields(o) for o in seats] == [fields(o) for o in SEATS(busy.pk)]
        assert [entry.player_id for entry in waiting.rows()] == [
            entry.player_id for entry in WAITING(busy.pk)
        ]
    assert len(seats) == 2 and autocommit_everywhere()


def sent_begins(trace: str) -> int:
    """The BEGINs the client sent, in a libpq protocol trace."""
    return sum(line.startswith("F") and '"BEGIN"' in line for line in trace.splitlines())


def stacks_of(table: Table) -> list[int]:
    return [seat.stack for seat in SEATS(table.pk)]


def autocommit_everywhere() -> bool:
    """Whether Django and psycopg both say each statement is its own transaction again."""
    return connection.get_autocommit() and connection.connection.autocommit


@contextmanager
def libpq_trace(path: Path) -> Iterator[None]:
    """libpq's protocol trace of the default connection, written to ``path``
    (without timestamps) while the block runs."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with open(path, "w") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield
        finally:
            pgconn.untrace()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_a_trip_that_begins_a_transaction_sends_its_begin_with_its_statements(
    busy: Table, tmp_path: Path
) -> None:
    with libpq_trace(tmp_path / "trace"), transaction.atomic():
        with one_trip():
            sent = SEATS.send(busy.pk)
        sent.rows()
    text = (tmp_path / "trace").read_text()
    assert sent_begins(text) == 1 and round_trips(text) == 2  # the trip, then COMMIT
    assert autocommit_everywhere()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_what_follows_a_trip_that_began_the_transaction_is_rolled_back_with_it(
    busy: Table,
) -> None:
    before = stacks_of(busy)
    with pytest.raises(RuntimeError), transaction.atomic():
        with one_trip():
            SEATS.send(busy.pk)
        Seat.objects.filter(table=busy).update(stack=F("stack") + 5)  # after the trip
        assert stacks_of(busy) == [stack + 5 for stack in before]  # seen inside
        raise RuntimeError
    assert stacks_of(busy) == before and autocommit_everywhere()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_a_transaction_begun_in_a_trip_commits_runs_its_hooks_and_keeps_its_savepoints(
    busy: Table,
) -> None:
    before, committed = stacks_of(busy), []
    with transaction.atomic():
        with one_trip():
            SEATS.send(busy.pk)
        transaction.on_commit(lambda: committed.append(stacks_of(busy)))
        Seat.objects.filter(table=busy).update(stack=F("stack") + 5)
        with pytest.raises(RuntimeError), transaction.atomic():  # a savepoint
            Seat.objects.filter(table=busy).update(stack=F("stack") + 100)
            raise RuntimeError
        assert committed == []
    assert committed == [[stack + 5 for stack in before]] and autocommit_everywhere()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_a_trip_inside_a_transaction_already_open_sends_no_begin(
    busy: Table, tmp_path: Path
) -> None:
    with transaction.atomic():
        SEATS(busy.pk)  # psycopg opens the transaction
        with libpq_trace(tmp_path / "trace"), one_trip():
            sent = SEATS.send(busy.pk)
        assert sent.rows() and not connection.connection.autocommit
    assert sent_begins((tmp_path / "trace").read_text()) == 0


@pytest.mark.django_db(transaction=True)
def test_a_write_that_fails_in_a_trip_raises_djangos_error_and_nothing_after_it_runs(
    busy: Table,
) -> None:
    first, second = SEATS(busy.pk)
    stacks = [first.stack, second.stack]
    write = CompiledUpdate(Seat)
    first.number = second.number  # one_player_per_seat
    second.stack += 1
    with pytest.raises(IntegrityError), transaction.atomic(), one_trip():
        write.send(first, ["number"])
        write.send(second, ["stack"])
    assert [seat.stack for seat in SEATS(busy.pk)] == stacks


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_whether_a_write_wrote_is_known_only_once_its_trip_is_over(busy: Table) -> None:
    seat = SEATS(busy.pk)[0]
    seat.stack += 5
    with transaction.atomic():
        with one_trip():
            sent = CompiledUpdate(Seat).send(seat, ["stack"])
            with pytest.raises(TransactionManagementError):
                sent.written()
        assert sent.written() is True
    assert SEATS(busy.pk)[0].stack == seat.stack


def round_trips(trace: str) -> int:
    """The round trips in a libpq protocol trace: the times the client sent
    something and then the server answered."""
    directions = [line[0] for line in trace.splitlines() if line[:2] in ("F\t", "B\t")]
    return sum(1 for sent, answer in itertools.pairwise(directions) if (sent, answer) == ("F", "B"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_a_move_is_three_round_trips_and_reads_nothing_once_it_has_committed(
    busy: Table, carol: User, tmp_path: Path
) -> None:
    move = a_move_staying_in(busy)
    with libpq_trace(tmp_path / "trace"), CaptureQueriesContext(connection) as queries:
        rows = services.hand_play(**move)
    # BEGIN with the lock and the reads; the writes; COMMIT.
    assert round_trips((tmp_path / "trace").read_text()) == 3
    assert queries.captured_queries[-1]["sql"] == "COMMIT"
    assert rows is not None and [entry.player_id for entry in rows.waiting] == [carol.pk]


def trips_sent(trace: str) -> list[str]:
    """What the client sent in each round trip of a libpq protocol trace,
    a trip's lines joined."""
    trips: list[list[str]] = [[]]
    for line in trace.splitlines():
        if line.startswith("F\t"):
            if trips[-1] and trips[-1][-1] == "answered":
                trips.append([])
            trips[-1].append(line)
        elif line.startswith("B\t") and trips[-1] and trips[-1][-1] != "answered":
            trips[-1].append("answered")
    return ["\n".join(trip) for trip in trips]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("postgresql")
def test_a_sockets_move_checks_its_login_in_its_first_round_trip(
    busy: Table, tmp_path: Path
) -> None:
    move = a_move_staying_in(busy)
    login = LoginCheck(move["player_id"], session_of(User.objects.get(pk=move["player_id"])))
    login.confirm()  # auth asked once, as when the socket's first message came
    with libpq_trace(tmp_path / "trace"):
        services.hand_play(**move, login=login)
    text = (tmp_path / "trace").read_text()
    first, *_ = trips_sent(text)
    assert round_trips(text) == 3
    assert "django_session" in first and '"BEGIN"' in first and "FOR UPDATE" in first


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_login_ended_is_refused_and_changes_nothing(busy: Table) -> None:
    move = a_move_staying_in(busy)
    player = User.objects.get(pk=move["player_id"])
    login = LoginCheck(player.pk, session_of(player))
    login.confirm()
    User.objects.filter(pk=player.pk).update(is_active=False)  # no signal tells anyone
    before = fields(Hand.objects.get(pk=move["hand_id"])), stacks_of(busy)
    with pytest.raises(NoLongerCurrent):
        services.hand_play(**move, login=login)
    assert (fields(Hand.objects.get(pk=move["hand_id"])), stacks_of(busy)) == before
