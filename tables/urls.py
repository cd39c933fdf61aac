"""Routes under /tables/: the lobby, its poller's JSON and each table's page."""

from __future__ import annotations

from django.urls import path

from tables import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby.json", views.lobby_json, name="lobby_json"),
    path("<int:table_id>/", views.table_page, name="table"),
]
