"""Dealing hands, playing moves, and writing the results when a hand ends.

Chip bookkeeping while a hand runs: each seat's ``stack`` equals the engine's
``stacks[i]`` for that player (the chips behind), and the chips in the pot live
in the hand's ``state["committed"]``. When the hand ends the engine pays the
pots into its stacks, which are copied to the seats, and the rake leaves the
table as a :class:`RakeEntry`.

A hand's seating (:meth:`Hand.seating_of`) lists its players in engine order,
starting from the first seat clockwise from the dealer, with the usernames the
table showed at the deal, so the hand names its players after they leave.

What follows a hand's change is :func:`hand_follow_up`, whoever made it: a
player's move (:func:`tables.services.play.hand_play`), a timeout task or
beat's sweeps (``tables.tasks``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from tables import scheduling
from tables.compiled import CompiledUpdate, one_trip
from tables.models import Hand, HandResult, PlayerDay, RakeEntry, Seat, Table, WaitingPlayer
from tables.rules import HandState, IllegalAction
from tables.rules.cards import card_str, shuffled_deck
from tables.rules.state import PROTECT
from tables.rules.views import view
from tables.selectors.players import LoginCheck
from tables.selectors.snapshots import SEATS
from tables.services.clock import (
    _clock_charge_move,
    _clock_refill_banks,
    _turn_clock_keep,
    _turn_clock_start,
)
from tables.services.common import (
    SWEEP_BATCH,
    HandSeats,
    IllegalMove,
    ServiceError,
    StaleMove,
    _last_hand,
    _lock_live_hand,
    _lock_table,
    deck_commitment,
    saved_state,
)
from tables.services.games import Pick, called_dealer, pick_game
from tables.services.live import LIVE_HANDS
from tables.services.seats import _seat_stand_up, _seats_after_hand, _seats_stand_up_all


@transaction.atomic
def hand_start(*, table_id: int, now: datetime | None = None) -> Hand | None:
    """Deal a new hand now, to every playing seat with chips, the button moved on one;
    None at a dealer's-choice table where the dealer is to call the game first
    (:mod:`tables.services.games`): the call deals it.

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
    seen = _AtDeal(table)
    problem = _why_no_deal(table, seen)
    if problem is not None:
        raise ServiceError(problem)
    return _hand_deal(table, seen, now or timezone.now())


def hand_start_if_ready(*, table_id: int, now: datetime | None = None) -> Hand | None:
    """Deal the table's next hand if it is ready for one; the one way the site deals.

    Ready means open, no hand running, two players dealt in with chips, and
    the pause after the last hand over (:func:`next_hand_pause`). The
    requests of ``tables.services.play`` call it when a player sits, sits in
    or buys back in and when a table opens, the ``start_next_hand`` task when
    the pause is up, and beat's sweep (:func:`hands_start_due`) for any table
    still idle after it.

    None when the table isn't ready, when another caller dealt first, and when
    the dealer is to call the game first (a call begun is a change the
    caller's viewers need to see: :func:`hand_start_and_tell` tells them
    apart): normal, quiet outcomes. Two callers at once deal one hand: the
    second finds the first's under the table's lock.
    """
    return hand_start_and_tell(table_id=table_id, now=now, on_started=_nobody, on_calling=_nobody)


def hand_start_and_tell(
    *,
    table_id: int,
    on_started: Callable[[Hand], object],
    on_calling: Callable[[int], object],
    now: datetime | None = None,
) -> Hand | None:
    """:func:`hand_start_if_ready`, then ``on_started`` with the hand it dealt,
    or ``on_calling`` with the table's id if its dealer began to call the game
    instead. Neither when it changed nothing (the table wasn't ready, or
    another caller had dealt): its viewers have nothing new to see."""
    dealt = _deal_or_call(table_id, now or timezone.now())
    if isinstance(dealt, Hand):
        on_started(dealt)
        return dealt
    if dealt is _CALL_BEGUN:
        on_calling(table_id)
    return None


