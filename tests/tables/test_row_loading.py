"""Rows load into instances as Django's own ``Model.from_db`` makes them
(``cardroom.rows.RowLoaded``): the same values, the same deferred columns,
saved as updates, and seen by whoever listens to ``post_init``."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, models
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from cardroom.rows import RowLoaded
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def columns(obj: models.Model) -> dict[str, Any]:
    """Every column the instance holds, deferred ones left out."""
    deferred = obj.get_deferred_fields()
    return {
        f.attname: obj.__dict__[f.attname]
        for f in obj._meta.concrete_fields
        if f.attname not in deferred
    }


def djangos(model: type[models.Model], names: list[str], values: list[Any]) -> models.Model:
    """The instance Django's own ``from_db`` makes of the same row."""
    return super(RowLoaded, model).from_db("default", names, values)  # type: ignore[misc]


@pytest.fixture
def seat(seated: Table, alice: User) -> Seat:
    return Seat.objects.get(table=seated, player=alice)


def test_a_row_loads_into_the_instance_djangos_from_db_makes(seat: Seat) -> None:
    names = [f.attname for f in Seat._meta.concrete_fields]
    values = list(Seat.objects.filter(pk=seat.pk).values_list(*names).get())
    ours, theirs = Seat.from_db("default", names, values), djangos(Seat, names, values)
    assert type(ours) is Seat
    assert columns(ours) == columns(theirs) and columns(ours)["stack"] == 200
    assert (ours._state.adding, ours._state.db) == (theirs._state.adding, theirs._state.db)
    assert ours.player == seat.player  # the foreign key's id leads to its row


def test_related_rows_read_with_it_load_the_same_way(seated: Table) -> None:
    read = Seat.objects.select_related("player", "table__stakes").filter(table=seated)
    with CaptureQueriesContext(connection) as queries:
        seats = list(read)
        names = sorted(s.player.username for s in seats)
        stakes = {s.table.stakes.name for s in seats}
    assert len(queries.captured_queries) == 1  # the related rows came with the seats
    assert names == ["alice", "bob"] and stakes == {seated.stakes.name}
    assert all(isinstance(s.player, User) and not s.player._state.adding for s in seats)


def test_a_column_not_read_is_deferred_and_read_when_asked(seat: Seat) -> None:
    partial = Seat.objects.only("stack").get(pk=seat.pk)
    assert "state" in partial.get_deferred_fields() and "state" not in partial.__dict__
    assert partial.__dict__["stack"] == 200
    with CaptureQueriesContext(connection) as queries:
        assert partial.state == seat.state
    assert len(queries.captured_queries) == 1


def test_a_loaded_row_saves_as_an_update_of_that_row(seat: Seat) -> None:
    loaded = Seat.objects.get(pk=seat.pk)
    loaded.stack = 150
    with CaptureQueriesContext(connection) as queries:
        loaded.save()
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
    assert Seat.objects.get(pk=seat.pk).stack == 150
    assert Seat.objects.count() == 2  # nothing inserted


def test_a_post_init_receiver_hears_of_every_row_loaded(seated: Table) -> None:
    heard: list[models.Model] = []

    def listen(sender: type[models.Model], instance: models.Model, **kwargs: Any) -> None:
        heard.append(instance)

    post_init.connect(listen, sender=Seat)
    try:
        seats = list(Seat.objects.filter(table=seated))
    finally:
        post_init.disconnect(listen, sender=Seat)
    assert heard == seats and len(seats) == 2
    assert all(not s._state.adding and s._state.db == "default" for s in seats)
