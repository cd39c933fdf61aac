"""A player's past hands and one hand's page, with its replayer (being built)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def my_hands(request: HttpRequest) -> HttpResponse:
    raise Http404("The hand history is not built yet.")


def hand_detail(request: HttpRequest, hand_id: int) -> HttpResponse:
    raise Http404("The hand history is not built yet.")