class _CallBegun:
    """What a deal that began the dealer's call of the game gives instead of a hand."""


_CALL_BEGUN = _CallBegun()


def _deal_or_call(table_id: int, now: datetime) -> Hand | _CallBegun | None:
    table = Table.objects.filter(pk=table_id).first()  # unlocked: most calls stop here
    if table is None or _why_no_deal(table, _AtDeal(table), now) is not None:
        return None
    return _deal_or_call_if_still_ready(table_id, now)


@transaction.atomic
def _deal_or_call_if_still_ready(table_id: int, now: datetime) -> Hand | _CallBegun | None:
    table = _lock_table(table_id)
    seen = _AtDeal(table)  # read again, under the lock: the check's reads serve the deal
    if _why_no_deal(table, seen, now) is not None:
        return None
    hand = _hand_deal(table, seen, now)
    return _CALL_BEGUN if hand is None else hand


def next_hand_pause() -> timedelta:
    """The pause after a hand ends, so everyone sees the showdown.

    ``CARDROOM_NEXT_HAND_DELAY_SECONDS``; none without a broker
    (``CARDROOM_TURN_TASKS`` off), where no task or sweep could deal later.
    """
    if not settings.CARDROOM_TURN_TASKS:
        return timedelta(0)
    return timedelta(seconds=settings.CARDROOM_NEXT_HAND_DELAY_SECONDS)


