"""Top-level URL routes."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from tables.views import rake_report

urlpatterns = [
    # The home page has no behaviour yet, so a template view is all it needs.
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("hands/", include("tables.history_urls")),
    # Before admin.site.urls so the admin's catch-all doesn't answer it first.
    path("admin/rake-report/", rake_report, name="rake_report"),
    path("admin/", admin.site.urls),
]
