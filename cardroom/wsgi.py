"""WSGI entry point, for servers that speak WSGI only."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

application = get_wsgi_application()
