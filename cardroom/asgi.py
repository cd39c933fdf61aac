"""ASGI entry point; a later release serves Cardroom through Daphne with this."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

application = get_asgi_application()
