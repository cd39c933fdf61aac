"""The dealer's call at a dealer's-choice table: the dealer calls the next
game, or their time runs out and the table deals its default
(:mod:`tables.services.games` begins the call and picks the games).

Each call has its number (``Table.call_number``): a call made twice, or a
timeout sent twice or late, finds the call over and changes nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tables.models import Hand, Seat, Table
from tables.selectors.games import entry_at, fitting, table_games
from tables.services.clock import timeout_due, timeout_wait
from tables.services.common import ServiceError, _lock_table
from tables.services.games import _call_end, _call_off, _default
from tables.services.hands import _AtDeal, _deal_after_call


@transaction.atomic
def game_call(
    *, table_id: int, player_id: int, game: int, now: datetime | None = None
) -> Hand | None:
    """The dealer calls game ``game`` (its position in the table's list) for the
    next hand, which is dealt at once; the hand, or None if the table can't
    deal now (the call stands for its next deal).

    Refused, changing nothing: no call under way (the hand is dealt already),
    someone else's call, a game not on the list, and one that doesn't fit the
    players dealt in.
    """
    table = _lock_table(table_id)
    if table.call_seat is None:
        running = table.hands.filter(ended_at__isnull=True).order_by("-number").first()
        if running is not None:
            raise ServiceError(f"hand #{running.number} is already dealt; there is no game to call")
        raise ServiceError("no game is being called at this table now")
    if table.call_player_id != player_id:
        caller = table.call_player.username if table.call_player else f"seat {table.call_seat}"
        raise ServiceError(f"it is {caller}'s call, not yours")
    if not Seat.objects.filter(table=table, number=table.call_seat, player_id=player_id).exists():
        raise ServiceError("you no longer sit in the dealer's seat; the table deals its default")
    games = table_games(table)
    entry = entry_at(games, game) if type(game) is int else None
    if entry is None:
        raise ServiceError(f"there is no game {game!r} on this table's list")
    seen = _AtDeal(table)
    players = len(seen.dealt_in())
    if entry not in fitting(games, players):
        raise ServiceError(
            f"{entry.name} is dealt to at most {entry.max_players} players, "
            f"and {players} are dealt in"
        )
    assert table.call_player is not None
    _call_end(table, entry.position, {"by": table.call_player.username, "how": "called"})
    return _deal_after_call(table, seen, now or timezone.now())


@transaction.atomic
def game_call_timeout(*, table_id: int, call: int, now: datetime | None = None) -> Hand | None:
    """Deal the default game for call number ``call`` if it is still under way
    and its time is up; the hand dealt, or None (called already, or a late or
    duplicate timeout: then nothing changes)."""
    now = now or timezone.now()
    table = _lock_table(table_id)
    if table.call_seat is None or table.call_number != call:
        return None
    if table.call_expires_at is not None and now < timeout_due(table.call_expires_at):
        return None
    games, seen = table_games(table), _AtDeal(table)
    entry = _default(table, games, len(seen.dealt_in()))
    name = table.call_player.username if table.call_player else f"seat {table.call_seat}"
    if entry is None:  # nobody left to deal to: no call stands
        _call_off(table)
        return None
    _call_end(table, entry.position, {"by": name, "how": "timed_out"})
    return _deal_after_call(table, seen, now)


def calls_expire_overdue(*, now: datetime | None = None) -> list[Hand | int]:
    """Time out every dealer's call whose timeout is due (:func:`timeout_due`;
    its own task lost or late); each hand dealt, or the table's id where none
    could be."""
    now = now or timezone.now()
    cutoff = now - timeout_wait()
    overdue = Table.objects.filter(call_seat__isnull=False, call_expires_at__lte=cutoff)
    changed: list[Hand | int] = []
    for table_id, number in overdue.values_list("pk", "call_number")[:100]:
        hand = game_call_timeout(table_id=table_id, call=number, now=now)
        changed.append(hand if hand is not None else table_id)
    return changed


def call_under_way(*, table_id: int) -> bool:
    """Whether the table's dealer is calling the next game now."""
    return Table.objects.filter(pk=table_id, call_seat__isnull=False).exists()
