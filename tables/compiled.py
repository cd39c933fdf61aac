"""Hot reads whose SQL is compiled once per process.

The ORM turns a queryset into SQL each time it runs it. For the reads that
every change to a table makes (its latest hand, its seats, its waiting list)
that compiling was about half of each read's CPU time in the load benchmark.
A :class:`CompiledRead` compiles its queryset once, with a stand-in value for
its one parameter, then runs that SQL with each real value and builds the
model instances, ``select_related`` ones included, as the ORM's own iterator
builds them (``django.db.models.query.ModelIterable``). Its results are the
queryset's: ``tests/tables/test_compiled_reads.py`` holds them to it.

The moves' services lock and read their table, hand and seats the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet

# Django's own helper for select_related rows; internal, so django-stubs leaves it out.
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

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
        with connections[using].cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows: Any = cursor.fetchall()
        if plan.converters:
            rows = plan.compiler.apply_converters(rows, plan.converters)
        start, end = plan.fields
        found = []
        for row in rows:
            obj = plan.model.from_db(using, plan.names, row[start:end])
            for populator in plan.related:
                populator.populate(row, obj)
            found.append(obj)
        return found

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
            converters=compiler.get_converters([column[0] for column in select]),
            model=klass_info["model"],
            fields=(start, end),
            names=[column[0].target.attname for column in select[start:end]],
            related=get_related_populators(klass_info, select, using),
            locks=queryset.query.select_for_update,
        )
        self._plans[using] = plan
        return plan
