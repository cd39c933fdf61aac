"""The tables app: seats, hands and the rooms players sit in."""

from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"

    def ready(self) -> None:
        from tables import signals  # noqa: F401  (connects the receivers)
