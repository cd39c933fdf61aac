"""Hand history downloads: one hand or a date range, as PHH or PokerStars-style text.

Formats:

* ``phh``: one hand as a PHH document (``tables.rules.formats.phh``), which
  ``manage.py replay_phh`` replays to the same finishing stacks;
* ``phhs``: many hands in one PHH file, one ``[N]`` table per hand;
* ``txt``: PokerStars-style text (``tables.rules.formats.pokerstars``), one hand or
  many, hands separated by two blank lines as PokerStars files are.

PHH files also carry the optional fields the PHH standard defines and the
database knows: ``players`` (user names), ``seats``, ``seat_count``, ``table``,
``hand`` (the table's hand number), ``year``, ``month``, ``day``, ``time``,
``time_zone``, ``time_zone_abbreviation`` and ``winnings``, plus the
user-defined ``_cardroom_hand_id``. Players are named by user name, which is
unique and has no spaces, so tracking tools can tell them apart.

Who sees which cards is decided by ``tables.selectors.history`` alone: a player's export
holds their own down cards, everyone's upcards and the hands shown at the
showdown; staff with ``tables.view_hand`` get every card.

A range export reads a fixed number of queries whatever its size (the hands'
ids, then the hands with their tables and stakes, then the players' names) and
holds at most :data:`MAX_HANDS` hands; a range with more is refused with
:class:`TooManyHands`, and the player asked for a shorter one.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from tables.forms import midnight
from tables.models import Hand
from tables.rules.formats.phh import hand_fields, write_phh, write_phhs
from tables.rules.formats.pokerstars import HandInfo, write_text
from tables.selectors.history import HandAccess, hand_access, hands_visible_to

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

# The most hands one range download holds. Reading and writing a hand takes
# about a millisecond: against 100,000 hands on the 2-core development machine
# (with other work running) 50 hands took 40-55 ms and 1,000 about 1.2-1.5 s,
# a file of about 1.3 MB. A bigger cap would let one request hold a server
# process for seconds; a range past it is refused, never silently cut.
MAX_HANDS = 1000
ONE_HAND_FORMATS = ("phh", "txt")
RANGE_FORMATS = ("phhs", "txt")
CONTENT_TYPES = {
    "phh": "application/toml; charset=utf-8",
    "phhs": "application/toml; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
}
# Columns no export reads: the deck and its proof (the state holds the cards).
UNREAD = ("deck", "deck_salt", "deck_commitment", "reconnect_extended")


class ExportError(ValueError):
    """A download that can't be made; the message tells the player why."""


class TooManyHands(ExportError):
    """The range holds more than :data:`MAX_HANDS` hands."""


class NoHands(ExportError):
    """The range holds none of the user's hands."""


@dataclass(frozen=True)
class Download:
    filename: str
    content_type: str
    body: str


@dataclass(frozen=True)
class HandRange:
    """The hands asked for: both dates included, in the current time zone."""

    start: datetime.date | None = None
    end: datetime.date | None = None
    table: int | None = None
    stakes: int | None = None


# ------------------------------------------------------------------ one hand


def hand_download(access: HandAccess, fmt: str) -> Download:
    """One hand, as ``access`` lets its viewer see it, as ``.phh`` or ``.txt``."""
    names = player_names([access.hand])
    if fmt == "phh":
        body = write_phh(
            access.state,
            viewer=access.viewer,
            everything=access.everything,
            extra=phh_extra(access, names),
            commentary=True,
        )
    elif fmt == "txt":
        body = pokerstars_text(access, names)
    else:
        raise ExportError(f"a hand downloads as {' or '.join(ONE_HAND_FORMATS)}, not {fmt!r}")
    return Download(f"cardroom-hand-{access.hand.pk}.{fmt}", CONTENT_TYPES[fmt], body)


# ---------------------------------------------------------------- many hands


def range_download(user: User | AnonymousUser, fmt: str, hands: HandRange) -> Download:
    """Every hand of ``hands`` that ``user`` may see, oldest first, in one file."""
    if fmt not in RANGE_FORMATS:
        raise ExportError(f"hands download as {' or '.join(RANGE_FORMATS)}, not {fmt!r}")
    accesses = [hand_access(user, hand) for hand in _fetch(user, hands)]
    names = player_names(access.hand for access in accesses)
    if fmt == "phhs":
        body = write_phhs(phh_fields(access, names) for access in accesses)
    else:
        body = "\n\n".join(pokerstars_text(access, names) for access in accesses)
    return Download(range_filename(hands, fmt), CONTENT_TYPES[fmt], body)


