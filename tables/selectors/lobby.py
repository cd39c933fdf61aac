"""The lobby's rows: every open table with its game, betting structure, buy-in,
rake, seats, waiting list and recent activity, and whether the viewer sits there.

A mixed table (a rotation or dealer's choice) shows the game it is dealing,
the latest hand's (before any, its list's first), and what is coming, as the
table itself says it (:func:`tables.selectors.games.coming`).

Shared by the lobby page, its JSON fallback and the lobby websocket, so all
three show the same figures in the same order: the busiest tables first,
then by game as players read its name, then by table name.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.urls import reverse
from django.utils import timezone

from tables.models import VARIANT_CHOICES, Hand, HandResult, Seat, Stakes, Table, TableGame
from tables.rules import IllegalAction
from tables.rules.games import structure_choices
from tables.selectors.games import coming

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# The lobby's statistics look back this far, over hands that have finished.
STATS_WINDOW = datetime.timedelta(hours=1)
# A table with no hand finished in that window.
NO_STATS = {"hands": 0, "lost": 0}

VARIANT_NAMES = dict(VARIANT_CHOICES)
STRUCTURE_NAMES = dict(structure_choices())

# The kinds of table the lobby filters by: the tables' policies, as players say them.
TABLE_KINDS = [
    ("", "Any table"),
    (Table.Policy.FIXED, "One game"),
    (Table.Policy.ROTATION, "Mixed (rotation)"),
    (Table.Policy.DEALERS_CHOICE, "Dealer's choice"),
]


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
        required=False,
        queryset=Stakes.objects.exclude(tables__host__isnull=False),
        empty_label="Any stakes",
    )
    games = forms.ChoiceField(required=False, choices=TABLE_KINDS)

    def valid_filters(self) -> dict[str, Any]:
        """The fields that were given and are good; the errors say what was ignored."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value}


def lobby_rows(
    *,
    variant: str | None = None,
    structure: str | None = None,
    stakes: Stakes | None = None,
    games: str | None = None,
    viewer_id: int | None = None,
) -> list[dict[str, Any]]:
    """Every open table as plain data, in two queries however many tables there
    are, and three more when some of them are mixed.

    A mixed table matches the game, structure and stakes filters by any game
    of its list (its stakes, the terms its list's games share, match too);
    ``games`` is the kind of table (a policy). ``hands_per_hour`` counts the
    table's hands that ended in the last hour. ``average_pot`` is the mean,
    over those hands, of the chips that changed hands: what the losing players
    lost (their negative ``HandResult.net``), which is what the winners won
    plus the rake. A hand nobody lost in (a split of equal contributions)
    counts as a pot of 0. ``seated`` says whether the player ``viewer_id``
    (None: a visitor) has a seat there.
    """
    # The room's tables: a home game is listed only to its players (home_games).
    tables = Table.objects.filter(is_open=True, host__isnull=True).select_related("stakes__rake")
    tables = _filtered(tables, variant, structure, stakes, games)
    tables = tables.annotate(
        taken=Count("seat_set", distinct=True),
        waiting=Count("waiting_players", distinct=True),
        held=Count(
            "waiting_players", filter=Q(waiting_players__offered_seat__isnull=False), distinct=True
        ),
        seated=_seated(viewer_id),
    )
    found = list(tables)
    dealing = dealings(found)
    rows = sorted(found, key=lambda table: _lobby_order(table, dealing[table.pk]))
    stats = _recent_stats([t.pk for t in rows])
    return [_lobby_row(t, dealing[t.pk], stats.get(t.pk, NO_STATS)) for t in rows]


def _filtered(
    tables: QuerySet[Table],
    variant: str | None,
    structure: str | None,
    stakes: Stakes | None,
    games: str | None,
) -> QuerySet[Table]:
    if variant:
        listed = Q(variant=variant) | Q(stakes__variant=variant)
        tables = tables.filter(_deals(Q(stakes__variant=variant), listed))
    if structure:
        # A variant on the list is dealt with the table's stakes' structure.
        listed = Q(stakes__structure=structure) | Q(
            stakes__isnull=True, table__stakes__structure=structure
        )
        tables = tables.filter(_deals(Q(stakes__structure=structure), listed))
    if stakes:
        entries = TableGame.objects.filter(table=OuterRef("pk"), stakes=stakes)
        tables = tables.filter(
            Q(stakes=stakes) | ~Q(policy=Table.Policy.FIXED) & Q(Exists(entries))
        )
    if games:
        tables = tables.filter(policy=games)
    return tables


def _deals(one: Q, listed: Q) -> Q:
    """The tables that deal a game matching: a fixed table's stakes match ``one``;
    an entry of a mixed table's list (a :class:`TableGame`) matches ``listed``."""
    entries = TableGame.objects.filter(listed, table=OuterRef("pk"))
    return Q(one, policy=Table.Policy.FIXED) | ~Q(policy=Table.Policy.FIXED) & Q(Exists(entries))


