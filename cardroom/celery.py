"""The Celery app: workers and beat run it with ``celery -A cardroom ...``.

Configuration is the ``CELERY_*`` settings in ``cardroom/settings.py``, so the
broker, serializers and time limits come from the same environment as Django.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app (tables.tasks, ...).
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _database_connections_kept_fresh(**kwargs: Any) -> None:
    """Around each task, drop a database connection that is too old or broken.

    What Django does around each request (``CONN_MAX_AGE``, health checks);
    Celery's own closing is held back by ``CELERY_DB_REUSE_MAX``.
    """
    from django.db import close_old_connections

    close_old_connections()


@worker_init.connect
def _notices_on_one_loop(**kwargs: Any) -> None:
    """A worker's tasks send their change notices on one event loop of the
    process's own, not a new one each (``tables.broadcast.NoticeLoop``).
    Prefork's processes, forked after this, each start their own."""
    from tables.broadcast import NOTICE_LOOP

    NOTICE_LOOP.use()