class _AtDeal:
    """What a deal reads at a table besides the table's row, each read when
    first needed and then kept: every seat with its player, in seat order,
    and the latest hand's number, end and seating. The check before a deal
    (:func:`_why_no_deal`) and the deal itself share one, read under the
    table's lock."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @cached_property
    def seats(self) -> list[Seat]:
        return SEATS(self.table.pk)

    @cached_property
    def last(self) -> Hand | None:
        return _last_hand(self.table, "number", "ended_at", "seating")

    def dealt_in(self) -> list[Seat]:
        """The seats a hand dealt now deals in: playing or disconnected, with chips."""
        return [s for s in self.seats if s.state in Seat.DEALT_IN_STATES and s.stack > 0]


def _why_no_deal(table: Table, seen: _AtDeal, now: datetime | None = None) -> str | None:
    """Why no hand may be dealt at the table now; None if one may. ``seen``
    is what a deal reads at ``table``: only read if the table itself allows one.

    With ``now``, the pause after the last hand must be over by then as well.
    """
    if not table.is_open:
        return f"{table.name} is closed; no new hands start"
    if table.paused:
        return f"{table.name}'s host has paused the game; no new hands start"
    if table.call_seat is not None:
        return f"the dealer at {table.name} is calling the game"
    last = seen.last
    if last is not None and last.ended_at is None:
        return f"hand #{last.number} at {table.name} is still being played"
    players = len(seen.dealt_in())
    if players < 2:
        return f"a hand needs two players with chips; {table.name} has {players}"
    if now is None or last is None or last.ended_at is None:
        return None
    if now < last.ended_at + next_hand_pause():
        return f"hand #{last.number} at {table.name} ended moments ago"
    return None


def _hand_deal(table: Table, seen: _AtDeal, now: datetime) -> Hand | None:
    """Deal at a locked table that :func:`_why_no_deal` has cleared, from what
    it read there (``seen``); None when the dealer is to call the game first
    (a call is begun)."""
    if table.pending_change is not None:
        # A home game's host changed the game for the next hand: this one.
        # (Imported here: tables.services.home_changes imports this module.)
        from tables.services.home_changes import home_change_apply

        home_change_apply(table)
    seats = seen.dealt_in()
    # The last hand's number and button are all a deal needs of it: not its deck or state.
    previous = seen.last
    dealer = called_dealer(table, seats)
    if dealer is None:
        dealer = _next_dealer(seats, previous.dealer_seat if previous else 0)
    pick = pick_game(table, seats, dealer, previous.dealer_seat if previous else None, now)
    if pick is None:
        return None
    hand = _hand_create(table, _engine_order(seats, dealer), dealer, previous, now, pick)
    if table.is_mixed:
        table.save(update_fields=["game_position", "game_hands", "game_began_seat", "called"])
    _seats_count_missed_hand(table, seen.seats, dealt=seats)
    return hand


def _deal_after_call(table: Table, seen: _AtDeal, now: datetime) -> Hand | None:
    """Deal the game just called at the locked table, from what the call read
    there (``seen``), if it can deal now; None if not (the call stands for its
    next deal)."""
    if _why_no_deal(table, seen) is not None:
        return None
    return _hand_deal(table, seen, now)


def hands_start_due(
    *,
    now: datetime | None = None,
    on_started: Callable[[Hand], object] | None = None,
    on_calling: Callable[[int], object] | None = None,
) -> int:
    """Deal at every table that is ready and has been idle past the pause; how many.

    The safety net under the ``start_next_hand`` task, run by beat every few
    seconds: that task is lost if the worker or Redis dies in the pause, and
    a deal when a player sits is lost if the process dies between the two.
    Each table is its own :func:`hand_start_if_ready` transaction, and
    ``on_started`` is called with each hand dealt, after it, and
    ``on_calling`` with the id of each table whose dealer began to call the game.
    """
    now = now or timezone.now()
    started = 0
    for table_id in _tables_due(now)[:SWEEP_BATCH]:
        hand = hand_start_and_tell(
            table_id=table_id,
            now=now,
            on_started=on_started or _nobody,
            on_calling=on_calling or _nobody,
        )
        started += hand is not None
    return started


def _nobody(change: object) -> None:
    """Tell nobody of a change (a caller with nobody to tell)."""


def hand_follow_up(*, hand: Hand) -> None:
    """What follows a change to a hand, whoever made it (a move, a timeout, a deal).

    A hand that has just ended gets its successor scheduled
    (:func:`_next_hand_schedule`). The turn clock needs nothing more: storing
    the change started the next turn's clock (:func:`_hand_store`).
    """
    if hand.is_finished:
        _next_hand_schedule(hand.table_id)


def _next_hand_schedule(table_id: int) -> None:
    """Deal the next hand ``CARDROOM_NEXT_HAND_DELAY_SECONDS`` after this transaction commits.

    The pause lets players see the showdown. Without a broker
    (``CARDROOM_TURN_TASKS`` off) there is no pause, and the hand is dealt at
    once; the caller's own change notice covers it. A task that can't be sent
    is left to beat's sweep (:func:`hands_start_due`), which deals once a
    broker answers.
    """
    if not settings.CARDROOM_TURN_TASKS:
        hand_start_if_ready(table_id=table_id)
        return
    transaction.on_commit(lambda: scheduling.next_hand_send(table_id), robust=True)


def _tables_due(now: datetime) -> QuerySet[Table, int]:
    """Open tables not paused, with no hand running or ended within the pause,
    and two players in."""
    tables = Table.objects.filter(is_open=True, paused=False, call_seat__isnull=True)
    busy = Hand.objects.filter(table=OuterRef("pk")).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=now - next_hand_pause())
    )
    dealt_in = Q(seat_set__state__in=Seat.DEALT_IN_STATES, seat_set__stack__gt=0)
    return (
        tables.filter(~Exists(busy))
        .annotate(players=Count("seat_set", filter=dealt_in))
        .filter(players__gte=2)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _seats_count_missed_hand(table: Table, at_table: list[Seat], *, dealt: list[Seat]) -> None:
    """One more hand missed for every seat not dealt in; stand up those at the limit.

    ``at_table`` is every seat at the table as read under its lock. When
    everyone was dealt in and no one had missed a hand (most deals), nothing
    is written.
    """
    dealt_in = {seat.pk for seat in dealt}
    missed = [seat.pk for seat in at_table if seat.pk not in dealt_in]
    back = [seat for seat in dealt if seat.hands_missed]
    if back:
        Seat.objects.filter(pk__in=[seat.pk for seat in back]).update(hands_missed=0)
        for seat in back:
            seat.hands_missed = 0
    if missed:
        Seat.objects.filter(pk__in=missed).update(hands_missed=F("hands_missed") + 1)
        limit = table.stakes.sit_out_hands
        for seat in Seat.objects.filter(pk__in=missed, hands_missed__gte=limit):
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
    table: Table,
    order: list[Seat],
    dealer: int,
    previous: Hand | None,
    now: datetime | None,
    pick: Pick,
) -> Hand:
    deck, salt = shuffled_deck(), secrets.token_hex(32)
    config = pick.config
    state = HandState.new(config, [seat.stack for seat in order], deck)
    hand = Hand(
        table=table,
        number=previous.number + 1 if previous else 1,
        deck=deck,
        deck_salt=salt,
        deck_commitment=deck_commitment(salt, deck),
        seating=Hand.seating_of(
            dealer, [(s.number, s.player_id, s.player.username) for s in order]
        ),
        state=saved_state(state),
        version=0,
        **Hand.game_fields(config, table.stakes.seats),
        game_position=pick.position,
        call=pick.call,
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
    received_at: datetime | None = None,
) -> Hand:
    """Apply one move by ``player_id``, made when the hand was at ``version``.

    A move against any other version (another move got there first, or this
    one was sent twice) raises :class:`StaleMove` and changes nothing, except
    a choice everyone makes at once (a roll, a declaration): another
    player's choice may have moved the version on, and a player still to
    choose may choose whatever version they saw (only once). A move
    made after the action time (``now``, default the current time) with a time
    bank spends the time taken from it, up to ``received_at`` if given (when
    the move reached the server, which may be busy). With ``table_id``, a
    hand that is not at that table is refused.
    """
    hand, _, _ = hand_act_seated(
        hand_id=hand_id,
        player_id=player_id,
        kind=kind,
        amount=amount,
        cards=cards,
        version=version,
        now=now,
        table_id=table_id,
        received_at=received_at,
    )
    return hand


@transaction.atomic
def hand_act_seated(
    *,
    hand_id: int,
    player_id: int,
    kind: str,
    amount: int | None,
    cards: Sequence[int] | None,
    version: int,
    now: datetime | None,
    table_id: int | None,
    login: LoginCheck | None = None,
    received_at: datetime | None = None,
) -> tuple[Hand, list[Seat], list[WaitingPlayer]]:
    """:func:`hand_act`, and every seat at the table as the move left them,
    with their players, and the table's waiting list: what a move's snapshot
    is built from besides the hand. They are read with the lock, in one trip,
    and the mover's ``login`` checked in it (:func:`_lock_live_hand`)."""
    hand, state, at_table, waiting = _lock_live_hand(
        hand_id, table_id, expected=version, login=login
    )
    if hand.is_finished:
        raise StaleMove(f"hand #{hand.number} is over")
    player = hand.engine_player(player_id)
    read_at = hand.version
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
    seats = HandSeats.load(hand, at_table)
    # Against this turn's deadline, up to when the move reached the server: a
    # move that waited for a busy server's database is not charged the wait.
    moved = now if received_at is None else min(received_at, now)
    _clock_charge_move(hand, seats, player, moved)
    step = state.step if state.simultaneous else None
    _hand_apply(hand, state, seats, player, kind, amount, cards, now)
    # A choice made at once keeps its one clock until the last player chooses.
    _hand_store(
        hand, state, seats, now, read_at, keep_clock=step == state.step and state.simultaneous
    )
    if not state.finished:  # the hand's next move here starts from this state
        LIVE_HANDS.keep_on_commit(hand.pk, hand.version, hand.deck_commitment, state)
    return hand, seats.at_table, waiting


