"""ASGI entry point: Daphne serves HTTP through Django and websockets through Channels."""

from __future__ import annotations

import gc
import os
import sys

from django.core.asgi import get_asgi_application

from cardroom.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

# Set Django up before importing anything that imports models (the consumers).
django_asgi_app = get_asgi_application()
# Commands may run without a signing key; a server never starts without one.
require_secret_key()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from cardroom.collector import collect_on_a_clock  # noqa: E402
from cardroom.origin import SiteOriginValidator  # noqa: E402
from cardroom.sockets import quiet_autobahn_frames, websocket_auth  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers send cookies with cross-site websocket handshakes, so a page on
        # another site could act as the player: only this site's origin gets in
        # (scheme, host and port; cardroom/origin.py). The session and the user
        # are read once, at the handshake (cardroom/sockets.py).
        "websocket": SiteOriginValidator(websocket_auth(URLRouter(websocket_urlpatterns))),
    }
)
quiet_autobahn_frames()  # no colored debug line made for each frame sent or received

# What is loaded by now lives as long as the process: the collector's full
# passes leave it alone. From here on the collector runs on a clock, a few ms
# at a time, rather than stopping every table the process serves for hundreds
# of ms whenever its counts say (cardroom/collector.py).
gc.freeze()
collect_on_a_clock(full_pass_seconds=settings.GC_FULL_PASS_SECONDS)

# A move's queries run in a thread of the database pool (tables.consumers.base)
# while the event loop builds everyone's snapshots. Each time a query answers,
# the thread waits for the loop to give up the GIL, which by default the loop
# keeps for up to 5 ms: about ten waits a move at a busy table. Handing it over
# every half millisecond instead took the load benchmark's median move at 300
# tables from 176 ms to 66 ms in one pair of runs, for the same CPU
# (bench/README.md).
sys.setswitchinterval(0.0005)