def hands_in_range(user: User | AnonymousUser, hands: HandRange) -> QuerySet[Hand]:
    """The finished hands ``user`` may see in ``hands``, oldest first."""
    found = hands_visible_to(user)
    if hands.start:
        found = found.filter(started_at__gte=midnight(hands.start))
    if hands.end:
        found = found.filter(started_at__lt=midnight(hands.end + datetime.timedelta(days=1)))
    if hands.table:
        found = found.filter(table_id=hands.table)
    if hands.stakes:
        found = found.filter(table__stakes_id=hands.stakes)
    return found.order_by("started_at", "pk")


def _fetch(user: User | AnonymousUser, hands: HandRange) -> list[Hand]:
    """The hands, in two queries: their ids first, so a range that is too big
    is refused before any hand's state is read."""
    ids = list(hands_in_range(user, hands).values_list("pk", flat=True)[: MAX_HANDS + 1])
    if len(ids) > MAX_HANDS:
        raise TooManyHands(
            f"The range {_describe(hands)} holds more than {MAX_HANDS} hands, the most one "
            "download holds; choose a shorter range."
        )
    if not ids:
        raise NoHands(f"No finished hands to download {_describe(hands)}.")
    found = Hand.objects.filter(pk__in=ids).select_related("table").defer(*UNREAD)
    return list(found.order_by("started_at", "pk"))


def _describe(hands: HandRange) -> str:
    start, end = hands.start or "the first hand", hands.end or "today"
    where = f" at table #{hands.table}" if hands.table else ""
    where += f" at stakes #{hands.stakes}" if hands.stakes else ""
    return f"from {start} to {end}{where}"


def range_filename(hands: HandRange, fmt: str) -> str:
    """``cardroom-hands-2026-11-01-to-2026-11-23.phhs``; open ends are left out."""
    name = "cardroom-hands"
    if hands.start:
        name += f"-from-{hands.start:%Y-%m-%d}"
    if hands.end:
        name += f"-to-{hands.end:%Y-%m-%d}"
    return f"{name}.{fmt}"


# ------------------------------------------------------------------ rendering


def player_names(hands: Iterable[Hand]) -> dict[int, str]:
    """The usernames of everyone dealt into those of ``hands`` that were dealt
    before hands kept their names, by user id, in one query (none if there are
    none): what :meth:`Hand.player_names` needs for them."""
    ids = set().union(*(hand.players_unnamed() for hand in hands))
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "username")) if ids else {}


def phh_fields(access: HandAccess, names: dict[int, str]) -> dict[str, Any]:
    return hand_fields(
        access.state,
        viewer=access.viewer,
        everything=access.everything,
        extra=phh_extra(access, names),
        commentary=True,
    )


def phh_extra(access: HandAccess, names: dict[int, str]) -> dict[str, Any]:
    """The optional PHH fields this hand's rows can fill."""
    hand, local = access.hand, timezone.localtime(access.hand.started_at)
    # A HandAccess holds a finished hand, and the engine sets the result as it
    # finishes one.
    assert access.state.result is not None
    return {
        "players": hand.player_names(names),
        "seats": hand.seat_numbers(),
        "seat_count": hand.seat_count,
        "table": hand.table.name,
        "hand": hand.number,
        "year": local.year,
        "month": local.month,
        "day": local.day,
        "time": local.time().replace(microsecond=0),  # a TOML local time
        "time_zone": timezone.get_current_timezone_name(),
        "time_zone_abbreviation": local.tzname(),
        "winnings": list(access.state.result["payouts"]),
        "_cardroom_hand_id": hand.pk,
    }


def pokerstars_text(access: HandAccess, names: dict[int, str]) -> str:
    hand, local = access.hand, timezone.localtime(access.hand.started_at)
    info = HandInfo(
        hand_id=hand.pk,
        table=hand.table.name,
        started=local.replace(microsecond=0),
        zone=local.tzname() or "",
        players=hand.player_names(names),
        seats=hand.seat_numbers(),
        max_seats=hand.seat_count,
    )
    return write_text(access.state, info, viewer=access.viewer, everything=access.everything)
