"""The only code that changes tables, seats and hands.

Every service runs in one transaction and first locks the table's row, so moves,
buy-ins and hand starts at one table happen one after another. Chips move
between a player's balance and a seat only through ``accounts.services.ledger_post``.

Chip bookkeeping while a hand runs: each seat's ``stack`` equals the engine's
``stacks[i]`` for that player (the chips behind), and the chips in the pot live
in the hand's ``state["committed"]``. When the hand ends the engine pays the
pots into its stacks, which are copied to the seats, and the rake leaves the
table as a :class:`RakeEntry`.

The turn clock: whenever a player is to act, the hand's ``turn_deadline`` is
the end of their action time (``Stakes.action_seconds`` from the moment the
turn began) and ``turn_expires_at`` adds their extra time. By default
(``Stakes.Clock.PER_TURN``) that is a whole countdown every turn, whatever
earlier turns took. With ``Stakes.Clock.TIME_BANK`` it is what is left of the
seat's time bank: a move made after the deadline spends the time it took out
of the bank, the bank is refilled as the player is dealt hands, and it is
kept for a player who stands up and comes back (:func:`time_bank_kept_for`).
Each turn's timeout is a Celery task sent for ``turn_expires_at`` and naming
the hand and its version; a sweep run by beat (:func:`hands_expire_overdue`)
catches any task that was lost. Both end in :func:`hand_timeout`, which acts
only on the turn it was sent for, so a late, early or repeated task changes
nothing.

``Hand.seating`` is ``{"dealer": seat number, "players": [{"seat": n, "player":
id, "name": username}, ...]}`` with the players in engine order: engine player
``i`` is ``players[i]``, starting from the first seat clockwise from the
dealer. ``name`` is the username the table showed at the deal, so the hand
names its players after they leave; hands dealt before it was kept have none
(``tables.selectors.snapshots.hand_names``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import ChipTransfer, User
from accounts.services import LedgerError, ledger_post
from tables.compiled import CompiledRead
from tables.models import (
    ChatLine,
    Hand,
    HandAction,
    HandResult,
    KeptTimeBank,
    PlayerDay,
    RakeEntry,
    Seat,
    Stakes,
    Table,
    TableConnection,
    WaitingPlayer,
)
from tables.rules import HandState, IllegalAction, LegalAction
from tables.rules.cards import card_str, shuffled_deck
from tables.rules.state import PROTECT, WAGERS
from tables.rules.views import view


class ServiceError(ValueError):
    """A request the table refuses; the message says why. Nothing was changed."""


class StaleMove(ServiceError):
    """A move made against an old version of the hand, or after it ended."""


class IllegalMove(ServiceError):
    """A move the rules engine refused; the message is the engine's."""


# Seats dealt into the next hand (if they have chips). A disconnected player is
# dealt in, as in online rooms: the turn clock, not the socket, decides.
DEALT_IN_STATES = (Seat.State.PLAYING, Seat.State.DISCONNECTED)


def deck_commitment(salt: str, deck: Sequence[int]) -> str:
    """The SHA-256 published when a hand starts, before any card is dealt.

    It is the hex digest of ``"<salt>:<cards>"`` in UTF-8, where the cards are
    the whole shuffled deck in dealing order, written like ``Ah`` and joined by
    single spaces. Once the hand is over, ``Hand.deck`` and ``Hand.deck_salt``
    let anyone recompute it and check that the deck was fixed before the deal.

    >>> deck_commitment("00", [50, 0])  # sha256(b"00:Ah 2c")
    '00ffb24fa792789f3c2d6e702e9d89f5005111200ebcc75bbf89649db75e204b'
    """
    text = f"{salt}:{' '.join(card_str(card) for card in deck)}"
    return hashlib.sha256(text.encode()).hexdigest()


# ------------------------------------------------------------------- tables


@transaction.atomic
def table_open(*, table_id: int) -> Table:
    """Let players sit down and new hands start."""
    return _table_set_open(table_id, is_open=True)


@transaction.atomic
def table_close(*, table_id: int) -> Table:
    """Start no new hands and seat nobody new; a hand in progress plays to the end.

    Every seat is stood up, its chips back in its player's balance: at once
    when no hand is running, else as soon as that hand ends
    (:func:`_hand_end_write`). The waiting list is emptied.
    """
    table = _table_set_open(table_id, is_open=False)
    WaitingPlayer.objects.filter(table=table).delete()
    if _unfinished_hand(table) is None:
        _seats_stand_up_all(table)
    return table


def _table_set_open(table_id: int, *, is_open: bool) -> Table:
    table = _lock_table(table_id)
    if table.is_open != is_open:
        table.is_open = is_open
        table.save(update_fields=["is_open"])
    return table


def _lock_table(table_id: int) -> Table:
    """The table's row, locked until the transaction ends, with its stakes.

    Only the table's row is locked (``of``): every table of the same stakes
    must not wait on one another.
    """
    found = _TABLE_LOCKED(table_id)
    if not found:
        raise ServiceError(f"there is no table #{table_id}")
    return found[0]


# The reads every move makes, compiled once (see tables.compiled). Each runs in
# the move's transaction, as select_for_update needs.
_TABLE_LOCKED = CompiledRead(
    lambda table_id: (
        Table.objects.select_for_update(of=("self",)).select_related("stakes").filter(pk=table_id)
    )
)
_HAND_AT = CompiledRead(
    lambda hand_id, table_id: Hand.objects.filter(pk=hand_id, table_id=table_id), arity=2
)
_SEATS_AT = CompiledRead(lambda table_id: Seat.objects.filter(table_id=table_id))


# -------------------------------------------------------------------- seats


@transaction.atomic
def seat_take(*, table_id: int, player_id: int, seat_number: int, buy_in: int) -> Seat:
    """Sit a player down, moving ``buy_in`` chips from their balance to the seat."""
    table = _lock_table(table_id)
    _check_can_sit(table, player_id, seat_number)
    stakes = table.stakes
    if type(buy_in) is not int or not stakes.min_buy_in <= buy_in <= stakes.max_buy_in:
        raise ServiceError(
            f"the buy-in must be {stakes.min_buy_in:,} to {stakes.max_buy_in:,} chips, "
            f"not {buy_in!r}"
        )
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


