"""The lobby's rows: every open table with its game, betting structure, buy-in,
rake, seats, waiting list and recent activity, and whether the viewer sits there.

Shared by the lobby page, its JSON fallback and the lobby websocket, so all
three show the same figures in the same order: the busiest tables first,
then by game as players read its name, then by table name.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.db.models import BooleanField, Count, Exists, OuterRef, Q, Sum, Value
from django.urls import reverse
from django.utils import timezone

from tables.models import VARIANT_CHOICES, HandResult, Seat, Stakes, Table
from tables.rules.games import structure_choices

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# The lobby's statistics look back this far, over hands that have finished.
STATS_WINDOW = datetime.timedelta(hours=1)
# A table with no hand finished in that window.
NO_STATS = {"hands": 0, "lost": 0}


class _Counts(TypedDict):
    """What :func:`lobby_rows` annotates each table with."""

    taken: int
    waiting: int
    held: int
    seated: bool


if TYPE_CHECKING:
    LobbyTable = WithAnnotations[Table, _Counts]


class LobbyFilter(forms.Form):
    """Optional filters from the query string; a bad value is dropped, not fatal."""

    variant = forms.ChoiceField(required=False, choices=[("", "Any game"), *VARIANT_CHOICES])
    structure = forms.ChoiceField(
        required=False, choices=[("", "Any betting"), *structure_choices()]
    )
    stakes = forms.ModelChoiceField(
        required=False, queryset=Stakes.objects.all(), empty_label="Any stakes"
    )

    def valid_filters(self) -> dict[str, Any]:
        """The fields that were given and are good; the errors say what was ignored."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value}


def lobby_rows(
    *,
    variant: str | None = None,
    structure: str | None = None,
    stakes: Stakes | None = None,
    viewer_id: int | None = None,
) -> list[dict[str, Any]]:
    """Every open table as plain data, in two queries however many tables there are.

    ``hands_per_hour`` counts the table's hands that ended in the last hour.
    ``average_pot`` is the mean, over those hands, of the chips that changed
    hands: what the losing players lost (their negative ``HandResult.net``),
    which is what the winners won plus the rake. A hand nobody lost in (a
    split of equal contributions) counts as a pot of 0. ``seated`` says
    whether the player ``viewer_id`` (None: a visitor) has a seat there.
    """
    tables = Table.objects.filter(is_open=True).select_related("stakes__rake")
    if variant:
        tables = tables.filter(stakes__variant=variant)
    if structure:
        tables = tables.filter(stakes__structure=structure)
    if stakes:
        tables = tables.filter(stakes=stakes)
    tables = tables.annotate(
        taken=Count("seat_set", distinct=True),
        waiting=Count("waiting_players", distinct=True),
        held=Count(
            "waiting_players", filter=Q(waiting_players__offered_seat__isnull=False), distinct=True
        ),
        seated=_seated(viewer_id),
    )
    rows = sorted(tables, key=_lobby_order)
    stats = _recent_stats([t.pk for t in rows])
    return [_lobby_row(table, stats.get(table.pk, NO_STATS)) for table in rows]


def _seated(viewer_id: int | None) -> Exists | Value:
    if viewer_id is None:
        return Value(False, output_field=BooleanField())
    return Exists(Seat.objects.filter(table=OuterRef("pk"), player_id=viewer_id))


def _lobby_order(table: LobbyTable) -> tuple[int, str, str, int]:
    """Tables with players first, the most first; then the game's name as the
    lobby shows it (not its code, which sorts "declare" among the d's); then
    the table's name. Sorted here, as the names come from the game registry."""
    game = table.stakes.get_variant_display()
    return (-table.taken, game.casefold(), table.name.casefold(), table.pk)


def _recent_stats(table_ids: list[int]) -> dict[int, dict[str, int]]:
    if not table_ids:
        return {}
    since = timezone.now() - STATS_WINDOW
    per_table = (
        HandResult.objects.filter(hand__table_id__in=table_ids, hand__ended_at__gte=since)
        .values("hand__table_id")
        .annotate(
            hands=Count("hand_id", distinct=True),
            lost=Sum("net", filter=Q(net__lt=0), default=0),
        )
    )
    return {row["hand__table_id"]: row for row in per_table}


def _lobby_row(table: LobbyTable, stats: dict[str, int]) -> dict[str, Any]:
    hands = stats["hands"]
    stakes = table.stakes
    return {
        "id": table.pk,
        "name": table.name,
        "variant": stakes.variant,
        "variant_name": stakes.get_variant_display(),
        "structure": stakes.structure,
        "structure_name": stakes.get_structure_display(),
        "stakes": stakes.describe(),
        "min_buy_in": stakes.min_buy_in,
        "max_buy_in": stakes.max_buy_in,
        "rake": rake_words(stakes),
        "seats_taken": table.taken,
        "seats_total": stakes.seats,
        # A seat held for the next player on the waiting list is not free.
        "seats_free": max(stakes.seats - table.taken - table.held, 0),
        "waiting": table.waiting,
        "hands_per_hour": hands,
        "average_pot": round(-stats["lost"] / hands) if hands else None,
        "url": reverse("table", args=[table.pk]),
        "seated": table.seated,
    }


def rake_words(stakes: Stakes) -> str:
    """The stakes' rake rule as players read it: ``"5% up to 3, from 4th street"``.

    Or ``"5%, no cap"``, and ``"none"`` for stakes without rake.
    """
    rake = stakes.rake
    if rake is None or not rake.percent:
        return "none"
    words = rake.percent_shown()
    words += f" up to {rake.cap:,}" if rake.cap is not None else ", no cap"
    return words + (", from 4th street" if rake.no_rake_third_street else "")
