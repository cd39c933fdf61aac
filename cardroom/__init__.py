"""The Cardroom project package.

The Celery app is loaded with Django so that ``@shared_task`` functions bind to it
and ``.delay()`` from a view or service uses the configured broker.
"""

from __future__ import annotations

from cardroom.celery import app as celery_app

__all__ = ["celery_app"]
