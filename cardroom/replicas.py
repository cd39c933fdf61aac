"""Reads that a PostgreSQL read replica may answer: the hand history and the reports.

A move reads and writes the primary, always. The pages that only look back
(a player's hands, a hand's page, its downloads, the rake and activity reports,
the hand search) read many finished hands and change none; wrapped in
:func:`reads_from_replica`, their queries go to one of ``READ_REPLICAS`` (the
aliases ``DATABASE_REPLICA_URLS`` makes) when there are any. The login check
before the view still reads the primary, and every write goes to the primary.

A replica runs a little behind its primary. A list may lack the hands of the
last moments; a page the replica answers "not found" (the hand just ended) is
asked of the primary, which has the last word.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse

View = Callable[..., HttpResponse]

# The replica this request reads from, while a wrapped view runs; None: the primary.
_reading_from: ContextVar[str | None] = ContextVar("reading_from", default=None)


class ReplicaRouter:
    """Django's database router: reads go where :func:`reads_from_replica` says."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        return _reading_from.get()

    def db_for_write(self, model: type[Model], **hints: Any) -> str:
        # Not the alias an instance was read from, Django's own choice: a row
        # read from a replica is saved to the primary.
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool:
        return True  # every alias holds the same data

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS  # a replica copies its primary's schema


def reads_from_replica(view: View) -> View:
    """Run ``view``'s queries on a read replica, if any is configured; a
    "not found" from the replica is asked again of the primary."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        replicas: list[str] = settings.READ_REPLICAS
        if not replicas:
            return view(request, *args, **kwargs)
        token = _reading_from.set(random.choice(replicas))  # spreads load, no secret
        try:
            response = view(request, *args, **kwargs)
        except Http404:
            response = None
        finally:
            _reading_from.reset(token)
        if response is None or response.status_code == 404:
            return view(request, *args, **kwargs)
        return response

    return wrapped
