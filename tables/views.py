"""The lobby and the table page. The staff reports are in ``tables.reports.views``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tables.models import Stakes, Table
from tables.rules import IllegalAction
from tables.rules.games import how_it_plays
from tables.selectors.lobby import STATS_WINDOW, LobbyFilter, lobby_rows
from tables.selectors.snapshots import build_snapshot, read_table
from tables.selectors.tables import home_game_rows, tables_visible_to

# --------------------------------------------------------------------- the lobby


def lobby(request: HttpRequest) -> HttpResponse:
    form = LobbyFilter(request.GET)
    filters = form.valid_filters()
    context = {
        "form": form,
        "ignored": _ignored_filters(form),
        "tables": lobby_rows(**filters, viewer_id=request.user.pk),
        "home_games": home_game_rows(request.user.pk),
        "stats_minutes": int(STATS_WINDOW.total_seconds() // 60),
    }
    return render(request, "tables/lobby.html", context)


def lobby_json(request: HttpRequest) -> JsonResponse:
    """The lobby's rows for the page's poller, with the same filters as the page."""
    form = LobbyFilter(request.GET)
    rows = lobby_rows(**form.valid_filters(), viewer_id=request.user.pk)
    mine = home_game_rows(request.user.pk)
    return JsonResponse({"tables": rows, "home_games": mine, "ignored": _ignored_filters(form)})


def _ignored_filters(form: LobbyFilter) -> list[str]:
    return [f"{name}={form.data.get(name)!r}" for name in form.errors]


# --------------------------------------------------------------------- one table


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's frame, and the game of the hand being dealt: its words, how
    it plays, and at a mixed table what is coming. The page's first paint
    says them in the snapshot's own words; everything else, and every change,
    arrives over the websocket."""
    user = request.user
    visible = tables_visible_to(user.pk, staff=user.is_staff)
    table = get_object_or_404(visible.select_related("stakes", "stakes__rake"), pk=table_id)
    game = _game_now(table)
    context = {
        "table": table,
        "stakes": table.stakes,
        "invite_url": _invite_url(request, table),
        "game": game,
        "mix_words": game["mix"]["words"] if game["mix"] else "",
    }
    return render(request, "tables/table.html", context)


def _invite_url(request: HttpRequest, table: Table) -> str | None:
    """A home game's invite link, for its host alone: the code in the fragment."""
    if table.host_id is None or table.host_id != request.user.pk or not table.is_open:
        return None
    return request.build_absolute_uri(reverse("home_join")) + "#" + table.invite_code


def _game_now(table: Table) -> dict[str, Any]:
    """The snapshot's part about the table, as an observer gets it: its
    ``stakes``, ``rules`` and ``mix`` follow the hand being dealt."""
    rows = read_table(table.pk)
    if rows is None:  # deleted since: the page says the table's own game
        return {
            "stakes": table.stakes.describe(),
            "rules": _how_it_plays(table.stakes),
            "mix": None,
        }
    shown: dict[str, Any] = build_snapshot(rows, None, None, with_events=False).payload["table"]
    return shown


def _how_it_plays(stakes: Stakes) -> tuple[str, ...]:
    """The panel's words for the stakes' game, or none for stakes saved
    without ``clean()`` that the engine refuses (the page still opens)."""
    try:
        return how_it_plays(stakes.game_config())
    except IllegalAction:
        return ()
