"""The pages of home games: opening one, the invite link's page, and the host's
new link. Each parses the request, calls one service and renders or redirects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.addresses import client_address
from tables import services
from tables.forms import HomeGameForm
from tables.models import HomeRules
from tables.services.home import HomeGame, NotFound

if TYPE_CHECKING:
    from accounts.http import AuthenticatedHttpRequest


@login_required
def home_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The form that opens a home game; the host lands at its table, link in hand."""
    form = HomeGameForm(request.POST or None, rules=HomeRules.current())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        game = HomeGame(
            name=data["name"],
            stakes=form.instance,
            policy=data["policy"],
            variants=data["games"],
            rotate_hands=data.get("rotate_hands") or 0,
        )
        try:
            table = services.home_game_open(host_id=request.user.pk, game=game)
        except services.ServiceError as exc:
            form.add_error(None, str(exc)[:1].upper() + str(exc)[1:] + ".")
        else:
            messages.success(request, "Your home game is open: send your friends its link.")
            return redirect("table", table_id=table.pk)
    return render(request, "home/new.html", {"form": form})


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
        return JsonResponse({"error": str(exc)[:1].upper() + str(exc)[1:] + "."}, status=404)
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
        messages.error(request, str(exc)[:1].upper() + str(exc)[1:] + ".")
    else:
        messages.success(request, "A new invite link: the old one no longer works.")
    return redirect("table", table_id=table_id)
