"""Hot reads whose SQL is compiled once per process.

The ORM turns a queryset into SQL each time it runs it. For the reads that
every change to a table makes (its latest hand, its seats, its waiting list)
that compiling was about half of each read's CPU time in the load benchmark.
A :class:`CompiledRead` compiles its queryset once, with a stand-in value for
its one parameter, then runs that SQL with each real value and builds the
model instances, ``select_related`` ones included, as the ORM's own iterator
builds them (``django.db.models.query.ModelIterable``). Its results are the
queryset's: ``tests/tables/test_compiled_reads.py`` holds them to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

# A value no row has, looked for among the compiled parameters and swapped for
# the real one at each run.
STAND_IN = -918_273_645


@dataclass(frozen=True)
class _Plan(Generic[M]):
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int, ...]  # where the stand-in sits among ``params``
    compiler: Any
    converters: dict[int, Any]
    model: type[M]
    fields: tuple[int, int]  # the model's own columns: row[start:end]
    names: list[str]  # their attribute names, for Model.from_db
    related: list[Any]  # one populator per select_related model


class CompiledRead(Generic[M]):
    """``build(value)`` is the queryset; ``read(value)`` its rows as instances."""

    def __init__(self, build: Callable[[int], QuerySet[M]]) -> None:
        self.build = build
        self._plans: dict[str, _Plan[M]] = {}  # by database alias

    def __call__(self, value: int, *, using: str = "default") -> list[M]:
        plan = self._plans.get(using) or self._plan(using)
        params = list(plan.params)
        for slot in plan.slots:
            params[slot] = value
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
        queryset = self.build(STAND_IN)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        slots = tuple(i for i, param in enumerate(params) if param == STAND_IN)
        if not slots:
            raise ValueError("the queryset doesn't use its parameter")
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
        )
        self._plans[using] = plan
        return plan
