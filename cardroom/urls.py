"""Top-level URL routes."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from tables.reports import views as report_views

ADMIN = settings.ADMIN_URL

urlpatterns = [
    # The home page has no behaviour yet, so a template view is all it needs.
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("home/", include("tables.home.urls")),
    path("hands/", include("tables.history.urls")),
    # The staff reports, before admin.site.urls so the admin's catch-all doesn't
    # answer them first.
    path(f"{ADMIN}rake-report/", report_views.rake_report, name="rake_report"),
    path(f"{ADMIN}activity-report/", report_views.activity_report, name="activity_report"),
    path(f"{ADMIN}hand-search/", report_views.hand_search, name="hand_search"),
    path(f"{ADMIN}chip-audit/", report_views.chip_audit_page, name="chip_audit"),
    path(ADMIN, admin.site.urls),
    # Browsers ask for it on pages that link no icon, such as the admin's.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
]
