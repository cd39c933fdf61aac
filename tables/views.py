"""The lobby and the table page. The staff reports are in ``tables.report_views``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from tables.lobby import STATS_WINDOW, LobbyFilter, lobby_rows
from tables.models import Table

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
