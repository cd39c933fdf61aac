"""Websocket routes, mounted under the ASGI app's websocket router."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.urls import path

from tables.consumers import LobbyConsumer, TableConsumer

if TYPE_CHECKING:
    from channels.consumer import AsyncConsumer
    from channels.routing import URLRouter, _ExtendedURLPattern


def _consumer_path(route: str, consumer: type[AsyncConsumer]) -> _ExtendedURLPattern:
    """Django's ``path()`` to a consumer, typed as the channels stubs' pattern.

    ``path()`` takes any callable, and Channels routes ASGI apps with it, but
    django-stubs types its view as an HTTP view only: that one argument is
    ignored, and the pattern cast to the one whose callback is an ASGI app.
    """
    pattern = path(route, consumer.as_asgi())  # type: ignore[arg-type]
    return cast("_ExtendedURLPattern", pattern)


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    _consumer_path("ws/lobby/", LobbyConsumer),
    _consumer_path("ws/tables/<int:table_id>/", TableConsumer),
]
