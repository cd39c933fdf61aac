"""Hot reads whose SQL is compiled once per process.

The ORM turns a queryset into SQL each time it runs it. For the reads that
every change to a table makes (its latest hand, its seats, its waiting list)
that compiling was about half of each read's CPU time in the load benchmark.
A :class:`CompiledRead` compiles its queryset once, with a stand-in value for
its one parameter, then runs that SQL with each real value and builds the
model instances, ``select_related`` ones included, as the ORM's own iterator
builds them (``django.db.models.query.ModelIterable``). Its results are the
queryset's: ``tests/tables/test_compiled_reads.py`` holds them to it.

The moves' services lock and read their table, hand and seats the same way,
and write the hand back with a :class:`CompiledUpdate`: one statement built
once, where ``Model.save`` built it, sent signals and walked every field anew
at each move.

Inside :func:`one_trip` the reads and writes sent (``send``) travel to
PostgreSQL together, in one round trip, and their results are taken after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import orjson
from django.db import connections
from django.db.models import Field, JSONField, Model, QuerySet

# Django's own helper for select_related rows; internal, so django-stubs leaves it out.
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError
from psycopg.pq import PipelineStatus, TransactionStatus
from psycopg.types.json import Jsonb

from tables.jsontext import json_bytes

M = TypeVar("M", bound=Model)

# Values no row has, looked for among the compiled parameters and swapped for
# the real ones at each run: the first value's, the second's...
STAND_INS = (-918_273_645, -918_273_646, -918_273_647)


@dataclass(frozen=True)
class _Plan(Generic[M]):
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]  # (index in params, index of the value it takes)
    compiler: Any
    converters: dict[int, Any]
    model: type[M]
    fields: tuple[int, int]  # the model's own columns: row[start:end]
    names: list[str]  # their attribute names, for Model.from_db
    related: list[Any]  # one populator per select_related model
    locks: bool  # select_for_update: only inside a transaction, as the ORM insists


class CompiledRead(Generic[M]):
    """``build(*values)`` is the queryset; ``read(*values)`` its rows as instances.

    The values are ints (ids), up to three; the queryset must use each of them.
    """

    def __init__(self, build: Callable[..., QuerySet[M]], arity: int = 1) -> None:
        self.build, self.arity = build, arity
        self._plans: dict[str, _Plan[M]] = {}  # by database alias

    def __call__(self, *values: int, using: str = "default") -> list[M]:
        return self.send(*values, using=using).rows()

    def send(self, *values: int, using: str = "default") -> SentRead[M]:
        """Run the read; its rows are taken from what this returns. Inside
        :func:`one_trip` the read only leaves, to come back with the others."""
        if len(values) != self.arity:
            raise TypeError(f"this read takes {self.arity} value(s), not {len(values)}")
        plan = self._plans.get(using) or self._plan(using)
        if plan.locks and connections[using].get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(plan.params)
        for slot, which in plan.slots:
            params[slot] = values[which]
        cursor = connections[using].cursor()
        cursor.execute(plan.sql, params)
        return SentRead(plan, cursor, using)

    def _plan(self, using: str) -> _Plan[M]:
        stand_ins = STAND_INS[: self.arity]
        queryset = self.build(*stand_ins)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = tuple(
            (i, stand_ins.index(param)) for i, param in enumerate(params) if param in stand_ins
        )
        if {which for _, which in slots} != set(range(self.arity)):
            raise ValueError("the queryset doesn't use each of its values")
        select, klass_info = compiler.select, compiler.klass_info
        columns = klass_info["select_fields"]
        start, end = columns[0], columns[-1] + 1
        plan = _Plan(
            sql=sql,
            params=tuple(params),
            slots=slots,
            compiler=compiler,
            converters=_json_by_orjson(compiler.get_converters([col[0] for col in select])),
            model=klass_info["model"],
            fields=(start, end),
            names=[column[0].target.attname for column in select[start:end]],
            related=get_related_populators(klass_info, select, using),
            locks=queryset.query.select_for_update,
        )
        self._plans[using] = plan
        return plan


def _json_by_orjson(converters: dict[int, Any]) -> dict[int, Any]:
    """The compiler's converters, with each JSON column's ``from_db_value`` (the
    standard library's decoder) swapped for :func:`_json_loaded`. A hand's
    state, read whole when this process didn't make its last move, is 10 KB
    of JSON late in a hand."""
    return {
        position: ([_json_swapped(conv) for conv in convs], expression)
        for position, (convs, expression) in converters.items()
    }


def _json_swapped(converter: Any) -> Any:
    field = getattr(converter, "__self__", None)
    plain_json = isinstance(field, JSONField) and field.decoder is None
    if plain_json and getattr(converter, "__func__", None) is JSONField.from_db_value:
        return _json_loaded
    return converter


def _json_loaded(value: Any, expression: Any, connection: Any) -> Any:
    """What ``JSONField.from_db_value`` gives for a column's JSON text, decoded by orjson."""
    if value is None:
        return None
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:  # as Django's: text that isn't JSON is the value
        return value


class SentRead(Generic[M]):
    """A compiled read that has been sent: :meth:`rows` takes its rows, once."""

    def __init__(self, plan: _Plan[M], cursor: Any, using: str) -> None:
        self.plan, self.cursor, self.using = plan, cursor, using

    def rows(self) -> list[M]:
        plan = self.plan
        with self.cursor as cursor:
            rows: Any = cursor.fetchall()
        if plan.converters:
            rows = plan.compiler.apply_converters(rows, plan.converters)
        start, end = plan.fields
        found = []
        for row in rows:
            obj = plan.model.from_db(self.using, plan.names, row[start:end])
            for populator in plan.related:
                populator.populate(row, obj)
            found.append(obj)
        return found


@contextmanager
def one_trip(using: str = "default") -> Iterator[None]:
    """The compiled reads and writes sent inside go to PostgreSQL together.

    The block is a psycopg pipeline: each statement leaves when it is sent,
    the server runs them in the order sent, and all their results come back
    when the block ends, in one round trip, to be taken after it
    (:meth:`SentRead.rows`, :meth:`SentWrite.written`). Rows taken inside the
    block cost a round trip of their own. A move's reads are one round trip
    this way, where each was one. A block that opens its transaction (the
    first statements inside ``transaction.atomic``) sends the ``BEGIN`` with
    them (:func:`_begins_transaction`). An error in any of them is raised as
    Django's when the block ends, and the server runs nothing sent after it.
    Elsewhere than on PostgreSQL (SQLite, for ``make run``) each statement
    runs when sent.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    raw = connection.connection
    begins = _begins_transaction(connection)
    if begins:
        raw.autocommit = True  # no BEGIN of psycopg's own: the block sends it
    try:
        with connection.wrap_database_errors, raw.pipeline():
            if begins:
                raw.execute("BEGIN")
            yield
    finally:
        if begins and raw.pgconn.transaction_status == TransactionStatus.IDLE:
            raw.autocommit = False  # the BEGIN never ran: psycopg is to send it again


def _begins_transaction(connection: Any) -> bool:
    """Whether the next statement on ``connection`` (Django's) opens the
    transaction of an ``atomic`` block, with psycopg's plain ``BEGIN``.

    psycopg sends that ``BEGIN`` in a round trip of its own, pipeline or not,
    so that it knows the transaction is open before anything else is sent.
    :func:`one_trip` sends it with its statements instead: it turns psycopg's
    autocommit on before the block (psycopg then sends no ``BEGIN``) and
    sends its own first. psycopg keeps autocommit on until Django's
    ``COMMIT`` or ``ROLLBACK`` ends the transaction, which both send
    whatever the setting, and Django turns autocommit on after them anyway;
    meanwhile every statement runs in the transaction the ``BEGIN`` opened.
    """
    raw = connection.connection
    return (
        not connection.get_autocommit()
        and not raw.autocommit
        and raw.pgconn.transaction_status == TransactionStatus.IDLE
        and raw.pgconn.pipeline_status == PipelineStatus.OFF
        and raw.isolation_level is None
        and raw.read_only is None
        and raw.deferrable is None
    )


def _json_text(value: Any) -> str:
    return json_bytes(value).decode()


class CompiledUpdate(Generic[M]):
    """``UPDATE`` of some of a row's fields, found by its primary key and,
    optionally, the value one more field had when the row was read.

    ``update(obj, fields, where=(name, value))`` writes ``obj``'s ``fields``
    to its row if that row's ``name`` still equals ``value``, and says whether
    it did. The SQL for each list of fields is written once per process, and
    JSON fields are encoded by orjson (the values the ORM's encoder writes, in
    less time). Unlike ``Model.save`` it sends no signals: use it only for models
    that have no receivers, and fields with no ``pre_save`` of their own
    (``auto_now``).
    """

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._sql: dict[tuple[str, tuple[str, ...], str | None], str] = {}

    def __call__(
        self,
        obj: M,
        fields: Sequence[str],
        *,
        where: tuple[str, Any] | None = None,
        using: str = "default",
    ) -> bool:
        return self.send(obj, fields, where=where, using=using).written()

    def send(
        self,
        obj: M,
        fields: Sequence[str],
        *,
        where: tuple[str, Any] | None = None,
        using: str = "default",
    ) -> SentWrite:
        """Run the write; whether it wrote is asked of what this returns, after
        :func:`one_trip`'s block when it is sent inside one."""
        connection = connections[using]
        params: list[Any] = []
        for name in fields:
            field = self._field(name)
            value = getattr(obj, field.attname)
            if isinstance(field, JSONField) and value is not None:
                postgres = connection.vendor == "postgresql"
                params.append(Jsonb(value, dumps=_json_text) if postgres else _json_text(value))
            else:
                params.append(field.get_db_prep_save(value, connection))
        params.append(obj.pk)
        if where is not None:
            params.append(self._field(where[0]).get_db_prep_save(where[1], connection))
        key = (using, tuple(fields), None if where is None else where[0])
        sql = self._sql.get(key) or self._write_sql(key)
        cursor = connection.cursor()
        cursor.execute(sql, params)
        return SentWrite(cursor)

    def _field(self, name: str) -> Field[Any, Any]:
        field = self.model._meta.get_field(name)
        if not isinstance(field, Field) or field.column is None:
            raise ValueError(f"{name} is not a column of {self.model.__name__}")
        return field

    def _write_sql(self, key: tuple[str, tuple[str, ...], str | None]) -> str:
        using, fields, where = key
        quote = connections[using].ops.quote_name

        def column(name: str) -> str:
            return quote(str(self._field(name).column))

        sets = ", ".join(f"{column(name)} = %s" for name in fields)
        table, pk = quote(self.model._meta.db_table), column(self.model._meta.pk.name)
        sql = f"UPDATE {table} SET {sets} WHERE {pk} = %s"
        if where is not None:
            sql += f" AND {column(where)} = %s"
        self._sql[key] = sql
        return sql


class SentWrite:
    """A compiled write that has been sent."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor

    def written(self) -> bool:
        """Whether it wrote its row. Its count is back once sent alone, or once
        :func:`one_trip`'s block has ended: asked before, this is refused."""
        count = self.cursor.rowcount
        if count < 0:
            raise TransactionManagementError(
                "a write sent in one_trip() is known when the trip ends"
            )
        self.cursor.close()
        return bool(count == 1)
