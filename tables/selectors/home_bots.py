"""Reads about the bots home games' hosts have added (``tables.services.home_bots``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from tables.models import Hand, HomeBot, Seat, TableMember


@dataclass(frozen=True)
class BotToPlay:
    """One bot the house's bot process plays: where, as whom, and its buy-in."""

    id: int  # the HomeBot row's
    table_id: int
    player_id: int
    username: str
    buy_in: int
    seats: int  # the table's seat count, where the bot looks for a free seat


def home_bots_to_play() -> list[BotToPlay]:
    """Every bot the house should be playing now, in one query: those at open
    home games, and those seated at a closed one while its last hand plays
    out; only members (a bot the host removed as a player is not)."""
    member = TableMember.objects.filter(table=OuterRef("table"), player=OuterRef("player"))
    seated = Seat.objects.filter(table=OuterRef("table"), player=OuterRef("player"))
    last_hand = Hand.objects.filter(table=OuterRef("table"), ended_at__isnull=True)
    rows = (
        HomeBot.objects.filter(Exists(member))
        .filter(Q(table__is_open=True) | Q(Exists(seated), Exists(last_hand)))
        .select_related("player", "table__stakes")
        .order_by("pk")
    )
    return [
        BotToPlay(
            id=row.pk,
            table_id=row.table_id,
            player_id=row.player_id,
            username=row.player.username,
            buy_in=row.buy_in,
            seats=row.table.stakes.seats,
        )
        for row in rows
    ]


def home_bot_names(table_id: int) -> list[str]:
    """The usernames of the bots playing at a home game, in the order they were added."""
    return list(
        HomeBot.objects.filter(table_id=table_id).values_list("player__username", flat=True)
    )
