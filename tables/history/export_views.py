"""Hand history downloads in PHH and PokerStars-style text.

``/hands/<id>/export.phh`` or ``.txt`` downloads one hand; ``/hands/export.phhs``
or ``.txt`` downloads a range: ``?start=2026-11-01&end=2026-11-23`` (both days
included, either may be left out), optionally narrowed by ``table`` and
``stakes`` ids. The days and the file's times are in the site's time zone,
or in the one ``tz`` names (``?tz=Europe/Paris``, for one hand too; the
pages' links carry the browser's). At most ``exports.MAX_HANDS`` hands go in
one download.

Problems get a short plain-text answer and nothing else: 404 for an unknown
format, a hand the user may not see or a range with no hands; 400 for bad
dates, ids or time zone, or a range with too many hands.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone

from cardroom.replicas import reads_from_replica
from tables.forms import MAX_ID, PlayerDateRangeForm, TimeZoneForm
from tables.history import exports
from tables.models import Hand
from tables.selectors.history import hand_access

ID_ERRORS = {
    "invalid": "Enter a whole number.",
    "min_value": "Enter a positive whole number.",
    "max_value": "No id is that large.",
}


def _id_field() -> forms.IntegerField:
    return forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, error_messages=ID_ERRORS
    )


class HandRangeForm(PlayerDateRangeForm):
    table = _id_field()
    stakes = _id_field()

    def problems(self) -> str:
        """Every error on one line: ``start: Enter a real date ...``."""
        return "; ".join(
            f"{field}: {message}" if field != "__all__" else str(message)
            for field, messages in self.errors.items()
            for message in messages
        )


@reads_from_replica
def export_hand(request: HttpRequest, hand_id: int, fmt: str) -> HttpResponse:
    if fmt not in exports.ONE_HAND_FORMATS:
        return _plain(404, f"No such export: a hand downloads as .phh or .txt, not .{fmt}.")
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    try:
        access = hand_access(request.user, hand)
    except Http404:
        return _plain(404, "No such hand.")
    form = TimeZoneForm(request.GET)
    if not form.is_valid():
        return _plain(400, "Bad time zone: " + "; ".join(str(e) for e in form.errors["tz"]))
    with timezone.override(form.zone()):  # the file's times, in the zone asked for
        return _attachment(exports.hand_download(access, fmt))


@login_required
@reads_from_replica
def export_hands(request: HttpRequest, fmt: str) -> HttpResponse:
    if fmt not in exports.RANGE_FORMATS:
        return _plain(404, f"No such export: hands download as .phhs or .txt, not .{fmt}.")
    form = HandRangeForm(request.GET)
    if not form.is_valid():
        return _plain(400, f"Bad range: {form.problems()}")
    chosen = dict(form.cleaned_data)
    # The range's days, and every time the file writes, are in the zone asked for.
    zone = chosen.pop("tz")
    try:
        with timezone.override(zone):
            download = exports.range_download(request.user, fmt, exports.HandRange(**chosen))
    except exports.NoHands as exc:
        return _plain(404, str(exc))
    except exports.TooManyHands as exc:
        return _plain(400, str(exc))
    return _attachment(download)


def _attachment(download: exports.Download) -> HttpResponse:
    response = HttpResponse(download.body, content_type=download.content_type)
    response["Content-Disposition"] = f'attachment; filename="{download.filename}"'
    return response


def _plain(status: int, message: str) -> HttpResponse:
    return HttpResponse(message + "\n", status=status, content_type="text/plain; charset=utf-8")
