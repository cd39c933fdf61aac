"""Websocket routes, mounted under the ASGI app's websocket router."""

from __future__ import annotations

from django.urls import path

from tables.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