def _check_can_sit(table: Table, player_id: int, seat_number: int) -> None:
    """The table is open, the player exists and has no seat there, the seat is free."""
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed")
    if not User.objects.filter(pk=player_id).exists():
        raise ServiceError(f"there is no player #{player_id}")
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
    if hand is not None and _engine_index(hand, player_id) is not None:
        if not seat.leaving:
            seat.leaving = True
            seat.save(update_fields=["leaving"])
        return None
    return _seat_stand_up(table, seat)


@transaction.atomic
def seat_stay(*, table_id: int, player_id: int) -> Seat:
    """Take back a leave that was waiting for the hand to end."""
    seat = _seat_for_update(table_id, player_id)
    if seat.leaving:
        seat.leaving = False
        seat.save(update_fields=["leaving"])
    return seat


def _seats_after_hand(hand: Hand) -> None:
    """Stand up the ended hand's players who asked to leave during it, sit out
    those who asked to, then top up those staying whose auto-rebuy amount is
    above their stack: one read for all three."""
    numbers = [entry["seat"] for entry in hand.seating["players"]]
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


# ------------------------------------------------------- chips at the seat
#
# Chips join a stack only between the hands its player is dealt into: the
# engine holds a running hand's stacks, and a stack must not grow mid-hand.


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


def _is_dealt_in(table: Table, player_id: int) -> bool:
    hand = _unfinished_hand(table)
    return hand is not None and _engine_index(hand, player_id) is not None


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


# ------------------------------------------------------------ waiting list


@transaction.atomic
def waiting_join(*, table_id: int, player_id: int) -> WaitingPlayer:
    """Put the player at the end of the table's waiting list.

    Only at a full table: every seat taken or held for someone on the list.
    """
    table = _lock_table(table_id)
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed")
    if Seat.objects.filter(table=table, player_id=player_id).exists():
        raise ServiceError(f"you already have a seat at {table.name}")
    if WaitingPlayer.objects.filter(table=table, player_id=player_id).exists():
        raise ServiceError(f"you are already on the waiting list at {table.name}")
    free = _seats_free(table)
    if free:
        raise ServiceError(f"seat {free[0]} at {table.name} is free: sit there instead")
    return WaitingPlayer.objects.create(table=table, player_id=player_id)


@transaction.atomic
def waiting_leave(*, table_id: int, player_id: int) -> None:
    """Take the player off the table's waiting list; a seat held for them passes on."""
    table = _lock_table(table_id)
    mine = WaitingPlayer.objects.filter(table=table, player_id=player_id)
    if not mine.delete()[0]:
        raise ServiceError(f"you are not on the waiting list at {table.name}")
    _seats_offer(table, timezone.now())


