"""The lobby, the table page and the staff rake report."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from tables.lobby import STATS_WINDOW, LobbyFilter, lobby_rows
from tables.models import RakeEntry, Table

DATE_ERRORS = {"invalid": "Enter a real date as YYYY-MM-DD, such as 2025-03-01."}


class RakeReportFilter(forms.Form):
    """An optional date range, both ends included, in the site's time zone."""

    start = forms.DateField(
        required=False,
        label="From",
        error_messages=DATE_ERRORS,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = forms.DateField(
        required=False,
        label="To",
        error_messages=DATE_ERRORS,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            raise forms.ValidationError(f"The range ends ({end}) before it starts ({start}).")
        return cleaned


@staff_member_required
def rake_report(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm("tables.view_rakeentry"):
        raise PermissionDenied
    # Bound even with no parameters: both ends are optional, so that is the whole history.
    form = RakeReportFilter(request.GET)
    entries = RakeEntry.objects.all()
    report = rake_totals(_in_range(entries, **form.cleaned_data)) if form.is_valid() else None
    context = {
        **admin.site.each_context(request),
        "title": "Rake report",
        "form": form,
        "report": report,
        "time_zone": timezone.get_current_timezone_name(),
    }
    return render(request, "admin/rake_report.html", context)


def _in_range(
    entries: QuerySet[RakeEntry], *, start: datetime.date | None, end: datetime.date | None
) -> QuerySet[RakeEntry]:
    if start:
        entries = entries.filter(created_at__date__gte=start)
    if end:
        entries = entries.filter(created_at__date__lte=end)
    return entries


def rake_totals(entries: QuerySet[RakeEntry]) -> dict[str, Any]:
    """Rake and hand counts per day, per stakes, per table and overall, summed in the DB."""
    sums = {"rake": Sum("amount", default=0), "hands": Count("id")}
    return {
        "by_day": entries.annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(**sums)
        .order_by("day"),
        "by_stakes": entries.values("stakes_id", "stakes__name")
        .annotate(**sums)
        .order_by("stakes__name"),
        "by_table": entries.values("table_id", "table__name")
        .annotate(**sums)
        .order_by("table__name"),
        "total": entries.aggregate(**sums),
    }


# --------------------------------------------------------------------- the lobby


def lobby(request: HttpRequest) -> HttpResponse:
    form = LobbyFilter(request.GET)
    filters = form.valid_filters()
    context = {
        "form": form,
        "ignored": _ignored_filters(form),
        "tables": lobby_rows(**filters),
        "stats_minutes": int(STATS_WINDOW.total_seconds() // 60),
    }
    return render(request, "tables/lobby.html", context)


def lobby_json(request: HttpRequest) -> JsonResponse:
    """The lobby's rows for the page's poller, with the same filters as the page."""
    form = LobbyFilter(request.GET)
    rows = lobby_rows(**form.valid_filters())
    return JsonResponse({"tables": rows, "ignored": _ignored_filters(form)})


def _ignored_filters(form: LobbyFilter) -> list[str]:
    return [f"{name}={form.data.get(name)!r}" for name in form.errors]


# --------------------------------------------------------------------- one table


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's frame; everything about the game arrives over the websocket."""
    table = get_object_or_404(Table.objects.select_related("stakes"), pk=table_id)
    return render(request, "tables/table.html", {"table": table, "stakes": table.stakes})
