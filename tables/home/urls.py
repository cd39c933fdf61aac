"""Routes under /home/: opening a home game, joining one by its link, and
the host's pages for it."""

from __future__ import annotations

from django.urls import path

from tables.home import views

urlpatterns = [
    path("new/", views.home_new, name="home_new"),
    path("join/", views.home_join, name="home_join"),
    path("<int:table_id>/invite/", views.home_invite_renew, name="home_invite_renew"),
    path("<int:table_id>/change/", views.home_change, name="home_change"),
    path("<int:table_id>/again/", views.home_again, name="home_again"),
    path("<int:table_id>/ledger.csv", views.home_ledger_csv, name="home_ledger_csv"),
]
