"""Sitting down, leaving, sitting out and in; the time bank kept for a player who stands up."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import ChipTransfer, User
from accounts.services import LedgerError, ledger_post
from tables.models import Hand, HomeBot, KeptTimeBank, Seat, Table, WaitingPlayer
from tables.selectors.tables import table_visible
from tables.services.chips import _seat_auto_rebuy
from tables.services.common import (
    ServiceError,
    _is_dealt_in,
    _lock_table,
    _seat_at,
    _seat_for_update,
    _unfinished_hand,
)
from tables.services.waiting_list import _seats_offer


@transaction.atomic
def seat_take(*, table_id: int, player_id: int, seat_number: int, buy_in: int) -> Seat:
    """Sit a player down, moving ``buy_in`` chips from their balance to the seat.

    At a home game whose host approves each seat, only the host and the bots
    they added sit down unasked; everyone else sends a seat request
    (``tables.services.home_seats``), and its approval seats them.
    """
    table = _lock_table(table_id)
    _check_can_sit(table, player_id, seat_number)
    if table.seat_approval and not _sits_unasked(table, player_id):
        raise ServiceError(
            f"{table.name}'s host approves each seat: ask them for seat {seat_number} "
            "and wait for their answer"
        )
    return _seat_buy_in(table, player_id, seat_number, buy_in)


def _sits_unasked(table: Table, player_id: int) -> bool:
    """Whether the player sits at an approval table without asking: its host,
    or a bot the host added (adding it was the host's approval)."""
    return (
        table.host_id == player_id
        or HomeBot.objects.filter(table=table, player_id=player_id).exists()
    )


def _seat_buy_in(table: Table, player_id: int, seat_number: int, buy_in: int) -> Seat:
    """Buy the player into the seat, which :func:`_check_can_sit` has let them take."""
    _check_buy_in(table, buy_in)
    try:
        ledger_post(
            user_id=player_id,
            kind=ChipTransfer.Kind.BUY_IN,
            amount=-buy_in,
            table_id=table.pk,
            note=f"seat {seat_number}",
        )
    except LedgerError as exc:
        raise ServiceError(f"can't buy in for {buy_in}: {exc}") from None
    bank = _time_bank_take_back(table, player_id, timezone.now())
    seat = Seat.objects.create(
        table=table, number=seat_number, player_id=player_id, stack=buy_in, **bank
    )
    # Seated, the player leaves the list; a seat held for them and not taken passes on.
    if WaitingPlayer.objects.filter(table=table, player_id=player_id).delete()[0]:
        _seats_offer(table, timezone.now())
    return seat


def _check_buy_in(table: Table, buy_in: int) -> None:
    stakes = table.stakes
    if type(buy_in) is not int or not stakes.min_buy_in <= buy_in <= stakes.max_buy_in:
        raise ServiceError(
            f"the buy-in must be {stakes.min_buy_in:,} to {stakes.max_buy_in:,} chips, "
            f"not {buy_in!r}"
        )


def _check_can_sit(table: Table, player_id: int, seat_number: int) -> None:
    """The table is open and the player may see it (a home game's host, member
    or staff), exists and has no seat there, and the seat is free."""
    player = User.objects.filter(pk=player_id).first()
    if player is None:
        raise ServiceError(f"there is no player #{player_id}")
    if not table_visible(table.pk, player_id, staff=player.is_staff):
        raise ServiceError(f"there is no table #{table.pk}")
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed")
    seats = table.stakes.seats
    if type(seat_number) is not int or not 1 <= seat_number <= seats:
        raise ServiceError(f"seat number must be 1 to {seats}, not {seat_number!r}")
    if Seat.objects.filter(table=table, player_id=player_id).exists():
        raise ServiceError(f"you already have a seat at {table.name}")
    if Seat.objects.filter(table=table, number=seat_number).exists():
        raise ServiceError(f"seat {seat_number} at {table.name} is taken")
    held = WaitingPlayer.objects.filter(table=table, offered_seat=seat_number)
    if held.exclude(player_id=player_id).exists():
        raise ServiceError(f"seat {seat_number} is held for the next player on the waiting list")


@transaction.atomic
def seat_leave(*, table_id: int, player_id: int) -> int | None:
    """Stand a player up and cash their stack out to their balance.

    A player dealt into the hand in progress, even one who has folded, keeps
    the seat until that hand ends, so every hand's players keep their seats
    until its results are written: the seat is marked ``leaving`` and stood up
    when the hand ends. Returns the chips cashed out, or None when leaving
    waits for the hand.
    """
    table = _lock_table(table_id)
    seat = _seat_at(table, player_id)
    hand = _unfinished_hand(table)
    if hand is not None and hand.engine_player(player_id) is not None:
        if not seat.leaving:
            seat.leaving = True
            seat.save(update_fields=["leaving"])
        return None
    return _seat_stand_up(table, seat)


@transaction.atomic
def seat_stay(*, table_id: int, player_id: int) -> Seat:
    """Take back a leave that was waiting for the hand to end; not a removal by
    a home game's host (the player may no longer see the table)."""
    seat = _seat_for_update(table_id, player_id)
    if seat.leaving and not table_visible(table_id, player_id, staff=seat.player.is_staff):
        raise ServiceError("the host has removed you from this game; you leave when this hand ends")
    if seat.leaving:
        seat.leaving = False
        seat.save(update_fields=["leaving"])
    return seat


def _seats_after_hand(hand: Hand) -> None:
    """Stand up the ended hand's players who asked to leave during it, sit out
    those who asked to, then top up those staying whose auto-rebuy amount is
    above their stack: one read for all three."""
    numbers = hand.seat_numbers()
    wanted = (
        Q(leaving=True)
        | Q(sitting_out_next=True)
        | Q(auto_rebuy_to__isnull=False, stack__lt=F("auto_rebuy_to"))
    )
    seats = list(Seat.objects.filter(table=hand.table, number__in=numbers).filter(wanted))
    for seat in seats:
        if seat.leaving:
            _seat_stand_up(hand.table, seat)
        elif seat.sitting_out_next and seat.state == Seat.State.SITTING_OUT:
            # Sat out for its timeouts during the hand: that reason stays to be read.
            seat.sitting_out_next = False
            seat.save(update_fields=["sitting_out_next"])
        elif seat.sitting_out_next:
            _seat_sit_out_now(seat, hand.ended_at or timezone.now())
    for seat in seats:
        if not seat.leaving:
            _seat_auto_rebuy(hand.table, seat)


def _seats_stand_up_all(table: Table) -> int:
    """Stand up every seat at the table (no hand is running); how many."""
    seats = list(Seat.objects.filter(table=table))
    for seat in seats:
        _seat_stand_up(table, seat)
    return len(seats)


def _seat_stand_up(table: Table, seat: Seat) -> int:
    """Cash the seat's stack out to its player's balance and free the seat.

    The player's time bank is kept for their return, and the freed seat is
    offered to the next player on the waiting list, if any.
    """
    now, chips = timezone.now(), seat.stack
    if chips:
        ledger_post(
            user_id=seat.player_id,
            kind=ChipTransfer.Kind.CASH_OUT,
            amount=chips,
            table_id=table.pk,
            note=f"seat {seat.number}",
        )
    _time_bank_keep(table, seat, now)
    seat.delete()
    _seats_offer(table, now)
    return chips


def time_bank_kept_for() -> timedelta:
    """How long a player who stands up keeps their time bank at the table:
    ``CARDROOM_TIME_BANK_KEPT_SECONDS``, read now (two hours by default).

    A time bank is the player's at the table, not the seat's: one who stands
    up (by choice, or stood up for sitting out) and sits down again within this
    long has the bank and the refill progress they left with, so that leaving
    is no way to a full bank. PokerStars counts a return to the same table
    within two hours as the same playing session (its rule for the chips one
    comes back with); after that, the player starts afresh with a whole bank.
    """
    return timedelta(seconds=settings.CARDROOM_TIME_BANK_KEPT_SECONDS)


def _time_bank_keep(table: Table, seat: Seat, now: datetime) -> None:
    """Keep the time bank of a player standing up, unless it is as a new seat's
    (always so with the countdown clock); forget banks kept past their time."""
    if seat.time_bank_ms is None and seat.hands_since_refill == 0:
        return
    KeptTimeBank.objects.filter(table=table, left_at__lt=now - time_bank_kept_for()).delete()
    KeptTimeBank.objects.update_or_create(
        table=table,
        player_id=seat.player_id,
        defaults={
            "time_bank_ms": seat.time_bank_ms,
            "hands_since_refill": seat.hands_since_refill,
            "left_at": now,
        },
    )


def _time_bank_take_back(table: Table, player_id: int, now: datetime) -> dict[str, Any]:
    """The time bank the player stood up from the table with, as the new seat's
    fields, if they left within :func:`time_bank_kept_for`; none for a whole bank.

    The kept row goes either way: it is used once, and an old one is forgotten.
    """
    kept = list(
        KeptTimeBank.objects.filter(table=table, player_id=player_id).values(
            "pk", "time_bank_ms", "hands_since_refill", "left_at"
        )
    )
    if not kept:
        return {}
    (row,) = kept
    KeptTimeBank.objects.filter(pk=row["pk"]).delete()
    if row["left_at"] < now - time_bank_kept_for():
        return {}
    return {"time_bank_ms": row["time_bank_ms"], "hands_since_refill": row["hands_since_refill"]}


@transaction.atomic
def seat_sit_out(*, table_id: int, player_id: int, now: datetime | None = None) -> Seat:
    """Deal the player out of hands from the next one on; a hand they are in plays on.

    During a hand they are dealt into, the seat plays on as before and is only
    marked ``sitting_out_next``: it sits out when the hand ends
    (:func:`_seats_after_hand`), so nobody else sees it sitting out before then.
    """
    table = _lock_table(table_id)
    seat = _seat_at(table, player_id)
    if seat.state == Seat.State.SITTING_OUT and not seat.sat_out_for:
        return seat
    if seat.state != Seat.State.SITTING_OUT and _is_dealt_in(table, player_id):
        if not seat.sitting_out_next:
            seat.sitting_out_next = True
            seat.save(update_fields=["sitting_out_next"])
        return seat
    _seat_sit_out_now(seat, now or timezone.now())
    return seat


def _seat_sit_out_now(seat: Seat, now: datetime) -> None:
    """Sit the seat out by its player's choice; one already away stays away since then."""
    if seat.state == Seat.State.PLAYING or seat.away_since is None:
        seat.away_since = now
    seat.state, seat.sat_out_for = Seat.State.SITTING_OUT, Seat.SatOutFor.CHOICE
    seat.sitting_out_next = False
    seat.save(update_fields=["state", "sat_out_for", "sitting_out_next", "away_since"])


@transaction.atomic
def seat_sit_in(*, table_id: int, player_id: int) -> Seat:
    """Deal the player in again from the next hand, their timeouts forgiven; a
    sit-out waiting for the hand's end is taken back."""
    seat = _seat_for_update(table_id, player_id)
    seat.state, seat.timeouts_in_a_row, seat.hands_missed = Seat.State.PLAYING, 0, 0
    seat.sat_out_for, seat.sitting_out_next, seat.away_since = Seat.SatOutFor.CHOICE, False, None
    seat.save(
        update_fields=[
            "state",
            "timeouts_in_a_row",
            "hands_missed",
            "sat_out_for",
            "sitting_out_next",
            "away_since",
        ]
    )
    return seat