def _hand_apply(
    hand: Hand,
    state: HandState,
    seats: HandSeats,
    player: int,
    kind: str,
    amount: int | None,
    cards: Sequence[int] | None,
    now: datetime,
    *,
    timed_out: bool = False,
) -> None:
    """Make the move in ``state``, which records it in its action list with the
    time it was made; the caller stores the hand.

    That list is the hand's one record of its moves (there is no row per move):
    the history, the exports and the admin read it.
    """
    at = now.isoformat(timespec="milliseconds")
    try:
        if kind == PROTECT and timed_out:
            # The engine's own door: act() refuses it to players.
            state.protect(player, timed_out=True, at=at)
        else:
            state.act(player, kind, amount, cards, timed_out=timed_out, at=at)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    hand.state, hand.version = saved_state(state), hand.version + 1
    seats.take_stacks(state.stacks)


def _hand_store(
    hand: Hand,
    state: HandState,
    seats: HandSeats,
    now: datetime,
    read_at: int,
    *,
    keep_clock: bool = False,
) -> None:
    """Start the next turn's clock (or end the hand), then write the hand and
    its seats. With ``keep_clock`` the turn under way keeps its expiry, and
    its timeout is sent again for the hand's new version.

    The hand's row is written only if it is still at ``read_at``, the version
    read under the table's lock: the lock makes sure of that, and a writer
    that somehow held no lock is refused rather than let overwrite a move.
    """
    if keep_clock:
        _turn_clock_keep(hand, now)
    else:
        _hand_clock_or_end(hand, state, seats, now)
    with one_trip():  # the hand's row and its seats', in one round trip
        hand_written = _HAND_WRITE.send(hand, HAND_MOVED, where=("version", read_at))
        seats.save()
    if not hand_written.written():  # the seats' writes go back with the transaction
        raise StaleMove(f"hand #{hand.number} was changed by another move; reload it")
    if state.finished:
        _hand_end_write(hand, state)


