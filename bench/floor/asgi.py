"""The floor's ASGI application: websockets only, at the real site's table path."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
get_asgi_application()  # Django set up: the session store and users, for the login

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path  # noqa: E402

from bench.floor.consumer import FloorConsumer  # noqa: E402
from cardroom.collector import collect_on_a_clock  # noqa: E402
from cardroom.sockets import quiet_autobahn_frames, websocket_auth  # noqa: E402

# Typed as tables/routing.py explains: django-stubs takes path()'s view for an HTTP one.
table_path = path("ws/tables/<int:table_id>/", FloorConsumer.as_asgi())  # type: ignore[arg-type]
# The login and the frames as the real site's (cardroom/sockets.py): the least
# the stack can do pays for neither more than the site does.
application = ProtocolTypeRouter(
    {"websocket": websocket_auth(URLRouter([table_path]))}  # type: ignore[list-item]
)
quiet_autobahn_frames()

# As cardroom/asgi.py: what is loaded by now lives as long as the process, so
# the collector's full passes leave it alone, and it runs on the same clock.
gc.freeze()
collect_on_a_clock(full_pass_seconds=settings.GC_FULL_PASS_SECONDS)
