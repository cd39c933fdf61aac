"""Top-level URL routes."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from tables import report_views

urlpatterns = [
    # The home page has no behaviour yet, so a template view is all it needs.
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("hands/", include("tables.history_urls")),
    # The staff reports, before admin.site.urls so the admin's catch-all doesn't
    # answer them first.
    path("admin/rake-report/", report_views.rake_report, name="rake_report"),
    path("admin/activity-report/", report_views.activity_report, name="activity_report"),
    path("admin/hand-search/", report_views.hand_search, name="hand_search"),
    path("admin/", admin.site.urls),
]
