"""Hand history downloads in PHH and PokerStars-style text (being built)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def export_hand(request: HttpRequest, hand_id: int, fmt: str) -> HttpResponse:
    raise Http404("Hand exports are not built yet.")


def export_hands(request: HttpRequest, fmt: str) -> HttpResponse:
    raise Http404("Hand exports are not built yet.")