# What a change to a running hand writes to its row, one statement built once.
HAND_MOVED = (
    "state",
    "version",
    "ended_at",
    "turn_deadline",
    "turn_expires_at",
    "timeout_sent_for",
)
_HAND_WRITE = CompiledUpdate(Hand)


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


def _hand_results_write(hand: Hand, state: HandState) -> None:
    """Write the results and the rake of a hand the engine has ended (and that is saved).

    A RakeEntry is written for every hand, 0 chips included, so each finished
    hand has exactly one and rake reports can count unraked hands too. Each
    player's day at the table goes into the activity report's summary.
    """
    # The engine sets the result in the move that ends the hand, and only a
    # hand the engine has ended comes here.
    assert state.result is not None, f"hand #{hand.number} has ended with no result"
    rake = state.result["rake"]
    HandResult.objects.bulk_create(
        HandResult(
            hand=hand,
            player_id=player_id,
            seat_number=number,
            starting_stack=start,
            final_stack=final,
            net=final - start,
            cards=_held_cards(state, player),
        )
        for player, (number, player_id, start, final) in enumerate(
            zip(
                hand.seat_numbers(),
                hand.player_ids(),
                state.starting_stacks,
                state.stacks,
                strict=True,
            )
        )
    )
    RakeEntry.objects.create(
        hand=hand,
        table_id=hand.table_id,
        stakes_id=hand.table.stakes_id,
        variant=hand.variant,
        amount=rake,
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
                player_id=player_id,
                variant=hand.variant,
            )
            for player_id in hand.player_ids()
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


def hand_view(*, hand_id: int, player_id: int | None) -> dict[str, Any]:
    """The hand as ``player_id`` may see it; anyone not dealt in sees what observers see.

    Read-only and unlocked. The view's ``turn`` equals ``Hand.version``, the
    version the next move must name.
    """
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None:
        raise ServiceError(f"there is no hand #{hand_id}")
    viewer = hand.engine_player(player_id)
    return view(HandState.from_dict(hand.state), viewer)
