"""Top-level URL routes."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path
from django.views.generic import TemplateView

urlpatterns = [
    # The home page has no behaviour yet, so a template view is all it needs.
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
]