def _seated(viewer_id: int | None) -> Exists | Value:
    if viewer_id is None:
        return Value(False, output_field=BooleanField())
    return Exists(Seat.objects.filter(table=OuterRef("pk"), player_id=viewer_id))


# ------------------------------------------------------------ the game dealt


@dataclass(frozen=True)
class Dealing:
    """The game a table is dealing, as the lobby shows it, and for a mixed
    table what is coming ("Razz · 2 more hands, then Seven-card stud hi-lo, eight
    or better") and the names of its list's games."""

    variant: str
    structure: str
    words: str
    coming: str = ""
    games: list[str] = field(default_factory=list)


def _one_game(table: Table) -> Dealing:
    """A fixed table's game: its stakes' (as is a mixed table's with no list)."""
    stakes = table.stakes
    return Dealing(stakes.variant, stakes.structure, stakes.describe())


def dealing_now(table: Table) -> Dealing:
    """What ``table`` is dealing and, if it is mixed, what is coming, as the lobby says it."""
    return dealings([table])[table.pk]


def dealings(tables: Sequence[Table]) -> dict[int, Dealing]:
    """:func:`dealing_now` of each of ``tables``, by id: three queries for the
    mixed ones among them, none for the rest."""
    mixes = _mixes([table for table in tables if table.is_mixed])
    return {table.pk: mixes.get(table.pk) or _one_game(table) for table in tables}


def _mixes(tables: Sequence[Table]) -> dict[int, Dealing]:
    """What each mixed table of ``tables`` deals and what is coming there: its
    list, its latest hand and the seats dealt in, in three queries for them all."""
    if not tables:
        return {}
    ids = [table.pk for table in tables]
    lists: dict[int, list[TableGame]] = defaultdict(list)
    entries = TableGame.objects.filter(table_id__in=ids).select_related("stakes")
    for game in entries.order_by("table_id", "position", "pk"):
        lists[game.table_id].append(game)
    latest = {hand.table_id: hand for hand in _latest_hands(ids)}
    seats: dict[int, list[int]] = defaultdict(list)
    dealt_in = Seat.objects.filter(
        table_id__in=ids, state__in=Seat.DEALT_IN_STATES, stack__gt=0
    ).order_by("number")
    for table_id, number in dealt_in.values_list("table_id", "number"):
        seats[table_id].append(number)
    return {
        table.pk: _mix(table, lists[table.pk], latest.get(table.pk), seats[table.pk])
        for table in tables
        if lists[table.pk]
    }


def _latest_hands(table_ids: list[int]) -> QuerySet[Hand]:
    """Each table's latest hand (running or ended), with only what the lobby reads."""
    last = Hand.objects.filter(table_id=OuterRef("table_id")).order_by("-number")
    return Hand.objects.filter(
        table_id__in=table_ids, number=Subquery(last.values("number")[:1])
    ).only("table_id", "number", "variant", "structure", "game", "seating")


def _mix(table: Table, games: list[TableGame], hand: Hand | None, seats: list[int]) -> Dealing:
    names = [game.name for game in games]
    said = _coming_words(table, games, hand, seats)
    if hand is not None:
        return Dealing(hand.variant, hand.structure, hand.game, said, names)
    try:
        config = games[0].game_config(table.stakes)
    except IllegalAction:  # an entry saved without its checks: still name it
        return Dealing(games[0].game_variant, table.stakes.structure, games[0].name, said, names)
    return Dealing(config.variant, config.structure, config.describe(), said, names)


def _coming_words(table: Table, games: list[TableGame], hand: Hand | None, seats: list[int]) -> str:
    """What is coming, as the table's page says it."""
    ahead = coming(table, games, seats, hand.dealer_seat if hand is not None else None)
    return ahead.words(table.policy)


# ------------------------------------------------------------ order and rows


def _lobby_order(table: LobbyTable, dealing: Dealing) -> tuple[int, str, str, int]:
    """Tables with players first, the most first; then the game's name as the
    lobby shows it (not its code, which sorts "declare" among the d's); then
    the table's name. Sorted here, as the names come from the game registry."""
    game = VARIANT_NAMES.get(dealing.variant, dealing.variant)
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


def _lobby_row(table: LobbyTable, dealing: Dealing, stats: dict[str, int]) -> dict[str, Any]:
    hands = stats["hands"]
    stakes = table.stakes
    return {
        "id": table.pk,
        "name": table.name,
        # The game being dealt; at a mixed table, the latest hand's.
        "variant": dealing.variant,
        "variant_name": VARIANT_NAMES.get(dealing.variant, dealing.variant),
        "structure": dealing.structure,
        "structure_name": STRUCTURE_NAMES.get(dealing.structure, dealing.structure),
        "stakes": dealing.words,
        "policy": table.policy,
        "coming": dealing.coming,
        "games": dealing.games,
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
