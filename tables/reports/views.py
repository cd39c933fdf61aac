"""Staff report pages: rake (with its CSV), activity, hand search and the chip audit.

Each view checks staff and a model permission, reads its filter form, and hands
the figures from ``tables.reports.queries`` to a template. Bad filter input shows the
form's messages instead of a report.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django import forms
from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.models import User
from cardroom.replicas import reads_from_replica
from tables.forms import DateRangeForm
from tables.models import VARIANT_CHOICES, Stakes, Table
from tables.reports import queries
from tables.reports.chart import bar_chart
from tables.selectors.audit import chip_audit

CHOICE_ERRORS = {"invalid_choice": "That %(what)s no longer exists; choose another."}
HANDS_PER_PAGE = 50

View = Callable[..., HttpResponse]
M = TypeVar("M", bound=Model)


def staff_report(permission: str) -> Callable[[View], View]:
    """Staff only (others go to the admin's login), and staff with ``permission``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.has_perm(permission):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return staff_member_required(checked)

    return decorate


def _choice_field(queryset: QuerySet[M], what: str, empty: str) -> forms.ModelChoiceField[M]:
    messages = {"invalid_choice": CHOICE_ERRORS["invalid_choice"] % {"what": what}}
    return forms.ModelChoiceField(
        queryset, required=False, empty_label=empty, error_messages=messages
    )


class ReportFilter(DateRangeForm):
    """The dates, and optionally one stakes or one table, that a report covers."""

    stakes = _choice_field(Stakes.objects.order_by("name"), "stakes", "All stakes")
    table = _choice_field(Table.objects.order_by("name"), "table", "All tables")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        stakes, table = cleaned.get("stakes"), cleaned.get("table")
        if stakes and table and table.stakes_id != stakes.pk:
            # Both at once would show an empty report, which reads like "no play".
            raise forms.ValidationError(
                f"{table.name} plays {table.stakes.name}, not {stakes.name}: "
                "choose that table or those stakes."
            )
        return cleaned

    def scope(self) -> queries.Scope:
        return queries.Scope(**self.cleaned_data)


class HandSearchForm(DateRangeForm):
    player = forms.CharField(required=False, max_length=150, label="Player")
    table = _choice_field(Table.objects.order_by("name"), "table", "All tables")
    variant = forms.ChoiceField(
        required=False, label="Game", choices=[("", "All games"), *VARIANT_CHOICES]
    )

    field_order = ["player", "table", "variant", "start", "end"]

    def clean_player(self) -> User | None:
        name = self.cleaned_data["player"].strip()
        if not name:
            return None
        # Sign-up keeps usernames unique whatever their case; prefer the exact one.
        found = sorted(User.objects.filter(username__iexact=name), key=lambda u: u.username != name)
        if not found:
            raise forms.ValidationError(f"No player is called {name!r}.")
        return found[0]

    def query(self) -> queries.HandQuery:
        return queries.HandQuery(**self.cleaned_data)


def _page(request: HttpRequest, template: str, title: str, **context: Any) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        "title": title,
        "time_zone": timezone.get_current_timezone_name(),
        **context,
    }
    return render(request, template, context)


@staff_report("tables.view_rakeentry")
@reads_from_replica
def rake_report(request: HttpRequest) -> HttpResponse:
    """Rake per day, week, stakes and table, as a page or (``?format=csv``) a CSV file."""
    # Bound even with no parameters: every filter is optional, so that is all the rake.
    form = ReportFilter(request.GET)
    report = queries.rake_report(form.scope()) if form.is_valid() else None
    if report is not None and request.GET.get("format") == "csv":
        return _rake_csv(report, form.scope())
    chart = report and report.chart
    return _page(
        request,
        "admin/rake_report.html",
        "Rake report",
        form=form,
        report=report,
        chart=chart and bar_chart(chart.bars, chart.axes, chart_id="rake-chart"),
        csv_query=_with(request, format="csv"),
    )


def _rake_csv(report: queries.RakeReport, scope: queries.Scope) -> HttpResponse:
    name = f"rake-{scope.start or 'start'}-to-{scope.end or timezone.localdate()}.csv"
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
    csv.writer(response).writerows(queries.rake_csv_rows(report))
    return response


def _with(request: HttpRequest, **params: str) -> str:
    """The request's query string with ``params`` set."""
    query = request.GET.copy()
    for key, value in params.items():
        query[key] = value
    return query.urlencode()


@staff_report("tables.view_hand")
@reads_from_replica
def activity_report(request: HttpRequest) -> HttpResponse:
    """Hands per hour and players active, per day, hour of day, stakes and table."""
    form = ReportFilter(request.GET)
    # Bound even with no parameters: every filter is optional, so that is every hand.
    scope = form.scope() if form.is_valid() else None
    report = queries.activity_report(scope) if scope else None
    chart = report and report.chart
    return _page(
        request,
        "admin/activity_report.html",
        "Activity report",
        form=form,
        scope=scope,
        report=report,
        chart=chart and bar_chart(chart.bars, chart.axes, chart_id="hours-chart"),
    )


@staff_report("tables.view_hand")
@reads_from_replica
def hand_search(request: HttpRequest) -> HttpResponse:
    """Finished hands by player, table and dates, the latest first, a page at a time."""
    form = HandSearchForm(request.GET)
    page = rows = None
    if form.is_valid():
        query = form.query()
        ids = queries.hands_found(query).values_list("id", flat=True)
        page = Paginator(ids, HANDS_PER_PAGE).get_page(request.GET.get("page"))
        hands = queries.hands_listed(list(page.object_list))
        rows = [queries.hand_row(hand, query.player) for hand in hands]
    return _page(
        request,
        "admin/hand_search.html",
        "Hand search",
        form=form,
        page=page,
        rows=rows,
        player=form.cleaned_data.get("player") if form.is_valid() else None,
    )


@staff_report("accounts.view_chiptransfer")
def chip_audit_page(request: HttpRequest) -> HttpResponse:
    """The chip audit, the very one ``manage.py audit_chips`` runs."""
    return _page(request, "admin/chip_audit.html", "Chip audit", audit=chip_audit())
