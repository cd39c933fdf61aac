"""A player's past hands, and one hand's page with its replayer and deck check.

What each viewer may see of a hand is decided in ``tables.selectors.history``; these
views only parse the request, ask it, and render.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from cardroom.replicas import reads_from_replica
from tables.forms import PlayerDateRangeForm, midnight
from tables.history.exports import MAX_HANDS
from tables.models import VARIANT_CHOICES, Hand, HandResult, Stakes, Table
from tables.names import name_in_words
from tables.rules.cards import card_str
from tables.rules.games import structure_choices
from tables.rules.narration import hand_words
from tables.selectors.history import (
    HandAccess,
    Replay,
    card_faces,
    deck_revealed,
    hand_access,
    hand_replay,
    player_results,
    unshown_players,
)
from tables.selectors.tables import tables_visible_to

if TYPE_CHECKING:
    from accounts.http import AuthenticatedHttpRequest

HANDS_PER_PAGE = 25
OUTCOMES = [("", "Won or lost"), ("won", "Won"), ("lost", "Lost")]


class HandFilter(PlayerDateRangeForm):
    """The list's filters, all optional; with any bad value none of them applies."""

    field_order = ["table", "stakes", "variant", "structure", "start", "end", "outcome"]

    table = forms.ModelChoiceField(
        required=False, queryset=Table.objects.order_by("name"), empty_label="Any table"
    )
    stakes = forms.ModelChoiceField(
        required=False, queryset=Stakes.objects.all(), empty_label="Any stakes"
    )
    variant = forms.ChoiceField(
        required=False, label="Game", choices=[("", "Any game"), *VARIANT_CHOICES]
    )
    structure = forms.ChoiceField(
        required=False, label="Betting", choices=[("", "Any betting"), *structure_choices()]
    )
    outcome = forms.ChoiceField(required=False, label="Result", choices=OUTCOMES)

    def __init__(self, data: Any, *, player_id: int) -> None:
        super().__init__(data)
        # Only the tables the player may see: another's home game isn't named.
        visible = tables_visible_to(player_id)
        table, stakes = self.fields["table"], self.fields["stakes"]
        assert isinstance(table, forms.ModelChoiceField)
        assert isinstance(stakes, forms.ModelChoiceField)
        table.queryset = visible.order_by("name")
        stakes.queryset = Stakes.objects.filter(tables__in=visible).distinct()

    def filters(self) -> dict[str, Any]:
        """Keyword arguments for :func:`player_results`; none at all if any value is bad."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "table": data["table"],
            "stakes": data["stakes"],
            "variant": data["variant"],
            "structure": data["structure"],
            "start": _midnight(data["start"]),
            # Both ends are whole days: up to the midnight after ``end``.
            "end": _midnight(data["end"] + datetime.timedelta(days=1)) if data["end"] else None,
            "outcome": data["outcome"],
        }


def _midnight(day: datetime.date | None) -> datetime.datetime | None:
    return None if day is None else midnight(day)


@login_required
@reads_from_replica
def my_hands(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = HandFilter(request.GET, player_id=request.user.pk)
    # The days filtered and the times written are the player's (the form's tz).
    with timezone.override(form.zone()):
        results = player_results(request.user.pk, **form.filters())
        page = Paginator(results, HANDS_PER_PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        context = {
            "form": form,
            "page": page,
            "rows": [_row(result) for result in page],
            "query": query.urlencode(),
            "filtered": form.is_valid() and form.narrows(),
            "download_query": _download_query(form),
            "download_limit": MAX_HANDS,
            "time_zone": timezone.get_current_timezone_name(),
        }
        return render(request, "history/my_hands.html", context)


def _download_query(form: HandFilter) -> str:
    """The range export's query for the dates, table and stakes chosen (all, if none)."""
    if not form.is_valid():
        return ""
    data = form.cleaned_data
    chosen = {
        "start": data["start"] and data["start"].isoformat(),
        "end": data["end"] and data["end"].isoformat(),
        "table": data["table"] and data["table"].pk,
        "stakes": data["stakes"] and data["stakes"].pk,
        "tz": data["tz"] and data["tz"].key,
    }
    return urlencode({name: value for name, value in chosen.items() if value})


def _row(result: HandResult) -> dict[str, Any]:
    hand = result.hand
    return {
        "hand": hand,
        "cards": card_faces(result.cards),
        "net": result.net,
    }


@login_required
@reads_from_replica
def hand_detail(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    found = Hand.objects.select_related("table").filter(pk=hand_id).first()
    access = hand_access(request.user, found)  # Http404 if there is none to see
    hand = access.hand
    results = {r.player_id: r for r in hand.results.select_related("player")}
    names = hand.player_names({r.player_id: r.player.username for r in results.values()})
    # Sentences tell a long name cut short; the seats and the players' table
    # cut it with CSS and keep it whole in a title.
    told = [name_in_words(name) for name in names]
    replay = hand_replay(access, told)
    context = {
        "hand": hand,
        "everything": access.everything,
        "sections": replay.sections,
        "players": _players(access, replay, names, results),
        "replay": _replay_data(access, replay, names),
        "deck": _deck(access, told),
    }
    return render(request, "history/hand_detail.html", context)


def _players(
    access: HandAccess, replay: Replay, names: list[str], results: dict[int, HandResult]
) -> list[dict[str, Any]]:
    """Each player at the end of the hand, with the cards this viewer may see."""
    final, hand = replay.final, access.hand
    seats, players = hand.seat_numbers(), hand.player_ids()
    result = final["result"] or {}
    hands, contested = result.get("hands", {}), not result.get("uncontested")
    rows = []
    for p, seen in enumerate(final["players"]):
        mine = results.get(players[p])
        if seen["shown"]:
            outcome = hand_words(hands.get(str(p)))
        else:
            outcome = "folded" if seen["folded"] else "mucked" if contested else "not shown"
        rows.append(
            {
                "seat": seats[p],
                "name": names[p],
                "you": p == access.viewer,
                "cards": card_faces(seen["cards"]),
                "outcome": outcome,
                "net": mine.net if mine is not None else None,
            }
        )
    return rows


def _replay_data(access: HandAccess, replay: Replay, names: list[str]) -> dict[str, Any]:
    """What the replayer draws: only views and lines already filtered for this viewer."""
    hand = access.hand
    return {
        "hand": hand.number,
        "seats": hand.seat_numbers(),
        "names": names,
        "viewer": access.viewer,
        "everything": access.everything,
        "seat_count": hand.seat_count,
        "dealer": hand.dealer_seat,
        "steps": replay.steps,
    }


def _deck(access: HandAccess, names: list[str]) -> dict[str, Any]:
    """The commitment for all; the salt and deck only where ``deck_revealed`` allows."""
    hand, state = access.hand, access.state
    deck: dict[str, Any] = {"commitment": hand.deck_commitment, "revealed": False}
    deck["unshown"] = [names[p] for p in unshown_players(access)]
    if access.everything:
        # Which of the hand's players the same rule gives the deck to.
        deck["players_with_deck"] = [
            names[p]
            for p in range(state.n)
            if deck_revealed(HandAccess(hand, state, p, everything=False))
        ]
    if deck_revealed(access):
        deck["revealed"] = True
        deck["salt"] = hand.deck_salt
        deck["cards"] = " ".join(card_str(card) for card in hand.deck)
    return deck
