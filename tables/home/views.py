"""The pages of home games: opening one, the invite link's page, the host's
new link, the host's change of the game, and the books as a CSV file. Each
parses the request, calls one service (or selector) and renders, redirects
or sends the file."""

from __future__ import annotations

import copy
import csv
from collections.abc import Iterator
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.addresses import client_address
from tables import broadcast, services
from tables.forms import HomeGameForm
from tables.home.forms import HomeChangeForm
from tables.models import HomeRules
from tables.names import as_sentence
from tables.reports.queries import spreadsheet_safe
from tables.selectors.home_ledger import HOUSE, Books, LedgerFigures, home_books
from tables.selectors.tables import tables_visible_to
from tables.services.home import HomeGame, NotFound
from tables.services.home_changes import (
    HomeChange,
    SeatsTaken,
    change_waiting,
    home_again_initial,
    home_change_initial,
    home_host_table,
)

if TYPE_CHECKING:
    from accounts.http import AuthenticatedHttpRequest


@login_required
def home_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The form that opens a home game; the host lands at its table, link in hand."""
    form = HomeGameForm(request.POST or None, rules=HomeRules.current())
    if request.method == "POST" and form.is_valid():
        try:
            table = services.home_game_open(host_id=request.user.pk, game=_home_game(form))
        except services.ServiceError as exc:
            form.add_error(None, as_sentence(exc))
        else:
            messages.success(request, "Your home game is open: send your friends its link.")
            return redirect("table", table_id=table.pk)
    return render(request, "home/new.html", {"form": form})


@login_required
def home_again(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host's closed home game dealt again: the new-game form, filled in
    with the game as it ended, which opens a new game for the same players."""
    try:
        closed = services.home_again_table(table_id=table_id, player_id=request.user.pk)
    except NotFound:
        raise Http404("No such table.") from None
    except services.ServiceError as exc:
        messages.error(request, as_sentence(exc))
        return redirect("table", table_id=table_id)
    initial = home_again_initial(closed)
    form = HomeGameForm(request.POST or None, rules=HomeRules.current(), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.home_game_again(
                host_id=request.user.pk, table_id=table_id, game=_home_game(form)
            )
        except NotFound:
            raise Http404("No such table.") from None
        except services.ServiceError as exc:
            form.add_error(None, as_sentence(exc))
        else:
            messages.success(
                request,
                f"Your home game is open again: everyone who played {closed.name} is in it. "
                "Send its new link to anyone new.",
            )
            return redirect("table", table_id=table.pk)
    return render(request, "home/new.html", {"form": form, "again": closed})


def _home_game(form: HomeGameForm) -> HomeGame:
    """The home game a valid form chose."""
    data = form.cleaned_data
    return HomeGame(
        name=data["name"],
        stakes=form.instance,
        policy=data["policy"],
        variants=data["games"],
        rotate_hands=data.get("rotate_hands") or 0,
        seat_approval=data["seat_approval"],
    )


def home_join(request: HttpRequest) -> HttpResponse:
    """The invite link's page, ``/home/join/#<code>``: its script posts the code
    from the fragment (which never reaches a server) and follows the answer."""
    if request.method == "POST":
        return _redeem(request)
    return render(request, "home/join.html")


def _redeem(request: HttpRequest) -> JsonResponse:
    """A code posted by the join page: the table's address, or "not found"."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Log in to join a home game."}, status=403)
    try:
        table = services.home_invite_redeem(
            player_id=request.user.pk,
            code=request.POST.get("code", ""),
            address=client_address(request),
        )
    except NotFound as exc:
        return JsonResponse({"error": as_sentence(exc)}, status=404)
    return JsonResponse({"url": reverse("table", args=[table.pk])})


@require_POST
@login_required
def home_invite_renew(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host's new invite link; the old one stops working."""
    try:
        services.home_invite_renew(table_id=table_id, player_id=request.user.pk)
    except NotFound:
        raise Http404("No such table.") from None
    except services.ServiceError as exc:
        messages.error(request, as_sentence(exc))
    else:
        messages.success(request, "A new invite link: the old one no longer works.")
    return redirect("table", table_id=table_id)


@login_required
def home_change(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host's change of the games, sizes or clock for the next hand: the
    new-game form, filled in with the game as it stands. Made at once with no
    hand in play, else when the hand ends; the table is told either way."""
    try:
        table = home_host_table(table_id=table_id, player_id=request.user.pk)
    except NotFound:
        raise Http404("No such table.") from None
    except services.ServiceError as exc:
        messages.error(request, as_sentence(exc))
        return redirect("table", table_id=table_id)
    form = HomeChangeForm(
        request.POST or None,
        rules=HomeRules.current(),
        # A copy: the form writes the choices into it, and the table's row
        # changes only when the change is made.
        instance=copy.copy(table.stakes),
        initial=home_change_initial(table),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        change = HomeChange(
            stakes=form.instance,
            policy=data["policy"],
            variants=data["games"],
            rotate_hands=data.get("rotate_hands") or 0,
        )
        try:
            stored = services.home_change(
                table_id=table_id, player_id=request.user.pk, change=change
            )
        except NotFound:
            raise Http404("No such table.") from None
        except SeatsTaken as exc:
            form.add_error("seats", as_sentence(exc))
        except services.ServiceError as exc:
            form.add_error(None, as_sentence(exc))
        else:
            broadcast.table_changed(table_id)
            when = "from the next hand" if stored["applied"] else "when the hand in play ends"
            messages.success(request, f"The game changes {when}: {stored['words']}.")
            return redirect("table", table_id=table_id)
    context = {"form": form, "table": table, "waiting": change_waiting(table)}
    return render(request, "home/change.html", context)


def home_ledger_csv(request: HttpRequest, table_id: int) -> HttpResponse:
    """A home game's books as a CSV file, for its host, its members (seated or
    not, even after they have left) and staff; anyone else is told the table
    doesn't exist, as by its page."""
    user = request.user
    visible = tables_visible_to(user.pk, staff=user.is_staff).filter(host__isnull=False)
    if not visible.filter(pk=table_id).exists():
        raise Http404("No such table.")
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="home-game-{table_id}-ledger.csv"'},
    )
    csv.writer(response).writerows(_ledger_csv_rows(home_books(table_id)))
    return response


FIGURES = ["Bought in", "Topped up", "Cashed out", "On the table", "Net"]


def _ledger_csv_rows(books: Books) -> Iterator[list[str | int]]:
    """A row per player, the totals, then who pays whom; names as a spreadsheet
    shows them, never as formulas (a display name is the player's to type)."""
    yield ["Player", "Username", *FIGURES]
    for row in books.rows:
        yield [spreadsheet_safe(row.name), spreadsheet_safe(row.username), *_numbers(row)]
    yield ["Total", "", *_numbers(books.totals)]
    if books.rake:
        yield ["Rake taken", "", "", "", "", "", books.rake]
    yield []
    yield ["Pays", "To", "Chips"]
    for payment in books.payments:
        payee = HOUSE if payment.payee_id is None else spreadsheet_safe(payment.payee)
        yield [spreadsheet_safe(payment.payer), payee, payment.amount]


def _numbers(figures: LedgerFigures) -> list[str | int]:
    return [
        figures.bought_in,
        figures.topped_up,
        figures.cashed_out,
        figures.on_table,
        figures.net,
    ]
