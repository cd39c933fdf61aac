"""The only code that changes tables, seats and hands.

Every service runs in one transaction and first locks the table's row, so moves,
buy-ins and hand starts at one table happen one after another. Chips move
between a player's balance and a seat only through ``accounts.services.ledger_post``.

Chip bookkeeping while a hand runs: each seat's ``stack`` equals the engine's
``stacks[i]`` for that player (the chips behind), and the chips in the pot live
in the hand's ``state["committed"]``. When the hand ends the engine pays the
pots into its stacks, which are copied to the seats, and the rake leaves the
table as a :class:`RakeEntry`.

``Hand.seating`` is ``{"dealer": seat number, "players": [{"seat": n, "player":
id}, ...]}`` with the players in engine order: engine player ``i`` is
``players[i]``, starting from the first seat clockwise from the dealer.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import ChipTransfer, User
from accounts.services import LedgerError, ledger_post
from tables.models import Hand, HandAction, HandResult, RakeEntry, Seat, Table
from tables.rules import HandState, IllegalAction, LegalAction
from tables.rules.cards import card_str, shuffled_deck
from tables.rules.state import WAGERS
from tables.rules.views import view


class ServiceError(ValueError):
    """A request the table refuses; the message says why. Nothing was changed."""


class StaleMove(ServiceError):
    """A move made against an old version of the hand, or after it ended."""


class IllegalMove(ServiceError):
    """A move the rules engine refused; the message is the engine's."""


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
    """Start no new hands and seat nobody new; a hand in progress plays to the end."""
    return _table_set_open(table_id, is_open=False)


def _table_set_open(table_id: int, *, is_open: bool) -> Table:
    table = _lock_table(table_id)
    if table.is_open != is_open:
        table.is_open = is_open
        table.save(update_fields=["is_open"])
    return table


def _lock_table(table_id: int) -> Table:
    """The table's row, locked until the transaction ends."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise ServiceError(f"there is no table #{table_id}") from None


# -------------------------------------------------------------------- seats


@transaction.atomic
def seat_take(*, table_id: int, player_id: int, seat_number: int, buy_in: int) -> Seat:
    """Sit a player down, moving ``buy_in`` chips from their balance to the seat."""
    table = _lock_table(table_id)
    _check_can_sit(table, player_id, seat_number)
    stakes = table.stakes
    if type(buy_in) is not int or not stakes.min_buy_in <= buy_in <= stakes.max_buy_in:
        raise ServiceError(
            f"the buy-in must be {stakes.min_buy_in} to {stakes.max_buy_in} chips, not {buy_in!r}"
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
    return Seat.objects.create(table=table, number=seat_number, player_id=player_id, stack=buy_in)


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
        raise ServiceError(f"player #{player_id} already has a seat at {table.name}")
    if Seat.objects.filter(table=table, number=seat_number).exists():
        raise ServiceError(f"seat {seat_number} at {table.name} is taken")


@transaction.atomic
def seat_leave(*, table_id: int, player_id: int) -> int:
    """Stand a player up and cash their stack out to their balance.

    Refused while the player was dealt into the hand in progress, even after
    folding, so every hand's players keep their seats until its results are
    written. Returns the chips cashed out.
    """
    table = _lock_table(table_id)
    seat = Seat.objects.filter(table=table, player_id=player_id).first()
    if seat is None:
        raise ServiceError(f"player #{player_id} has no seat at {table.name}")
    hand = _unfinished_hand(table)
    if hand is not None and _engine_index(hand, player_id) is not None:
        raise ServiceError(f"player #{player_id} can't leave during hand #{hand.number}")
    chips = seat.stack
    if chips:
        ledger_post(
            user_id=player_id,
            kind=ChipTransfer.Kind.CASH_OUT,
            amount=chips,
            table_id=table.pk,
            note=f"seat {seat.number}",
        )
    seat.delete()
    return chips


# -------------------------------------------------------------------- hands


@transaction.atomic
def hand_start(*, table_id: int) -> Hand:
    """Deal a new hand to every playing seat with chips, the button moved on one."""
    table = _lock_table(table_id)
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed; no new hands start")
    running = _unfinished_hand(table)
    if running is not None:
        raise ServiceError(f"hand #{running.number} at {table.name} is still being played")
    seats = list(
        Seat.objects.filter(table=table, state=Seat.State.PLAYING, stack__gt=0).order_by("number")
    )
    if len(seats) < 2:
        raise ServiceError(f"a hand needs two players with chips; {table.name} has {len(seats)}")
    previous = table.hands.order_by("-number").first()
    dealer = _next_dealer(seats, previous.seating["dealer"] if previous else 0)
    return _hand_create(table, _engine_order(seats, dealer), dealer, previous)


def _next_dealer(seats: list[Seat], last_dealer: int) -> int:
    """The first dealt-in seat after the last hand's dealer, going round the table."""
    numbers = [seat.number for seat in seats]
    return next((n for n in numbers if n > last_dealer), numbers[0])