def waiting_offers_expire(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Pass every seat offer that ran out to the next in line; how many ran out.

    Run by beat's sweep every few seconds. A player whose offer ran out leaves
    the list. Each table is its own transaction, and ``on_changed`` is called
    with the table's id after it.
    """
    now = now or timezone.now()
    expired = WaitingPlayer.objects.filter(offer_expires_at__lte=now)
    tables = expired.order_by("table_id").values_list("table_id", flat=True).distinct()
    return _tables_sweep(
        list(tables[:SWEEP_BATCH]),
        lambda table_id: _waiting_offers_expire_at(table_id, now),
        on_changed,
    )


def _tables_sweep(
    table_ids: list[int],
    change: Callable[[int], int],
    on_changed: Callable[[int], object] | None,
) -> int:
    """What a sweep does at each table: ``change`` (a transaction of its own,
    returning how many things it changed there), then ``on_changed`` with the
    table's id where it changed any; how many in all."""
    total = 0
    for table_id in table_ids:
        count = change(table_id)
        if count:
            total += count
            if on_changed is not None:
                on_changed(table_id)
    return total


@transaction.atomic
def _waiting_offers_expire_at(table_id: int, now: datetime) -> int:
    table = _lock_table(table_id)
    # Read again under the lock: the player may have sat down meanwhile.
    count, _ = WaitingPlayer.objects.filter(table=table, offer_expires_at__lte=now).delete()
    _seats_offer(table, now)
    return count


def _seats_offer(table: Table, now: datetime) -> None:
    """Offer each free seat not yet held to the next player in line with no offer.

    Called whenever a seat may have freed or an offer ended; with nobody
    waiting (as at most tables) it costs one query and changes nothing.
    """
    if not table.is_open:  # nobody new sits at a closed table
        return
    waiting = WaitingPlayer.objects.filter(table=table, offered_seat__isnull=True)
    waiting = list(waiting.order_by("joined_at", "pk")[: table.stakes.seats])
    if not waiting:
        return
    expires = now + timedelta(seconds=settings.CARDROOM_SEAT_OFFER_SECONDS)
    for number, player in zip(_seats_free(table), waiting, strict=False):
        player.offered_seat, player.offer_expires_at = number, expires
        player.save(update_fields=["offered_seat", "offer_expires_at"])


def _seats_free(table: Table) -> list[int]:
    """The table's seat numbers that nobody sits in and no offer holds, lowest first."""
    taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
    held = WaitingPlayer.objects.filter(table=table, offered_seat__isnull=False)
    taken.update(held.values_list("offered_seat", flat=True))
    return [n for n in range(1, table.stakes.seats + 1) if n not in taken]


# ------------------------------------------------------------- connections

# Each Daphne process vouches for its players' open websockets (TableConnection
# rows) this often; a row not vouched for in CONNECTION_STALE_SECONDS belongs to
# a process that is gone, and counts for nothing. Three beats, so one slow beat
# never makes a live socket look gone.
CONNECTION_HEARTBEAT_SECONDS = 10
CONNECTION_STALE_SECONDS = 30


@transaction.atomic
def connection_open(
    *, table_id: int, player_id: int, channel_name: str, now: datetime | None = None
) -> bool:
    """Count a player's new websocket at the table; whether their seat changed.

    A seat shown disconnected is playing again, and if the hand in progress is
    waiting on them with time left, they also get :func:`hand_reconnect`'s
    extension, once per hand. A seat sitting out stays so.
    """
    now = now or timezone.now()
    table = _lock_table(table_id)
    TableConnection.objects.create(
        channel_name=channel_name, table=table, player_id=player_id, seen_at=now
    )
    seats = Seat.objects.filter(table=table, player_id=player_id, state=Seat.State.DISCONNECTED)
    if not seats.update(state=Seat.State.PLAYING, away_since=None):
        return False
    hand = _unfinished_hand(table)
    if hand is not None:
        hand_reconnect(hand_id=hand.pk, player_id=player_id, now=now)
    return True


@transaction.atomic
def connection_close(
    *, table_id: int, player_id: int, channel_name: str, now: datetime | None = None
) -> bool:
    """Forget a closed websocket; whether the player's seat changed.

    The seat shows the player disconnected only when this was their last live
    connection to the table: closing one of two tabs changes nothing. Only a
    playing seat changes; one sitting out stays so. A disconnected player is
    still dealt in (see :func:`hand_start`).
    """
    table = _lock_table(table_id)
    TableConnection.objects.filter(channel_name=channel_name).delete()
    return _seat_disconnect_if_gone(table, player_id, now or timezone.now())


def _seat_disconnect_if_gone(table: Table, player_id: int, now: datetime) -> bool:
    """Mark the player's playing seat disconnected unless a live connection is left."""
    live = now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    if TableConnection.objects.filter(table=table, player_id=player_id, seen_at__gte=live).exists():
        return False
    seats = Seat.objects.filter(table=table, player_id=player_id, state=Seat.State.PLAYING)
    return seats.update(state=Seat.State.DISCONNECTED, away_since=now) > 0


@transaction.atomic
def connections_refresh(
    *, connections: Sequence[tuple[str, int, int]], now: datetime | None = None
) -> None:
    """A process vouches for its open websockets, as ``(channel name, table id, player id)``.

    One statement however many there are. A row the sweep deleted while this
    process was stalled is written again, so it counts once more.
    """
    now = now or timezone.now()
    TableConnection.objects.bulk_create(
        [
            TableConnection(channel_name=channel, table_id=table, player_id=player, seen_at=now)
            for channel, table, player in connections
        ],
        update_conflicts=True,
        unique_fields=["channel_name"],
        update_fields=["seen_at"],
    )


def connections_expire_stale(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Delete the connections no process has vouched for lately; seats changed.

    The sockets of a Daphne process that was killed never closed, so their
    players' seats still show them playing: each such player with no live
    connection left is shown disconnected, one transaction per table and
    player, and ``on_changed`` is called with the table's id after it.
    """
    now = now or timezone.now()
    stale = TableConnection.objects.filter(
        seen_at__lt=now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    )
    changed = 0
    for table_id, player_id in set(stale.values_list("table_id", "player_id")[:SWEEP_BATCH]):
        if _connections_expire(table_id, player_id, now):
            changed += 1
            if on_changed is not None:
                on_changed(table_id)
    return changed


@transaction.atomic
def _connections_expire(table_id: int, player_id: int, now: datetime) -> bool:
    table = _lock_table(table_id)
    cutoff = now - timedelta(seconds=CONNECTION_STALE_SECONDS)
    mine = TableConnection.objects.filter(table=table, player_id=player_id)
    mine.filter(seen_at__lt=cutoff).delete()
    return _seat_disconnect_if_gone(table, player_id, now)


def _seat_for_update(table_id: int, player_id: int) -> Seat:
    return _seat_at(_lock_table(table_id), player_id)


def _seat_at(table: Table, player_id: int) -> Seat:
    seat = Seat.objects.filter(table=table, player_id=player_id).first()
    if seat is None:
        raise ServiceError(f"you have no seat at {table.name}")
    return seat


# --------------------------------------------------------------- idle seats

# A seat whose player has gone: disconnected, or sitting out.
AWAY_STATES = (Seat.State.DISCONNECTED, Seat.State.SITTING_OUT)


def idle_seat_time() -> timedelta:
    """How long a player away from a table that deals no hand keeps their seat:
    ``CARDROOM_IDLE_SEAT_SECONDS``, read now (five minutes by default)."""
    return timedelta(seconds=settings.CARDROOM_IDLE_SEAT_SECONDS)


def seats_stand_up_idle(
    *, now: datetime | None = None, on_changed: Callable[[int], object] | None = None
) -> int:
    """Stand up the seats held by nobody at tables where no hand is dealt; how many.

    Run by beat's sweep. A player away (disconnected or sitting out) is stood
    up, chips back in their balance, once :func:`idle_seat_time` has passed
    both since they went away and since the table's last hand ended, with no
    hand running: so a table that can't deal (one player left with chips, or
    nobody there) holds no seat for good, while a short break between hands
    costs nobody theirs. Where hands are dealt the stakes' ``sit_out_hands``
    stands up a seat sitting out instead, and a disconnected player is dealt
    in and sat out by the clock. At a closed table with no hand running every
    seat is stood up, as :func:`table_close` and the end of its last hand do.
    Each table is its own transaction, and ``on_changed`` is called with the
    table's id after it.
    """
    now = now or timezone.now()
    tables = list(_tables_with_idle_seats(now)[:SWEEP_BATCH])
    return _tables_sweep(
        tables, lambda table_id: _seats_stand_up_idle_at(table_id, now), on_changed
    )


def _tables_with_idle_seats(now: datetime) -> QuerySet[Seat, int]:
    """The tables with a seat for :func:`seats_stand_up_idle` to stand up, by id.

    Each table's latest hand, the one that may be running, is found through
    its unique (table, number) index.
    """
    cutoff = now - idle_seat_time()
    latest = Hand.objects.filter(table=OuterRef("table_id")).order_by("-number")
    seats = Seat.objects.annotate(
        dealt=Exists(latest),
        last_ended=Subquery(latest.values("ended_at")[:1]),
        away_from=Coalesce("away_since", "joined_at"),  # no time kept: since it sat down
    )
    idle = Q(dealt=False) | Q(last_ended__lte=cutoff)
    no_hand_running = Q(dealt=False) | Q(last_ended__isnull=False)
    away = Q(state__in=AWAY_STATES, away_from__lte=cutoff) & idle
    closed = Q(table__is_open=False) & no_hand_running
    wanted = seats.filter(away | closed).order_by("table_id")
    return wanted.values_list("table_id", flat=True).distinct()


@transaction.atomic
def _seats_stand_up_idle_at(table_id: int, now: datetime) -> int:
    """Stand up the table's idle seats, checked again under its lock; how many."""
    table = _lock_table(table_id)
    last = table.hands.order_by("-number").only("ended_at").first()
    if last is not None and last.ended_at is None:
        return 0  # a hand was dealt meanwhile
    if not table.is_open:
        return _seats_stand_up_all(table)
    cutoff = now - idle_seat_time()
    if last is not None and last.ended_at is not None and last.ended_at > cutoff:
        return 0
    away = Seat.objects.filter(table=table, state__in=AWAY_STATES)
    seats = list(
        away.annotate(away_from=Coalesce("away_since", "joined_at")).filter(away_from__lte=cutoff)
    )
    for seat in seats:
        _seat_stand_up(table, seat)
    return len(seats)


# --------------------------------------------------------------------- chat

# The chat lines a page gets when it opens, so it picks up the talk.
CHAT_RECENT_LINES = 50


def chat_post(*, table_id: int, player_id: int, text: str) -> dict[str, Any]:
    """Keep one chat line; the line as everyone at the table is sent it."""
    table = Table.objects.filter(pk=table_id).only("pk").first()
    if table is None:
        raise ServiceError(f"there is no table #{table_id}")
    line = ChatLine.objects.create(table=table, player_id=player_id, text=text)
    username = User.objects.filter(pk=player_id).values_list("username", flat=True).get()
    return _chat_message(line.pk, username, text, line.sent_at)


def chat_recent(*, table_id: int, limit: int = CHAT_RECENT_LINES) -> list[dict[str, Any]]:
    """The table's last ``limit`` chat lines, oldest first."""
    lines = (
        ChatLine.objects.filter(table_id=table_id)
        .order_by("-pk")
        .values_list("pk", "player__username", "text", "sent_at")[:limit]
    )
    return [_chat_message(*line) for line in reversed(lines)]


def _chat_message(line_id: int, username: str, text: str, sent_at: datetime) -> dict[str, Any]:
    return {"id": line_id, "from": username, "text": text, "at": sent_at.isoformat()}


# -------------------------------------------------------------------- hands


@transaction.atomic
def hand_start(*, table_id: int, now: datetime | None = None) -> Hand:
    """Deal a new hand now, to every playing seat with chips, the button moved on one.

    Raises :class:`ServiceError` naming why not: the table is closed, a hand is
    running, or fewer than two players are dealt in. It does not wait out the
    pause after the last hand; the site deals through
    :func:`hand_start_if_ready`, which does. ``now`` (default: the current
    time) starts the first turn's clock.

    Seats sitting out, and seats with no chips, are dealt out; one dealt out of
    the stakes' ``sit_out_hands`` hands in a row is stood up. A disconnected
    player is dealt in: their clock runs, so they check or fold in turn and
    are sat out after two timeouts.
    """
    table = _lock_table(table_id)
    problem = _why_no_deal(table)
    if problem is not None:
        raise ServiceError(problem)
    return _hand_deal(table, now or timezone.now())


def hand_start_if_ready(*, table_id: int, now: datetime | None = None) -> Hand | None:
    """Deal the table's next hand if it is ready for one; the one way the site deals.

    Ready means open, no hand running, two players dealt in with chips, and
    the pause after the last hand over (:func:`next_hand_pause`). The
    consumers call it when a player sits or sits in, the ``start_next_hand``
    task when the pause is up, beat's sweep (:func:`hands_start_due`) for any
    table still idle after it, and the admin when it opens a table.

    None when the table isn't ready, and when another caller dealt first: a
    normal, quiet outcome. Two callers at once deal one hand: the second
    finds the first's under the table's lock.
    """
    now = now or timezone.now()
    table = Table.objects.filter(pk=table_id).first()  # unlocked: most calls stop here
    if table is None or _why_no_deal(table, now) is not None:
        return None
    return _hand_start_if_still_ready(table_id, now)


@transaction.atomic
def _hand_start_if_still_ready(table_id: int, now: datetime) -> Hand | None:
    table = _lock_table(table_id)
    if _why_no_deal(table, now) is not None:
        return None
    return _hand_deal(table, now)


def next_hand_pause() -> timedelta:
    """The pause after a hand ends, so everyone sees the showdown.

    ``CARDROOM_NEXT_HAND_DELAY_SECONDS``; none without a broker
    (``CARDROOM_TURN_TASKS`` off), where no task or sweep could deal later.
    """
    if not settings.CARDROOM_TURN_TASKS:
        return timedelta(0)
    return timedelta(seconds=settings.CARDROOM_NEXT_HAND_DELAY_SECONDS)


def _why_no_deal(table: Table, now: datetime | None = None) -> str | None:
    """Why no hand may be dealt at the table now; None if one may.

    With ``now``, the pause after the last hand must be over by then as well.
    """
    if not table.is_open:
        return f"{table.name} is closed; no new hands start"
    last = table.hands.order_by("-number").only("number", "ended_at").first()
    if last is not None and last.ended_at is None:
        return f"hand #{last.number} at {table.name} is still being played"
    players = _dealt_in_seats(table).count()
    if players < 2:
        return f"a hand needs two players with chips; {table.name} has {players}"
    if now is not None and last is not None and now < last.ended_at + next_hand_pause():
        return f"hand #{last.number} at {table.name} ended moments ago"
    return None


def _hand_deal(table: Table, now: datetime) -> Hand:
    """Deal at a locked table that :func:`_why_no_deal` has cleared."""
    seats = list(_dealt_in_seats(table).select_related("player").order_by("number"))
    previous = table.hands.order_by("-number").first()
    dealer = _next_dealer(seats, previous.seating["dealer"] if previous else 0)
    hand = _hand_create(table, _engine_order(seats, dealer), dealer, previous, now)
    _seats_count_missed_hand(table, dealt=seats)
    return hand


def hands_start_due(
    *, now: datetime | None = None, on_started: Callable[[Hand], object] | None = None
) -> int:
    """Deal at every table that is ready and has been idle past the pause; how many.

    The safety net under the ``start_next_hand`` task, run by beat every few
    seconds: that task is lost if the worker or Redis dies in the pause, and
    a deal when a player sits is lost if the process dies between the two.
    Each table is its own :func:`hand_start_if_ready` transaction, and
    ``on_started`` is called with each hand dealt, after it.
    """
    now = now or timezone.now()
    started = 0
    for table_id in _tables_due(now)[:SWEEP_BATCH]:
        hand = hand_start_if_ready(table_id=table_id, now=now)
        if hand is not None:
            started += 1
            if on_started is not None:
                on_started(hand)
    return started


def _tables_due(now: datetime) -> QuerySet[Table, int]:
    """Open tables with no hand running or ended within the pause, and two players in."""
    tables = Table.objects.filter(is_open=True)
    busy = Hand.objects.filter(table=OuterRef("pk")).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=now - next_hand_pause())
    )
    dealt_in = Q(seat_set__state__in=DEALT_IN_STATES, seat_set__stack__gt=0)
    return (
        tables.filter(~Exists(busy))
        .annotate(players=Count("seat_set", filter=dealt_in))
        .filter(players__gte=2)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _dealt_in_seats(table: Table) -> QuerySet[Seat]:
    return Seat.objects.filter(table=table, state__in=DEALT_IN_STATES, stack__gt=0)


def _seats_count_missed_hand(table: Table, *, dealt: list[Seat]) -> None:
    """One more hand missed for every seat not dealt in; stand up those at the limit."""
    limit = table.stakes.sit_out_hands
    missed = Seat.objects.filter(table=table).exclude(pk__in=[seat.pk for seat in dealt])
    missed.update(hands_missed=F("hands_missed") + 1)
    Seat.objects.filter(pk__in=[seat.pk for seat in dealt], hands_missed__gt=0).update(
        hands_missed=0
    )
    for seat in missed.filter(hands_missed__gte=limit):
        _seat_stand_up(table, seat)


def _next_dealer(seats: list[Seat], last_dealer: int) -> int:
    """The first dealt-in seat after the last hand's dealer, going round the table."""
    numbers = [seat.number for seat in seats]
    return next((n for n in numbers if n > last_dealer), numbers[0])


def _engine_order(seats: list[Seat], dealer: int) -> list[Seat]:
    """Seats clockwise from the one after the dealer, the dealer last."""
    after = [seat for seat in seats if seat.number > dealer]
    return after + [seat for seat in seats if seat.number <= dealer]


def _hand_create(
    table: Table, order: list[Seat], dealer: int, previous: Hand | None, now: datetime | None
) -> Hand:
    deck, salt = shuffled_deck(), secrets.token_hex(32)
    state = HandState.new(table.stakes.game_config(), [seat.stack for seat in order], deck)
    hand = Hand(
        table=table,
        number=previous.number + 1 if previous else 1,
        deck=deck,
        deck_salt=salt,
        deck_commitment=deck_commitment(salt, deck),
        seating={
            "dealer": dealer,
            "players": [
                {"seat": seat.number, "player": seat.player_id, "name": seat.player.username}
                for seat in order
            ],
        },
        state=state.to_dict(),
        version=0,
    )
    seats = HandSeats(order)
    seats.take_stacks(state.stacks)  # the antes
    _clock_refill_banks(seats, table.stakes)  # before the first turn is timed
    # Everyone may be all in on the antes: then the engine has run the board out.
    _hand_clock_or_end(hand, state, seats, now or timezone.now())
    hand.save(force_insert=True)
    seats.save()
    if state.finished:
        _hand_end_write(hand, state)
    return hand


@transaction.atomic
def hand_act(
    *,
    hand_id: int,
    player_id: int,
    kind: str,
    amount: int | None = None,
    cards: Sequence[int] | None = None,
    version: int,
    now: datetime | None = None,
    table_id: int | None = None,
) -> Hand:
    """Apply one move by ``player_id``, made when the hand was at ``version``.

    A move against any other version (another move got there first, or this
    one was sent twice) raises :class:`StaleMove` and changes nothing, except
    a choice everyone makes at once (a roll, a declaration): another
    player's choice may have moved the version on, and a player still to
    choose may choose whatever version they saw (only once). A move
    made after the action time (``now``, default the current time) with a time
    bank spends the time taken from it. With ``table_id``, a hand that is not
    at that table is refused.
    """
    hand = _lock_hand(hand_id, table_id)
    if hand.is_finished:
        raise StaleMove(f"hand #{hand.number} is over")
    player = _engine_index(hand, player_id)
    state = HandState.from_dict(hand.state)
    if type(version) is not int or version != hand.version:
        at_once = state.simultaneous and player in state.deciding()
        if not (at_once and type(version) is int and version <= hand.version):
            raise StaleMove(
                f"hand #{hand.number} is at version {hand.version}, not {version!r}; "
                "reload it and try again"
            )
    if player is None:
        raise ServiceError(f"you are not dealt into hand #{hand.number}")
    now = now or timezone.now()
    seats = HandSeats.load(hand)
    _clock_charge_move(hand, seats, player, now)  # against this turn's deadline
    step = state.step if state.simultaneous else None
    _hand_apply(hand, state, seats, player, kind, amount, cards)
    # A choice made at once keeps its one clock until the last player chooses.
    _hand_store(hand, state, seats, now, keep_clock=step == state.step and state.simultaneous)
    return hand


def _lock_hand(hand_id: int, table_id: int | None = None) -> Hand:
    """Lock the hand's table, then read the hand: its state is now ours alone.

    A caller that knows the table (a player's socket is at one) saves a query,
    and a hand of another table is refused as if it did not exist.
    """
    if table_id is None:
        table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
        if table_id is None:
            raise ServiceError(f"there is no hand #{hand_id}")
    table = _lock_table(table_id)
    # Read (again) now that moves are serialized.
    found = _HAND_AT(hand_id, table.pk)
    if not found:
        raise ServiceError(f"there is no hand #{hand_id} at {table.name}")
    hand = found[0]
    hand.table = table  # locked, with its stakes: no second read
    return hand


class HandSeats:
    """The seats of a hand's players in engine order, read once and saved once.

    A move touches up to three seats (the mover's stack and clock, the next
    player's time bank, everyone's stack at the showdown); collecting the
    changes here keeps a move to one read and one write per changed seat.
    """

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats
        self.changed: dict[int, set[str]] = {}

    @classmethod
    def load(cls, hand: Hand) -> HandSeats:
        players = hand.seating["players"]
        numbers = [entry["seat"] for entry in players]
        found = {s.number: s for s in _SEATS_AT(hand.table_id) if s.number in numbers}
        seats = [found.get(entry["seat"]) for entry in players]
        for seat, entry in zip(seats, players, strict=True):
            if seat is None or seat.player_id != entry["player"]:
                # Leaving is refused mid-hand, so this is a bug: roll back.
                raise ServiceError(f"seat {entry['seat']} of hand #{hand.number} lost its player")
        return cls(seats)

    def __getitem__(self, player: int) -> Seat:
        return self.seats[player]

    def set(self, player: int, **fields: Any) -> None:
        seat = self.seats[player]
        for name, value in fields.items():
            if getattr(seat, name) != value:
                setattr(seat, name, value)
                self.changed.setdefault(player, set()).add(name)

    def take_stacks(self, stacks: Sequence[int]) -> None:
        """Copy the engine's stacks (the chips behind each player) to the seats."""
        for player, stack in enumerate(stacks):
            self.set(player, stack=stack)

    def save(self) -> None:
        """Write the changed seats: one UPDATE for one seat, one bulk UPDATE for more."""
        changed = [self.seats[player] for player in sorted(self.changed)]
        fields = sorted(set().union(*self.changed.values()))
        if len(changed) == 1:
            changed[0].save(update_fields=fields)
        elif changed:
            Seat.objects.bulk_update(changed, fields)
        self.changed.clear()


def _hand_apply(
    hand: Hand,
    state: HandState,
    seats: HandSeats,
    player: int,
    kind: str,
    amount: int | None,
    cards: Sequence[int] | None = None,
    *,
    timed_out: bool = False,
) -> None:
    """Make the move in ``state`` and record it; the caller stores the hand."""
    options = state.legal_actions(player)
    try:
        if kind == PROTECT and timed_out:
            state.protect(player)  # the engine's own door: act() refuses it to players
        else:
            state.act(player, kind, amount, cards, timed_out=timed_out)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    # Every applied move is one action and one version, so the next seq is known.
    HandAction.objects.create(
        hand=hand,
        seq=hand.version + 1,
        seat_number=seats[player].number,
        player_id=seats[player].player_id,
        kind=kind,
        amount=_chips_named(options, kind, amount),
        timed_out=timed_out,
    )
    hand.state, hand.version = state.to_dict(), hand.version + 1
    seats.take_stacks(state.stacks)


def _hand_store(
    hand: Hand, state: HandState, seats: HandSeats, now: datetime, *, keep_clock: bool = False
) -> None:
    """Start the next turn's clock (or end the hand), then write the hand and
    its seats. With ``keep_clock`` the turn under way keeps its expiry, and
    its timeout is sent again for the hand's new version."""
    if keep_clock:
        hand.timeout_sent_for = None
        _schedule_timeout(hand, now)
    else:
        _hand_clock_or_end(hand, state, seats, now)
    hand.save(
        update_fields=[
            "state",
            "version",
            "ended_at",
            "turn_deadline",
            "turn_expires_at",
            "timeout_sent_for",
        ]
    )
    seats.save()
    if state.finished:
        _hand_end_write(hand, state)


def _hand_end_write(hand: Hand, state: HandState) -> None:
    """What follows the end of a hand: its results, the seats that asked to leave
    stood up, and the auto-rebuys of those that stay; at a table closed during
    the hand, every seat stood up."""
    _hand_results_write(hand, state)
    if hand.table.is_open:
        _seats_after_hand(hand)
    else:
        _seats_stand_up_all(hand.table)


def _hand_clock_or_end(hand: Hand, state: HandState, seats: HandSeats, now: datetime) -> None:
    if state.finished:
        hand.ended_at = now
    _turn_clock_start(hand, state, seats, now)


def _chips_named(options: list[LegalAction], kind: str, amount: int | None) -> int | None:
    """The amount to record: a wager's street total, or the chips a call or bring-in puts in."""
    if kind in WAGERS:
        return amount
    if kind in ("call", "bring_in"):
        return next(option.min for option in options if option.kind == kind)
    return None


def _hand_results_write(hand: Hand, state: HandState) -> None:
    """Write the results and the rake of a hand the engine has ended (and that is saved).

    A RakeEntry is written for every hand, 0 chips included, so each finished
    hand has exactly one and rake reports can count unraked hands too. Each
    player's day at the table goes into the activity report's summary.
    """
    HandResult.objects.bulk_create(
        HandResult(
            hand=hand,
            player_id=entry["player"],
            seat_number=entry["seat"],
            starting_stack=start,
            final_stack=final,
            net=final - start,
            cards=_held_cards(state, player),
        )
        for player, (entry, start, final) in enumerate(
            zip(hand.seating["players"], state.starting_stacks, state.stacks, strict=True)
        )
    )
    RakeEntry.objects.create(
        hand=hand,
        table_id=hand.table_id,
        stakes_id=hand.table.stakes_id,
        amount=state.result["rake"],
    )
    _player_days_write(hand)


def _player_days_write(hand: Hand) -> None:
    """Note that the hand's players played at its table on the day it ended.

    Most hands add nothing: their players' rows for the day were written by
    an earlier hand, and the conflict on the unique row leaves those as they are.
    """
    day = timezone.localdate(hand.ended_at)
    PlayerDay.objects.bulk_create(
        (
            PlayerDay(
                day=day,
                table_id=hand.table_id,
                stakes_id=hand.table.stakes_id,
                player_id=entry["player"],
            )
            for entry in hand.seating["players"]
        ),
        ignore_conflicts=True,
    )


def _held_cards(state: HandState, player: int) -> list[dict[str, Any]]:
    """The player's own cards in dealing order, each face up or down and marked
    when wild, for their list of past hands (the shape of :attr:`HandResult.cards`)."""
    wild = state.marked_wild(player)
    return [
        {
            "card": card_str(held.card),
            "up": held.up,
            **({"wild": True} if wild >> held.card & 1 else {}),
        }
        for held in state.cards[player]
    ]


# --------------------------------------------------------------- turn clock

# The moves a timeout makes, the first one allowed. Under the all-in policy a
# player with chips in beyond the ante is protected: all in for the pot so far
# (seed 002; the engine's ``protect``, never a player's choice). Otherwise: free
# to check, else fold. The bring-in is a forced bet with no fold, so a player
# who lets it time out posts it.
TIMEOUT_MOVES = (PROTECT, "check", "fold", "bring_in")
# Timeouts in a row after which a player is sat out.
TIMEOUTS_TO_SIT_OUT = 2
# Hands the sweep expires per run; the next run, seconds later, takes the rest.
SWEEP_BATCH = 100


@transaction.atomic
def hand_timeout(*, hand_id: int, turn: int, now: datetime | None = None) -> Hand | None:
    """Make the move of a player whose time for ``turn`` (a ``Hand.version``) ran out.

    Returns None and changes nothing when there is nothing to do: the hand is
    gone or over, it has moved past ``turn``, or its turn has not yet expired at
    ``now`` (default: the current time). So a timeout sent twice, late, or for a
    turn the reconnect extension lengthened is harmless.

    The move is a check when checking is free, otherwise a fold (a bring-in due
    is posted). With ``Stakes.TimeoutPolicy.ALL_IN``, a player who has put chips
    in beyond the ante is instead protected (seed 002): all in for the pot so
    far, their chips behind kept and never asked to act again this hand. The
    move is recorded with ``timed_out`` set. A second timeout in a row sits the
    player out; with a time bank, the bank is emptied as well.
    """
    now = now or timezone.now()
    # Most tasks arrive for turns already played: answer those without a lock.
    due = Hand.objects.filter(pk=hand_id, version=turn, ended_at__isnull=True)
    if not due.filter(turn_expires_at__lte=now).exists():
        return None
    hand = _lock_hand(hand_id)
    if hand.is_finished or hand.version != turn or not _turn_expired(hand, now):
        return None
    seats, state = HandSeats.load(hand), HandState.from_dict(hand.state)
    if state.simultaneous:  # a choice everyone makes at once: all still choosing time out
        for player in state.deciding():
            kind, cards = state.default_decision(player)
            _hand_apply(hand, state, seats, player, kind, None, cards, timed_out=True)
            _seat_timed_out(seats, player, hand.table.stakes, now)
        _hand_store(hand, state, seats, now)
        return hand
    player = state.to_act
    if state.decision is not None:
        kind, cards = state.default_decision(player)
    else:
        kind, cards = _timeout_move(state, hand.table.stakes.timeout_policy), None
    _hand_apply(hand, state, seats, player, kind, None, cards, timed_out=True)
    _seat_timed_out(seats, player, hand.table.stakes, now)
    _hand_store(hand, state, seats, now)
    return hand


def _turn_expired(hand: Hand, now: datetime) -> bool:
    return hand.turn_expires_at is not None and now >= hand.turn_expires_at


def _timeout_move(state: HandState, policy: str) -> str:
    """The first of TIMEOUT_MOVES allowed: the legal moves, and the protection
    when the stakes' policy is all in and the player qualifies."""
    allowed = {option.kind for option in state.legal_actions()}
    if policy == Stakes.TimeoutPolicy.ALL_IN and state.can_protect():
        allowed.add(PROTECT)
    return next(kind for kind in TIMEOUT_MOVES if kind in allowed)


def _seat_timed_out(seats: HandSeats, player: int, stakes: Stakes, now: datetime) -> None:
    """A second timeout in a row sits the player out; a time bank is used up.

    The countdown of the per-turn clock is stored nowhere, so a timeout takes
    nothing from the player's later turns.
    """
    timeouts = seats[player].timeouts_in_a_row + 1
    seats.set(player, timeouts_in_a_row=timeouts)
    if stakes.clock == Stakes.Clock.TIME_BANK:
        seats.set(player, time_bank_ms=0)
    if timeouts >= TIMEOUTS_TO_SIT_OUT:
        if seats[player].state == Seat.State.PLAYING:
            seats.set(player, away_since=now)
        seats.set(player, state=Seat.State.SITTING_OUT, sat_out_for=Seat.SatOutFor.TIMEOUTS)


def hands_expire_overdue(
    *, now: datetime | None = None, on_expired: Callable[[Hand], object] | None = None
) -> int:
    """Time out every turn whose timeout task is overdue; the number timed out.

    The safety net under the per-turn tasks, run by beat every few seconds: a
    turn counts as overdue ``CARDROOM_TURN_GRACE_SECONDS`` after it expired, so
    the task normally gets there first and this finds nothing. Each hand is its
    own :func:`hand_timeout` transaction, and ``on_expired`` is called with each
    hand timed out, after that transaction (if this call isn't inside another).
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.CARDROOM_TURN_GRACE_SECONDS)
    overdue = Hand.objects.filter(ended_at__isnull=True, turn_expires_at__lte=cutoff)
    expired = 0
    for hand_id, turn in overdue.order_by("turn_expires_at").values_list("pk", "version")[
        :SWEEP_BATCH
    ]:
        hand = hand_timeout(hand_id=hand_id, turn=turn, now=now)
        if hand is not None:
            expired += 1
            if on_expired is not None:
                on_expired(hand)
    return expired


@transaction.atomic
def hand_reconnect(*, hand_id: int, player_id: int, now: datetime | None = None) -> Hand | None:
    """Give a player who reconnects on their turn more time, once per hand.

    The turn's expiry moves ``CARDROOM_RECONNECT_EXTENSION_SECONDS`` later if it
    is ``player_id``'s turn, it has not yet expired at ``now``, and they have
    not had the extension this hand. Otherwise returns None and changes nothing.
    """
    hand, now = _lock_hand(hand_id), now or timezone.now()
    if hand.is_finished or hand.turn_expires_at is None or now >= hand.turn_expires_at:
        return None
    player = _engine_index(hand, player_id)
    state = HandState.from_dict(hand.state)
    if player is None or (player != state.to_act and player not in state.deciding()):
        return None
    if player_id in hand.reconnect_extended:
        return None
    extra = timedelta(seconds=settings.CARDROOM_RECONNECT_EXTENSION_SECONDS)
    hand.turn_expires_at += extra
    hand.reconnect_extended = [*hand.reconnect_extended, player_id]
    _schedule_timeout(hand, now)  # a task already sent arrives early and does nothing
    hand.save(update_fields=["turn_expires_at", "reconnect_extended", "timeout_sent_for"])
    return hand


def _turn_clock_start(hand: Hand, state: HandState, seats: HandSeats, now: datetime) -> None:
    """Time the turn that begins at ``now``, or stop the clock if nobody is to act.

    Sets the hand's clock fields; the caller saves the hand.
    """
    deciding = [state.to_act] if state.to_act is not None else state.deciding()
    if state.finished or not deciding:
        hand.turn_deadline = hand.turn_expires_at = None
        return
    stakes = hand.table.stakes
    # A choice made at once has one clock for everyone still to choose: it
    # runs as long as the longest of their times.
    extra = max(_extra_ms(seats[player], stakes) for player in deciding)
    hand.turn_deadline = now + timedelta(seconds=stakes.action_seconds)
    hand.turn_expires_at = hand.turn_deadline + timedelta(milliseconds=extra)
    _schedule_timeout(hand, now)


def _extra_ms(seat: Seat, stakes: Stakes) -> int:
    """The player's time after the action time: a whole countdown, or their bank left."""
    if stakes.clock == Stakes.Clock.TIME_BANK:
        return _bank_ms(seat, stakes)
    return stakes.time_bank_seconds * 1000


def _clock_charge_move(hand: Hand, seats: HandSeats, player: int, now: datetime) -> None:
    """The player moved: their timeouts are forgiven, and any time they took past
    the action time comes out of their time bank, if the stakes have one."""
    seats.set(player, timeouts_in_a_row=0)
    stakes = hand.table.stakes
    if stakes.clock != Stakes.Clock.TIME_BANK or hand.turn_deadline is None:
        return
    if now > hand.turn_deadline:
        used = (now - hand.turn_deadline) // timedelta(milliseconds=1)
        seats.set(player, time_bank_ms=max(0, _bank_ms(seats[player], stakes) - used))


def _clock_refill_banks(seats: HandSeats, stakes: Stakes) -> None:
    """Count the hand being dealt towards each player's next time bank refill.

    Every ``bank_refill_hands``-th hand a player is dealt into adds
    ``bank_refill_seconds`` to their bank, never past its size. Only with a
    time bank; the per-turn countdown needs no refill.
    """
    if stakes.clock != Stakes.Clock.TIME_BANK:
        return
    size = stakes.time_bank_seconds * 1000
    for player, seat in enumerate(seats.seats):
        dealt = seat.hands_since_refill + 1
        if dealt < stakes.bank_refill_hands:
            seats.set(player, hands_since_refill=dealt)
            continue
        bank = _bank_ms(seat, stakes) + stakes.bank_refill_seconds * 1000
        seats.set(player, hands_since_refill=0, time_bank_ms=min(bank, size))


def _bank_ms(seat: Seat, stakes: Stakes) -> int:
    """The seat's time bank left; empty means untouched, the stakes' whole bank.

    Never more than the bank's size, which the operator may have lowered since.
    """
    size = stakes.time_bank_seconds * 1000
    return size if seat.time_bank_ms is None else min(seat.time_bank_ms, size)


def _schedule_timeout(hand: Hand, now: datetime) -> None:
    """Send the turn's timeout task once this transaction commits, if the turn
    expires within ``CARDROOM_TURN_LOOKAHEAD_SECONDS``; the caller saves the hand.

    Most turns are played long before they expire, so a later turn's task is
    left to beat (:func:`turn_timeouts_claim_due`), which sends it only if the
    turn is still open near its expiry. Without a broker (``CARDROOM_TURN_TASKS``
    off) nothing is sent and only the sweep times turns out.
    """
    expires_at = hand.turn_expires_at
    if not settings.CARDROOM_TURN_TASKS or expires_at is None:
        return
    if expires_at > now + timedelta(seconds=settings.CARDROOM_TURN_LOOKAHEAD_SECONDS):
        return
    from tables.tasks import timeout_send  # the tasks module imports this one

    hand.timeout_sent_for, turn = expires_at, hand.version
    # hand.pk is read at commit: a new hand's clock starts before its row is written.
    transaction.on_commit(lambda: timeout_send(hand.pk, turn, expires_at), robust=True)


@transaction.atomic
def turn_timeouts_claim_due(*, now: datetime | None = None) -> list[tuple[int, int, datetime]]:
    """Claim the turns that expire within ``CARDROOM_TURN_LOOKAHEAD_SECONDS`` and
    have no timeout task for that expiry yet: (hand id, turn, expiry) each.

    Beat calls it every ``CARDROOM_TURN_SEND_SECONDS`` and sends each a task
    for its expiry. Each claim is written before the tasks leave, so the next
    call doesn't send them again; a turn whose expiry moved (a reconnect) is
    claimed again. Hands a move has locked are left for the next call.
    """
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.CARDROOM_TURN_LOOKAHEAD_SECONDS)
    due = list(
        Hand.objects.select_for_update(skip_locked=True)
        .filter(ended_at__isnull=True, turn_expires_at__lte=horizon)
        .exclude(timeout_sent_for=F("turn_expires_at"))
        .order_by("turn_expires_at")
        .values_list("pk", "version", "turn_expires_at")[:SWEEP_BATCH]
    )
    if due:
        claimed = [hand_id for hand_id, _, _ in due]
        Hand.objects.filter(pk__in=claimed).update(timeout_sent_for=F("turn_expires_at"))
    return due


def hand_view(*, hand_id: int, player_id: int | None) -> dict[str, Any]:
    """The hand as ``player_id`` may see it; anyone not dealt in sees what observers see.

    Read-only and unlocked. The view's ``turn`` equals ``Hand.version``, the
    version the next move must name.
    """
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise ServiceError(f"there is no hand #{hand_id}")
    viewer = None if player_id is None else _engine_index(hand, player_id)
    return view(HandState.from_dict(hand.state), viewer)


def _unfinished_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended_at__isnull=True).first()


def _engine_index(hand: Hand, player_id: int) -> int | None:
    """The player's number in the engine for this hand, or None if not dealt in."""
    for index, entry in enumerate(hand.seating["players"]):
        if entry["player"] == player_id:
            return index
    return None
