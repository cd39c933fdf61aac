"""Who may look back at a hand, and as whom; and the hand told step by step.

Every history page, replayer payload and export starts here, so one rule
decides what each person sees of a past hand:

- staff (``tables.view_hand``) see every card;
- a player dealt into the hand sees it as that seat saw it: their own down
  cards, everyone's upcards, and others' down cards only once shown;
- anyone else is told the hand does not exist (404), the same answer as for a
  hand id that really doesn't, so ids can't be probed.

Hands still being played are out of the history's reach until they end: the
table page is where a running hand is followed.

Everything a page shows of a hand is built here from :func:`tables.rules.views.view`
and :func:`tables.rules.views.events_for`, which hide what the viewer may not
see; the stored state, which holds every card, never leaves this module.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.http import Http404

from tables.models import Hand, HandResult, Stakes, Table
from tables.rules import GameConfig, HandState
from tables.rules.narration import SUIT_SYMBOLS, Narrator, Told, card_text
from tables.rules.views import events_for, view

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


@dataclass(frozen=True)
class HandAccess:
    """A finished hand as one viewer may see it."""

    hand: Hand
    state: HandState
    # The viewer's engine player number; None with ``everything`` (staff).
    viewer: int | None
    everything: bool


def hand_access(user: User | AnonymousUser, hand: Hand | None) -> HandAccess:
    """``hand`` as ``user`` may see it, or Http404 if they may not see it at all."""
    if hand is None or not hand.is_finished or not user.is_authenticated:
        raise Http404("No such hand.")
    everything = sees_everything(user)
    viewer = None if everything else hand.engine_player(user.pk)
    if viewer is None and not everything:
        raise Http404("No such hand.")
    return HandAccess(hand, HandState.from_dict(hand.state, adopt=True), viewer, everything)


def sees_everything(user: User | AnonymousUser) -> bool:
    """Staff allowed to read every card of every hand (Django caches the permission)."""
    return user.is_staff and user.has_perm("tables.view_hand")


def hands_visible_to(user: User | AnonymousUser) -> QuerySet[Hand]:
    """The finished hands ``user`` may look back at, as one query.

    The same rule as :func:`hand_access`, for pages and exports of many hands:
    staff get every finished hand, a player the hands they were dealt into
    (each has a ``HandResult`` once it ends), anyone else none.
    """
    finished = Hand.objects.filter(ended_at__isnull=False)
    if not user.is_authenticated:
        return finished.none()
    if sees_everything(user):
        return finished
    return finished.filter(results__player_id=user.pk)


# ------------------------------------------------------------------ the deck


def unshown_players(access: HandAccess) -> list[int]:
    """Engine players whose down cards this viewer never saw (none for staff).

    A folded player's cards, and a hand mucked at the showdown, stay theirs;
    so does a down card exchanged away (English stud), shown hand or not.
    """
    if access.everything:
        return []
    state = access.state
    return [
        p
        for p in range(state.n)
        if p != access.viewer and (not state.shown[p] or state.hidden_discards(p))
    ]


def deck_revealed(access: HandAccess) -> bool:
    """Whether this viewer may have the hand's salt and whole deck.

    The deck holds every down card dealt, so it goes to staff, and to a player
    only when every other player's down cards were shown: then it tells them no
    player's card they haven't seen (the rest of it is burns and cards never
    dealt, nobody's). See ``docs/history.md``.
    """
    return not unshown_players(access)


# ------------------------------------------------------------ a player's list


def player_results(
    player_id: int,
    *,
    table: Table | None = None,
    stakes: Stakes | None = None,
    variant: str = "",
    structure: str = "",
    start: datetime.datetime | None = None,
    end: datetime.datetime | None = None,
    outcome: str = "",
) -> QuerySet[HandResult]:
    """The player's results in finished hands, newest first, filtered.

    ``variant`` and ``structure`` are the game each hand was dealt (a
    table's game may change); ``start`` and ``end`` bound the hand's start time (``end`` excluded);
    ``outcome`` is "won" (net above 0), "lost" (below 0) or "" (any). Hands'
    ids grow as they start, so "newest first" is ``-hand_id``, which the
    (player, hand) index serves read backwards.
    """
    results = HandResult.objects.filter(player_id=player_id)
    if table is not None:
        results = results.filter(hand__table=table)
    if stakes is not None:
        results = results.filter(hand__table__stakes=stakes)
    if variant:
        results = results.filter(hand__variant=variant)
    if structure:
        results = results.filter(hand__structure=structure)
    if start is not None:
        results = results.filter(hand__started_at__gte=start)
    if end is not None:
        results = results.filter(hand__started_at__lt=end)
    if outcome == "won":
        results = results.filter(net__gt=0)
    elif outcome == "lost":
        results = results.filter(net__lt=0)
    # The hands' states and decks are large and hold every card: never loaded here.
    return (
        results.select_related("hand__table")
        .defer("hand__state", "hand__deck", "hand__deck_salt", "hand__seating")
        .order_by("-hand_id")
    )


# ------------------------------------------------------------------ the steps


@dataclass
class Line:
    """One thing that happened, in words, and the replayer step it happened in."""

    text: str
    step: int


@dataclass
class Section:
    title: str
    pot: int | None
    lines: list[Line] = field(default_factory=list)


@dataclass
class Replay:
    """A hand as one viewer may see it: a view per step, and the hand in words."""

    steps: list[dict[str, Any]]
    sections: list[Section]
    final: dict[str, Any]


class ReplayMismatch(RuntimeError):
    """A stored hand whose action list does not lead back to its stored state."""


def hand_replay(access: HandAccess, names: Sequence[str]) -> Replay:
    """Replay the stored hand from its deck, one step per action, as the viewer sees it.

    Step 0 is the hand after the antes and the deal of 3rd street; step ``k``
    follows the ``k``-th action. ``names`` are the players in engine order.
    Each step carries :func:`view` for this viewer (for staff, with every
    card) and the lines telling what happened since the step before, built
    from :func:`events_for` for the same viewer.
    """
    final = access.state
    state = HandState.new(final.config, final.starting_stacks, final.deck)
    views, ends = [_step_view(state, access)], [len(state.events)]
    for action in final.actions:
        state.apply(action)
        views.append(_step_view(state, access))
        ends.append(len(state.events))
    if not _replays_to_stored(state, access):
        raise ReplayMismatch(f"{access.hand} does not replay to its stored state")
    events = events_for(state, access.viewer, everything=access.everything)
    teller = Teller(names, final)
    steps, start = [], 0
    for number, (seen, end) in enumerate(zip(views, ends, strict=True)):
        lines = teller.tell(events[start:end], number)
        steps.append({"view": seen, "lines": [line.text for line in lines]})
        start = end
    return Replay(steps, teller.sections, views[-1])


def _replays_to_stored(replayed: HandState, access: HandAccess) -> bool:
    """Whether the replay ends in the hand as it was stored.

    It is held to every field the stored hand has. A hand stored before the
    engine kept some field (the one card list, the script's step, the last
    raise's size) is loaded by replaying it, so those fields can't be checked;
    the events, which still are, name every card dealt and every chip moved.
    """
    mine = replayed.to_dict()
    saved = access.hand.state if access.hand is not None else access.state.to_dict()
    # Options added since a hand was stored take their defaults when it loads.
    saved = {**saved, "config": GameConfig.from_dict(saved["config"]).to_dict()}
    return all(mine[name] == saved[name] for name in mine.keys() & saved.keys())


def _step_view(state: HandState, access: HandAccess) -> dict[str, Any]:
    seen = view(state, access.viewer, everything=access.everything)
    del seen["legal_actions"]  # a past hand has no moves to offer
    return seen


# ------------------------------------------------------------- in words


def card_face(code: str | None, *, down: bool = False, wild: bool = False) -> dict[str, Any]:
    """How a page draws one card; a card the viewer may not see is only a back."""
    if code is None:
        return {"back": True, "down": down}
    return {
        "code": code,
        "rank": "10" if code[0] == "T" else code[0],
        "suit": SUIT_SYMBOLS[code[1]],
        "red": code[1] in "dh",
        "label": card_text(code) + (", wild" if wild else ""),
        "down": down,
        "wild": wild,
    }


def card_faces(cards: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """How a page draws a player's cards, given as they are dealt:
    ``[{"card": "Kd" | None, "up": bool, "wild": true}, ...]`` ("wild" only
    on a wild card), the shape of a view's seat cards and of
    :attr:`HandResult.cards`. None is a card the viewer may not see.
    """
    return [
        card_face(held["card"], down=not held["up"], wild=held.get("wild", False)) for held in cards
    ]


class Teller:
    """Lays a viewer's events out as the hand page's sections and lines.

    The words are the narrator's (:class:`tables.rules.narration.Narrator`),
    told from events already filtered for the viewer, so a hidden card reaches
    it as None and is told as "a down card". The teller adds the sections: the
    antes, each street with the pot as it began, the showdown and the pots.
    """

    def __init__(self, names: Sequence[str], final: HandState) -> None:
        self.narrator = Narrator(names, final)
        self.streets = final.game.streets
        self.sections: list[Section] = []

    def tell(self, events: list[dict[str, Any]], step: int) -> list[Line]:
        """The lines for one step's events."""
        lines: list[Line] = []
        for told in self.narrator.tell(events):
            self._open_for(told)
            for text in told.lines:
                line = Line(text, step)
                self.sections[-1].lines.append(line)
                lines.append(line)
        return lines

    def _open_for(self, told: Told) -> None:
        kind, figures = told.event["type"], told.figures
        if kind == "ante":
            self._open("Antes", None)
        elif kind in ("show", "muck"):
            self._open("Showdown", figures.pot)
        elif kind == "result":
            self._open("Pots", None)
        elif "street" in told.event:
            self._open(self.streets[figures.street], figures.pot)

    def _open(self, title: str, pot: int | None) -> None:
        """Start a new section (a street, the showdown...) unless it is already open."""
        if not self.sections or self.sections[-1].title != title:
            self.sections.append(Section(title, pot))