def _engine_order(seats: list[Seat], dealer: int) -> list[Seat]:
    """Seats clockwise from the one after the dealer, the dealer last."""
    after = [seat for seat in seats if seat.number > dealer]
    return after + [seat for seat in seats if seat.number <= dealer]


def _hand_create(table: Table, order: list[Seat], dealer: int, previous: Hand | None) -> Hand:
    deck, salt = shuffled_deck(), secrets.token_hex(32)
    state = HandState.new(table.stakes.game_config(), [seat.stack for seat in order], deck)
    hand = Hand.objects.create(
        table=table,
        number=previous.number + 1 if previous else 1,
        deck=deck,
        deck_salt=salt,
        deck_commitment=deck_commitment(salt, deck),
        seating={
            "dealer": dealer,
            "players": [{"seat": seat.number, "player": seat.player_id} for seat in order],
        },
        state=state.to_dict(),
        version=0,
    )
    _sync_stacks(hand, [seat.stack for seat in order], state.stacks)
    if state.finished:  # everyone was all in on the antes: the engine ran the board out
        _hand_finish(hand, state)
    return hand


@transaction.atomic
def hand_act(
    *, hand_id: int, player_id: int, kind: str, amount: int | None = None, version: int
) -> Hand:
    """Apply one move by ``player_id``, made when the hand was at ``version``.

    A move against any other version (another move got there first, or this
    one was sent twice) raises :class:`StaleMove` and changes nothing.
    """
    table_id = Hand.objects.filter(pk=hand_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise ServiceError(f"there is no hand #{hand_id}")
    _lock_table(table_id)
    hand = Hand.objects.get(pk=hand_id)  # read again now that moves are serialized
    if hand.is_finished:
        raise StaleMove(f"hand #{hand.number} is over")
    if type(version) is not int or version != hand.version:
        raise StaleMove(
            f"hand #{hand.number} is at version {hand.version}, not {version!r}; "
            "reload it and try again"
        )
    player = _engine_index(hand, player_id)
    if player is None:
        raise ServiceError(f"player #{player_id} is not in hand #{hand.number}")
    return _hand_apply(hand, player, player_id, kind, amount)


def _hand_apply(hand: Hand, player: int, player_id: int, kind: str, amount: int | None) -> Hand:
    state = HandState.from_dict(hand.state)
    before, options = list(state.stacks), state.legal_actions()
    try:
        state.act(player, kind, amount)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    HandAction.objects.create(
        hand=hand,
        seq=hand.actions.count() + 1,
        seat_number=hand.seating["players"][player]["seat"],
        player_id=player_id,
        kind=kind,
        amount=_chips_named(options, kind, amount),
    )
    hand.state, hand.version = state.to_dict(), hand.version + 1
    hand.save(update_fields=["state", "version"])
    _sync_stacks(hand, before, state.stacks)
    if state.finished:
        _hand_finish(hand, state)
    return hand


def _chips_named(options: list[LegalAction], kind: str, amount: int | None) -> int | None:
    """The amount to record: a wager's street total, or the chips a call or bring-in puts in."""
    if kind in WAGERS:
        return amount
    if kind in ("call", "bring_in"):
        return next(option.min for option in options if option.kind == kind)
    return None


def _sync_stacks(hand: Hand, before: list[int], after: list[int]) -> None:
    """Copy the engine's stacks to the seats whose stack changed."""
    for entry, old, new in zip(hand.seating["players"], before, after, strict=True):
        if old == new:
            continue
        updated = Seat.objects.filter(
            table_id=hand.table_id, number=entry["seat"], player_id=entry["player"]
        ).update(stack=new)
        if updated != 1:  # leaving is refused mid-hand, so this is a bug: roll back
            raise ServiceError(f"seat {entry['seat']} of hand #{hand.number} has lost its player")


def _hand_finish(hand: Hand, state: HandState) -> None:
    """Write the results and the rake of a hand the engine has just ended.

    A RakeEntry is written for every hand, 0 chips included, so each finished
    hand has exactly one and rake reports can count unraked hands too.
    """
    hand.ended_at = timezone.now()
    hand.save(update_fields=["ended_at"])
    HandResult.objects.bulk_create(
        HandResult(
            hand=hand,
            player_id=entry["player"],
            seat_number=entry["seat"],
            starting_stack=start,
            final_stack=final,
            net=final - start,
        )
        for entry, start, final in zip(
            hand.seating["players"], state.starting_stacks, state.stacks, strict=True
        )
    )
    RakeEntry.objects.create(
        hand=hand,
        table_id=hand.table_id,
        stakes_id=hand.table.stakes_id,
        amount=state.result["rake"],
    )


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
