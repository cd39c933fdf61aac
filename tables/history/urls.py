"""Routes under /hands/: a player's past hands, one hand's page and the exports."""

from __future__ import annotations

from django.urls import path

from tables.history import export_views, views

urlpatterns = [
    path("", views.my_hands, name="my_hands"),
    path("<int:hand_id>/", views.hand_detail, name="hand_detail"),
    # fmt: "phh" (PHH) or "txt" (PokerStars-style text).
    path("<int:hand_id>/export.<str:fmt>", export_views.export_hand, name="export_hand"),
    # fmt: "phhs" (many PHH hands) or "txt"; the range comes in the query string.
    path("export.<str:fmt>", export_views.export_hands, name="export_hands"),
]
