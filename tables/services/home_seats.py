"""A home game whose host approves each seat: a member's seat request, and the
host's answer to it.

With ``Table.seat_approval`` on, a member who picks a free seat asks for it
(:func:`seat_request_send`) instead of sitting down; a plain sit is refused
them (``tables.services.seats.seat_take``). The host sees each request and
approves it, which buys the player in at the seat they asked for, or refuses
it. A player has one request waiting at a time: a second is refused until
they withdraw the first, so what the host approves is what they were shown.
The chips are taken when the host approves, not when the player asks: a
request holds nothing.

Every request is answered once: an approval that can no longer be met (the
seat taken meanwhile, the balance spent) is refused and the request goes
with it, so the host is not asked again for a seat nobody can have.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables import broadcast
from tables.models import Hand, SeatRequest, Table, WaitingPlayer
from tables.selectors.snapshots import seat_requests_waiting
from tables.services.common import ServiceError, _lock_table
from tables.services.hands import hand_start_if_ready
from tables.services.home import _host_open_table
from tables.services.seats import _check_buy_in, _check_can_sit, _seat_buy_in

# ------------------------------------------------------------ the member's side


@transaction.atomic
def seat_request_send(*, table_id: int, player_id: int, seat_number: int, buy_in: int) -> None:
    """Ask the host of ``table_id`` for seat ``seat_number`` with ``buy_in``
    chips; checked as a sit is, and refused where asking is not how one sits."""
    table = _lock_table(table_id)
    _check_can_sit(table, player_id, seat_number)
    if not table.seat_approval:
        raise ServiceError(f"nobody approves seats at {table.name}: take the seat")
    if table.host_id == player_id:
        raise ServiceError("you host this game: take the seat, nobody need approve it")
    _check_buy_in(table, buy_in)
    balance = User.objects.values_list("balance", flat=True).get(pk=player_id)
    if balance < buy_in:
        raise ServiceError(f"can't buy in for {buy_in:,}: you have {balance:,} chips")
    waiting = seat_requests_waiting(table.pk).filter(player_id=player_id).first()
    if waiting is not None:
        raise ServiceError(
            f"you have asked for seat {waiting.number} already: "
            "withdraw that request to ask for another"
        )
    # One made before the host removed them, if any, was never answered: it goes.
    SeatRequest.objects.filter(table=table, player_id=player_id).delete()
    SeatRequest.objects.create(table=table, player_id=player_id, number=seat_number, buy_in=buy_in)


@transaction.atomic
def seat_request_withdraw(*, table_id: int, player_id: int) -> None:
    """Take back the player's seat request before the host answers it."""
    table = _lock_table(table_id)
    deleted, _ = seat_requests_waiting(table.pk).filter(player_id=player_id).delete()
    if not deleted:
        raise ServiceError(f"you have no seat request waiting at {table.name}")


# -------------------------------------------------------------- the host's side


@transaction.atomic
def home_seat_approval_set(*, table_id: int, player_id: int, on: bool) -> None:
    """The host turns seat approval on or off. Off, anyone let in sits down
    unasked, so the requests waiting go: their players may simply sit. On,
    the waiting list goes (a seat it held is free again): a seat that frees
    is asked for, and approved, like any other."""
    table = _host_open_table(table_id, player_id)
    if table.seat_approval == on:
        state = "approves each seat already" if on else "lets anyone let in sit already"
        raise ServiceError(f"{table.name} {state}")
    table.seat_approval = on
    table.save(update_fields=["seat_approval"])
    if not on:
        SeatRequest.objects.filter(table=table).delete()
    else:
        WaitingPlayer.objects.filter(table=table).delete()


def home_seat_approve(*, table_id: int, player_id: int, username: str) -> Hand | None:
    """The host approves ``username``'s seat request: they are bought in at the
    seat they asked for, and the next hand is dealt if the table is ready (the
    hand, or None), as after a sit.

    Refused, and the request gone with it, when it can no longer be met: the
    seat taken or held meanwhile, or the player's balance short of the buy-in.
    The table's viewers hear of that as of any change.
    """
    problem = _seat_request_grant(table_id, player_id, username)
    if problem is not None:
        raise ServiceError(problem)
    return hand_start_if_ready(table_id=table_id)


@transaction.atomic
def _seat_request_grant(table_id: int, player_id: int, username: str) -> str | None:
    """Seat the requester and answer the request; why it couldn't be, or None.

    The request goes either way, committed with the seat or without it.
    """
    table = _host_open_table(table_id, player_id)
    request = _request_waiting(table, username)
    request.delete()
    try:
        with transaction.atomic():  # a seat half made is undone, the answer kept
            _check_can_sit(table, request.player_id, request.number)
            _seat_buy_in(table, request.player_id, request.number, request.buy_in)
    except ServiceError as exc:
        broadcast.table_changed(table.pk)  # the request is gone: the host's list loses it
        return f"can't seat {username}: {exc}; their request is gone"
    return None


@transaction.atomic
def home_seat_refuse(*, table_id: int, player_id: int, username: str) -> None:
    """The host refuses ``username``'s seat request; they may watch, and ask again."""
    table = _host_open_table(table_id, player_id)
    _request_waiting(table, username).delete()


def _request_waiting(table: Table, username: str) -> SeatRequest:
    """``username``'s request waiting at ``table`` (:func:`seat_requests_waiting`)."""
    request = seat_requests_waiting(table.pk).filter(player__username=username).first()
    if request is None:
        raise ServiceError(f"{username} has no seat request waiting")
    return request
