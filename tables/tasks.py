"""Celery tasks for the tables app."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping() -> str:
    """Answer ``"pong"``: proof that a worker is taking tasks from the broker."""
    return "pong"
