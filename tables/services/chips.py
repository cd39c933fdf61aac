"""Chips at the seat: top-ups, rebuys and auto-rebuy.

Chips join a stack only between the hands its player is dealt into: the
engine holds a running hand's stacks, and a stack must not grow mid-hand.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import ChipTransfer, User
from accounts.services import LedgerError, ledger_post
from tables.models import Seat, Stakes, Table
from tables.services.common import ServiceError, _is_dealt_in, _lock_table, _seat_at


@transaction.atomic
def seat_top_up(*, table_id: int, player_id: int, amount: int) -> Seat:
    """Add ``amount`` chips from the balance to a stack that has some, up to the maximum buy-in."""
    table = _lock_table(table_id)
    seat = _seat_between_hands(table, player_id, "top up")
    if type(amount) is not int or amount < 1:
        raise ServiceError(f"a top-up must be a whole number of chips, at least 1, not {amount!r}")
    if seat.stack == 0:
        stakes = table.stakes
        raise ServiceError(
            f"you have no chips left to top up: rebuy for {stakes.min_buy_in:,} to "
            f"{stakes.max_buy_in} instead"
        )
    room = table.stakes.max_buy_in - seat.stack
    if amount > room:
        raise ServiceError(_over_the_maximum(table.stakes, seat.stack))
    _seat_add_chips(table, seat, amount, "top-up")
    return seat


@transaction.atomic
def seat_rebuy(*, table_id: int, player_id: int, amount: int) -> Seat:
    """Buy in again for ``amount`` chips from the balance after losing the whole stack."""
    table = _lock_table(table_id)
    seat = _seat_between_hands(table, player_id, "rebuy")
    if seat.stack:
        raise ServiceError(f"you still have {seat.stack:,} chips: a rebuy is for a stack of 0")
    stakes = table.stakes
    if type(amount) is not int or not stakes.min_buy_in <= amount <= stakes.max_buy_in:
        raise ServiceError(
            f"a rebuy must be {stakes.min_buy_in:,} to {stakes.max_buy_in:,} chips, not {amount!r}"
        )
    _seat_add_chips(table, seat, amount, "rebuy")
    return seat


@transaction.atomic
def seat_auto_rebuy_set(*, table_id: int, player_id: int, amount: int | None) -> Seat:
    """Top the stack up to ``amount`` after every hand from now on (None: stop).

    ``amount`` is a buy-in the stakes allow. Set between the player's hands, it
    also tops the stack up at once; set during one, when that hand ends.
    """
    table = _lock_table(table_id)
    seat = _seat_at(table, player_id)
    _check_open_for_chips(table, "set auto-rebuy")
    stakes = table.stakes
    if amount is not None and (
        type(amount) is not int or not stakes.min_buy_in <= amount <= stakes.max_buy_in
    ):
        raise ServiceError(
            f"auto-rebuy must be to {stakes.min_buy_in:,} to {stakes.max_buy_in:,} chips, "
            f"not {amount!r}"
        )
    seat.auto_rebuy_to = amount
    seat.save(update_fields=["auto_rebuy_to"])
    if not _is_dealt_in(table, player_id):
        _seat_auto_rebuy(table, seat)
    return seat


def _seat_auto_rebuy(table: Table, seat: Seat) -> None:
    """Top the seat up to its auto-rebuy amount, as far as the balance allows.

    The rules of a player's own top-up and rebuy hold: never past the maximum
    buy-in (which the operator may have lowered since), and a stack of 0 is
    bought in again only for at least the minimum. A balance too low for that
    skips this time quietly; the setting stays for the next hand.
    """
    stakes = table.stakes
    target = min(seat.auto_rebuy_to or 0, stakes.max_buy_in)
    # Locked as ledger_post would: the amount must still be there when it posts.
    balance = User.objects.select_for_update().values_list("balance", flat=True)
    amount = min(target - seat.stack, balance.get(pk=seat.player_id))
    if amount < 1 or (seat.stack == 0 and amount < stakes.min_buy_in):
        return
    _seat_add_chips(table, seat, amount, "auto-rebuy")


def _seat_between_hands(table: Table, player_id: int, what: str) -> Seat:
    """The player's seat, refused while they are dealt into the hand being played
    and at a closed table."""
    seat = _seat_at(table, player_id)
    _check_open_for_chips(table, what)
    if _is_dealt_in(table, player_id):
        raise ServiceError(f"you can {what} only between hands, not during a hand you are in")
    return seat


def _check_open_for_chips(table: Table, what: str) -> None:
    """No chips go onto a closed table: its seats are stood up when its last hand ends."""
    if not table.is_open:
        raise ServiceError(
            f"{table.name} is closed, so you can't {what}: every seat is cashed out "
            "when its last hand ends"
        )


def _over_the_maximum(stakes: Stakes, stack: int) -> str:
    room = stakes.max_buy_in - stack
    if room <= 0:
        return f"your {stack:,} chips are already the table's maximum of {stakes.max_buy_in:,}"
    return (
        f"you can add at most {room:,} chips: the table's maximum is {stakes.max_buy_in:,} "
        f"and you have {stack:,}"
    )


def _seat_add_chips(table: Table, seat: Seat, amount: int, what: str) -> None:
    """Move chips from the player's balance to their seat (the table is locked)."""
    try:
        ledger_post(
            user_id=seat.player_id,
            kind=ChipTransfer.Kind.TOP_UP,
            amount=-amount,
            table_id=table.pk,
            note=f"seat {seat.number}, {what}",
        )
    except LedgerError:
        balance = User.objects.values_list("balance", flat=True).get(pk=seat.player_id)
        raise ServiceError(
            f"you have {balance:,} chips in your balance, fewer than the {amount:,} asked for"
        ) from None
    seat.stack += amount
    seat.save(update_fields=["stack"])
