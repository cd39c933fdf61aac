"""The Celery app: workers and beat run it with ``celery -A cardroom ...``.

Configuration is the ``CELERY_*`` settings in ``cardroom/settings.py``, so the
broker, serializers and time limits come from the same environment as Django.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app (tables.tasks, ...).
app.autodiscover_tasks()
