"""Who may look back at a hand, and as whom.

Every history page, replayer payload and export starts here, so one rule
decides what each person sees of a past hand:

- staff (``tables.view_hand``) see every card;
- a player dealt into the hand sees it as that seat saw it: their own down
  cards, everyone's upcards, and others' down cards only once shown;
- anyone else is told the hand does not exist (404), the same answer as for a
  hand id that really doesn't, so ids can't be probed.

Hands still being played are out of the history's reach until they end: the
table page is where a running hand is followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from tables.models import Hand
from tables.rules import HandState


@dataclass(frozen=True)
class HandAccess:
    """A finished hand as one viewer may see it."""

    hand: Hand
    state: HandState
    # The viewer's engine player number; None with ``everything`` (staff).
    viewer: int | None
    everything: bool


def engine_player(hand: Hand, user_id: int | None) -> int | None:
    """The user's engine player number in ``hand``; None if they were not dealt in."""
    players = hand.seating["players"]
    return next((i for i, entry in enumerate(players) if entry["player"] == user_id), None)


def hand_access(user: Any, hand: Hand | None) -> HandAccess:
    """``hand`` as ``user`` may see it, or Http404 if they may not see it at all."""
    if hand is None or not hand.is_finished or not user.is_authenticated:
        raise Http404("No such hand.")
    everything = sees_everything(user)
    viewer = None if everything else engine_player(hand, user.pk)
    if viewer is None and not everything:
        raise Http404("No such hand.")
    return HandAccess(hand, HandState.from_dict(hand.state, adopt=True), viewer, everything)


def sees_everything(user: Any) -> bool:
    """Staff allowed to read every card of every hand (Django caches the permission)."""
    return user.is_staff and user.has_perm("tables.view_hand")


def hands_visible_to(user: Any) -> QuerySet[Hand]:
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
