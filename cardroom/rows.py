"""Model instances made from database rows without ``Model.__init__``.

Django makes every row it reads into an instance through ``Model.from_db``,
which pads the values to every column and calls ``Model.__init__``: two
signals sent and each field set through ``setattr``. A move reads about
twenty rows (the table's, its seats' and players', the hand's) and another
Daphne process unpacks as many from the move's notice. In the load
benchmark building them was about 4% of the server's Python time, and
Django's way costs two to three and a half times what filling the new
instance's ``__dict__`` does (``bench/rows.py``). Django documents
``from_db`` as the hook for customising how rows load.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Self

from django.db import models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init


class RowLoaded(models.Model):
    """A model whose rows load straight into the instance's attributes.

    The instance is the one ``Model.from_db`` would make: the values read,
    set by their attribute names (a column not read stays deferred), marked
    as loaded from ``db``. While any receiver listens to ``pre_init`` or
    ``post_init``, Django's own way is taken, so that they hear of it.
    """

    class Meta:
        abstract = True

    @classmethod
    def from_db(cls, db: str | None, field_names: Collection[str], values: Collection[Any]) -> Self:
        if pre_init.receivers or post_init.receivers:
            return super().from_db(db, field_names, values)
        new = cls.__new__(cls)
        state = new._state = ModelState()
        state.adding, state.db = False, db
        # Each name is a column's attribute name: a plain attribute, or a
        # descriptor (a foreign key's id) whose setter on a new instance stores
        # the value in __dict__ and nothing else.
        new.__dict__.update(zip(field_names, values, strict=True))
        return new
