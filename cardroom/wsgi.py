"""WSGI entry point, for servers that speak WSGI only."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from cardroom.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

application = get_wsgi_application()
# Commands may run without a signing key; a server never starts without one.
require_secret_key()
