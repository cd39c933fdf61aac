"""What a table's viewers see: the rows a snapshot is built from, and each
viewer's snapshot built from them.

Reads only. The table's consumers read the rows once per change for all their
viewers (``tables.consumers.shared.read_table_shared``) and build each viewer's
snapshot here; a viewer never gets another player's unshown cards, since every
hand view and event list is made for that viewer (``tables.rules.views``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from tables.compiled import CompiledRead
from tables.models import (
    Hand,
    Seat,
    SeatRequest,
    Stakes,
    Table,
    TableGame,
    TableMember,
    WaitingPlayer,
)
from tables.names import name_in_words
from tables.rules import GameConfig, HandState, IllegalAction
from tables.rules.games import how_it_plays
from tables.rules.narration import LiveNarrator
from tables.rules.views import events_for, view, view_from
from tables.selectors.games import coming, fitting
from tables.selectors.home_bots import home_bot_names
from tables.selectors.home_ledger import Books, LedgerFigures, home_books
from tables.selectors.players import only_row_fields


@dataclass(frozen=True)
class Cursor:
    """How far a viewer has followed a hand: the events they have had, and whether it had ended.

    A hand that has ended gets no more events, so it need not be read again.
    """

    hand_id: int
    seen: int
    ended: bool


@dataclass
class Snapshot:
    payload: dict[str, Any]
    events: list[dict[str, Any]]  # new events of the hand the viewer was following
    cursor: Cursor | None  # what to remember


# How far a table's rows have got: the latest hand's number and version,
# (0, 0) before the first hand. Only ever compared, never shown.
Stamp = tuple[int, int]


@dataclass
class TableRows:
    """What every viewer's snapshot of a table is built from, read once for all of them."""

    table: Table
    seats: list[Seat]
    hand: Hand | None  # the latest hand, running or ended
    state: HandState | None  # its state, rebuilt once: ``view`` and ``events_for`` only read it
    waiting: list[WaitingPlayer] = field(default_factory=list)  # the waiting list, in order
    games: list[TableGame] = field(default_factory=list)  # a mixed table's list, in order
    # A home game's books (:func:`books_payload`), for its seated players; None at the room's.
    books: dict[str, Any] | None = None
    # A home game's seat requests waiting for its host (:func:`seat_requests_waiting`).
    requests: list[SeatRequest] = field(default_factory=list)
    # The usernames of a home game's bots (:func:`home_bot_names`), to label and remove.
    bots: list[str] = field(default_factory=list)
    # What every viewer's snapshot shares, built for the first and kept for the
    # rest: the table's part, the hand's public facts, and each engine
    # player's view of the hand, made from the observer's (None's, which
    # observers and anyone not dealt in share), and the live log's new lines
    # for each place in the hand a viewer had got to.
    shared: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def stamp(self) -> Stamp:
        """The latest hand's place: every move and every new hand moves it on."""
        return (0, 0) if self.hand is None else (self.hand.number, self.hand.version)


def read_table(table_id: int) -> TableRows | None:
    """The table, its seats and its latest hand; None if the table is gone.

    The latest hand comes with its table and stakes, in one query; only a
    table that has dealt no hand yet is read on its own.
    """
    found_hands = LATEST_HAND(table_id)
    hand = found_hands[0] if found_hands else None
    if hand is not None:
        table = hand.table
    else:
        found = (
            Table.objects.select_related("stakes__rake", "call_player", "host")
            .defer(*only_row_fields("call_player", "host"))
            .filter(pk=table_id)
            .first()
        )
        if found is None:
            return None
        table = found
    # Read-only from here on: the views only read it.
    state = None if hand is None else HandState.from_dict(hand.state, adopt=True)
    return _with_seats(table, hand, state)


def rows_after_move(
    hand: Hand, seats: list[Seat] | None = None, waiting: list[WaitingPlayer] | None = None
) -> TableRows:
    """The rows of a hand's table just after a move in it committed.

    ``hand`` is the one the move's service stored, with the table it locked:
    they are the table and its latest hand as the move left them, and so are
    ``seats`` (every seat at the table, with its player, in order), which the
    move read under the table's lock and wrote, and ``waiting``, the waiting
    list it read under the lock. What the service didn't hand over is read.
    The hand must still be running; the end of a hand changes seats and
    balances that a fresh :func:`read_table` reads.
    """
    if hand.is_finished:
        raise ValueError(f"hand #{hand.number} is over: read the table afresh")
    state = HandState.from_dict(hand.state, adopt=True)
    return _with_seats(hand.table, hand, state, seats, waiting)


def _with_seats(
    table: Table,
    hand: Hand | None,
    state: HandState | None,
    seats: list[Seat] | None = None,
    waiting: list[WaitingPlayer] | None = None,
) -> TableRows:
    games = GAMES(table.pk) if table.is_mixed else []
    seats = SEATS(table.pk) if seats is None else seats
    waiting = WAITING(table.pk) if waiting is None else waiting
    # Only a home game keeps books: a table of the room reads nothing more. Read
    # after the seats, they have a row for every player seated in them; a
    # change between the two reads sends its own notice, and a read after it.
    books = books_payload(home_books(table.pk)) if table.is_home else None
    # Only a table whose host approves seats has requests to read.
    requests = _requests(table) if table.seat_approval and table.is_open else []
    bots = home_bot_names(table.pk) if table.is_home else []
    return TableRows(table, seats, hand, state, waiting, games, books, requests=requests, bots=bots)


def _requests(table: Table) -> list[SeatRequest]:
    requests = seat_requests_waiting(table.pk).select_related("player")
    return list(requests.defer(*only_row_fields("player")))


def seat_requests_waiting(table_id: int) -> QuerySet[SeatRequest]:
    """The seat requests at a home game waiting for its host, oldest first:
    those made by members since they were let in. One from before the host
    removed its player is not, should they come back by the link."""
    member = TableMember.objects.filter(
        table_id=table_id, player_id=OuterRef("player_id"), joined_at__lte=OuterRef("created_at")
    )
    return SeatRequest.objects.filter(table_id=table_id).filter(Exists(member))


# The reads every change to a table makes, compiled once (see tables.compiled).
# The latest hand comes with its table and stakes.
LATEST_HAND = CompiledRead(
    lambda table_id: (
        Hand.objects.select_related("table__stakes__rake", "table__call_player", "table__host")
        .defer(*only_row_fields("table__call_player", "table__host"))
        .filter(table_id=table_id)
        .order_by("-number")[:1]
    )
)
SEATS = CompiledRead(
    lambda table_id: (
        Seat.objects.select_related("player")
        .defer(*only_row_fields("player"))
        .filter(table_id=table_id)
        .order_by("number")
    )
)
WAITING = CompiledRead(
    lambda table_id: (
        WaitingPlayer.objects.select_related("player")
        .defer(*only_row_fields("player"))
        .filter(table_id=table_id)
        .order_by("joined_at", "pk")
    )
)


GAMES = CompiledRead(
    lambda table_id: (
        TableGame.objects.select_related("stakes")
        .filter(table_id=table_id)
        .order_by("position", "pk")
    )
)


def books_payload(books: Books) -> dict[str, Any]:
    """The books as the table page shows them (``static/js/table/ledger.js``)."""
    return {
        "players": [
            {"player": row.username, "name": row.name, "seated": row.seated, **_figures(row)}
            for row in books.rows
        ],
        "totals": _figures(books.totals),
        "rake": books.rake,
        "transfers": [
            {
                "payer": pay.payer,
                "payee": pay.payee,
                "house": pay.payee_id is None,
                "amount": pay.amount,
            }
            for pay in books.payments
        ],
    }


def _figures(figures: LedgerFigures) -> dict[str, int]:
    return {
        "bought_in": figures.bought_in,
        "topped_up": figures.topped_up,
        "cashed_out": figures.cashed_out,
        "on_table": figures.on_table,
        "net": figures.net,
    }


def needs_earlier_events(rows: TableRows, cursor: Cursor) -> bool:
    """Whether the viewer followed an older hand that may have events they haven't had."""
    if cursor.ended:
        return False
    return rows.hand is None or rows.hand.pk != cursor.hand_id


def build_snapshot(
    rows: TableRows,
    player_id: int | None,
    cursor: Cursor | None,
    *,
    with_events: bool,
    earlier: list[dict[str, Any]] | None = None,
    balance: int | None = None,
) -> Snapshot:
    """Everything ``player_id`` (None: an anonymous observer) may see at the table in ``rows``.

    ``cursor`` is how far this viewer has followed a hand. With ``with_events``,
    the events after it are returned, and every event of a newer hand, filtered
    for this viewer; ``earlier`` are the events still due from an older hand
    the viewer was following (:func:`events_since`). ``balance`` is the
    viewer's chip balance as last read, for when they have no seat here (a
    seated player's is read with their seat).
    """
    seats, hand, shared = rows.seats, rows.hand, rows.shared
    events = list(earlier or []) if with_events else []
    if "table" not in shared:
        shared["table"] = _table_payload(rows, seats, hand, rows.waiting)
    payload = {
        "type": "snapshot",
        "table": shared["table"],
        "hand": None,
        "hand_info": None,
        "you": None,
    }
    if player_id is not None:
        mine = next((seat for seat in seats if seat.player_id == player_id), None)
        # A home game's books: live for its players seated, and once the game
        # is closed (nobody seated) its final settle-up for everyone let in.
        if rows.books is not None and (mine is not None or not rows.table.is_open):
            payload["ledger"] = rows.books
        payload["you"] = {
            "player": player_id,
            "seat": mine and mine.number,
            "balance": mine.player.balance if mine else balance,
            "auto_rebuy_to": mine and mine.auto_rebuy_to,
            # Only the player hears of it: the others see a seat in the hand.
            "sitting_out_next": bool(mine and mine.sitting_out_next),
            **_your_place(rows.waiting, player_id),
        }
        if rows.table.is_home:
            payload["you"].update(_your_home(rows, player_id))
    if hand is not None and rows.state is not None:
        viewer = hand.engine_player(player_id)
        if ("view", viewer) not in shared:
            if ("view", None) not in shared:
                shared["view", None] = view(rows.state)
            shared["view", viewer] = view_from(shared["view", None], rows.state, viewer)
        if "hand_info" not in shared:
            state = rows.state
            clocked = [state.to_act] if state.to_act is not None else state.deciding()
            shared["hand_info"] = _hand_info(hand, clocked, _hand_names(rows, hand))
        payload["hand"], payload["hand_info"] = shared["view", viewer], shared["hand_info"]
        if with_events:
            seen = cursor.seen if cursor is not None and cursor.hand_id == hand.pk else 0
            if "names" not in shared:
                shared["names"] = _live_names(hand, _hand_names(rows, hand))
            if ("told", seen) not in shared:  # the same for every viewer who got as far
                shared["told", seen] = LIVE_LINES.between(hand, rows.state, shared["names"], seen)
            told = shared["told", seen]
            visible = events_for(rows.state, viewer, since=seen)
            events += _event_messages(hand, visible, told, seen)
        cursor = Cursor(hand.pk, len(rows.state.events), hand.is_finished)
    return Snapshot(payload, events, cursor)


def _your_home(rows: TableRows, player_id: int) -> dict[str, Any]:
    """At a home game: whether the viewer hosts it, and the seat requests
    waiting that are theirs to see: every one to the host, to a member their
    own (``seat_request``, None when they have none waiting)."""
    host = rows.table.host_id == player_id
    own = next((r for r in rows.requests if r.player_id == player_id), None)
    you: dict[str, Any] = {
        "host": host,
        "seat_request": own and {"seat": own.number, "buy_in": own.buy_in},
    }
    if host:
        you["seat_requests"] = [
            {"player": r.player.username, "seat": r.number, "buy_in": r.buy_in}
            for r in rows.requests
        ]
    return you


def _your_place(waiting: list[WaitingPlayer], player_id: int) -> dict[str, Any]:
    """The viewer's place on the waiting list (1 is next) and the seat held for them."""
    for position, entry in enumerate(waiting, start=1):
        if entry.player_id == player_id:
            offer = None
            if entry.offered_seat is not None and entry.offer_expires_at is not None:
                offer = {
                    "seat": entry.offered_seat,
                    "expires_at": entry.offer_expires_at.isoformat(),
                }
            return {"waiting_position": position, "offer": offer}
    return {"waiting_position": None, "offer": None}


def _table_payload(
    rows: TableRows, seats: list[Seat], hand: Hand | None, waiting: list[WaitingPlayer]
) -> dict[str, Any]:
    table = rows.table
    config = _game_config(rows)
    return {
        "id": table.pk,
        "name": table.name,
        # The game of the hand being dealt (or last dealt, or to be dealt next),
        # and how it plays; the buy-ins are the table's.
        "stakes": _game_words(hand, config, table),
        "rules": _rules(config),
        "buy_in": [table.stakes.min_buy_in, table.stakes.max_buy_in],
        "mix": _mix(rows, seats, hand),
        "call": _call(rows, seats),
        "is_open": table.is_open,
        "waiting": _waiting(table, seats, hand),
        "waiting_list": [entry.player.username for entry in waiting],
        "held_seats": sorted(e.offered_seat for e in waiting if e.offered_seat is not None),
        "seats": [
            {
                "number": seat.number,
                "player": seat.player.username,
                "stack": seat.stack,
                "state": seat.state,
                "sat_out_for": seat.sat_out_for or None,
                "leaving": seat.leaving,
            }
            for seat in seats
        ],
        **_home(table, rows.bots),
    }


def _home(table: Table, bots: list[str]) -> dict[str, Any]:
    """A home game's part of the table: its host, whether they have paused
    the deal, whether they approve each seat, the host's change of the game
    and the seats and action time it sets; nothing at a table of the room."""
    if not table.is_home or table.host is None:
        return {}
    return {
        "home": {
            "host": table.host.username,
            "paused": table.paused,
            "approval": table.seat_approval,  # whether the host approves each seat
            "change": _home_change(table),
            "bots": bots,  # the usernames of the bots the host added
            # The terms the page draws by, which the host's change may set.
            "terms": {"seats": table.stakes.seats, "action_seconds": table.stakes.action_seconds},
        }
    }


def _home_change(table: Table) -> dict[str, Any] | None:
    """The host's last change of the game (``tables.services.home_changes``):
    its number, who made it, what it changes in words, and whether it is
    made (``applied``) or waits for the next hand; None before any."""
    change = table.pending_change
    if not change:
        return None
    keys = ("number", "by", "words", "applied")
    return {key: change.get(key) for key in keys}


def _game_words(hand: Hand | None, config: GameConfig | None, table: Table) -> str:
    """The game in words: as the hand recorded it when dealt (no telling again
    each move), or the game the table deals first."""
    if hand is not None:
        return hand.game
    return config.describe() if config is not None else table.stakes.describe()


def _dealt_in(seats: list[Seat]) -> list[int]:
    """The seat numbers the next hand would be dealt to: playing, with chips."""
    return [s.number for s in seats if s.state in Seat.DEALT_IN_STATES and s.stack > 0]


def _game_config(rows: TableRows) -> GameConfig | None:
    """The game of the latest hand, or before any the one the table deals first
    (at dealer's choice, the list's first until a dealer calls one)."""
    if rows.state is not None:
        return rows.state.config
    try:
        if rows.games:
            return rows.games[0].game_config(rows.table.stakes)
        return rows.table.stakes.game_config()
    except IllegalAction:  # stakes saved without their checks: the page still opens
        return None


_RULES: dict[GameConfig, list[str]] = {}


def _rules(config: GameConfig | None) -> list[str]:
    """How the game plays, for the table's panel (:func:`how_it_plays`), told once per game."""
    if config is None:
        return []
    told = _RULES.get(config)
    if told is None:
        if len(_RULES) > 256:
            _RULES.clear()
        told = _RULES[config] = list(how_it_plays(config))
    return told


def _mix(rows: TableRows, seats: list[Seat], hand: Hand | None) -> dict[str, Any] | None:
    """A mixed table's list, the game now and what comes next (None at a fixed table)."""
    table = rows.table
    if not rows.games:
        return None
    ahead = coming(table, rows.games, _dealt_in(seats), hand.dealer_seat if hand else None)
    return {
        "policy": table.policy,
        "words": ahead.words(table.policy),
        "games": [{"position": game.position, "name": game.name} for game in rows.games],
        "now": ahead.now.position if ahead.now is not None else None,
        "left": ahead.left,
        "next": ahead.then.name if ahead.then is not None else None,
    }


def _call(rows: TableRows, seats: list[Seat]) -> dict[str, Any] | None:
    """The dealer's call under way: who calls, the games they may call, and their clock."""
    table = rows.table
    if table.call_seat is None or table.call_deadline is None or table.call_expires_at is None:
        return None
    players = len(_dealt_in(seats))
    terms = table.stakes
    extra = table.call_expires_at - table.call_deadline
    return {
        "number": table.call_number,
        "seat": table.call_seat,
        "player": table.call_player.username if table.call_player else None,
        "games": [
            {"position": game.position, "name": game.name, "game": _words(game, terms)}
            for game in fitting(rows.games, players)
        ],
        "timer": {
            "seat": table.call_seat,
            "seats": [table.call_seat],
            "deadline": table.call_deadline.isoformat(),
            "expires_at": table.call_expires_at.isoformat(),
            "time_bank_ms": extra // timedelta(milliseconds=1),
            "clock": terms.clock,
        },
    }


def _words(game: TableGame, terms: Stakes) -> str:
    """The game in words with its sizes: "Razz, 2/4, ante 1, bring-in 1"."""
    try:
        return game.game_config(terms).describe()
    except IllegalAction:
        return game.name


def _waiting(table: Table, seats: list[Seat], hand: Hand | None) -> str | None:
    """Why no hand is being played, when none is and none is about to be dealt."""
    if hand is not None and not hand.is_finished:
        return None
    if not table.is_open:
        return "closed"
    if table.call_seat is not None:
        return "call"
    if table.paused:
        return "paused"
    return "players" if len(_dealt_in(seats)) < 2 else None


def _hand_info(hand: Hand, clocked: list[int], names: list[str]) -> dict[str, Any]:
    """Public facts about the hand the view does not carry: who engine player ``i`` is."""
    return {
        "id": hand.pk,
        "number": hand.number,
        "dealer": hand.dealer_seat,
        "seats": hand.seat_numbers(),
        "names": names,
        "deck_commitment": hand.deck_commitment,
        "finished": hand.is_finished,
        # The game the hand is dealt, and at dealer's choice the call that chose it.
        "game": hand.game,
        "variant": hand.variant,
        "call": hand.call,
        "timer": _timer(hand, clocked),
    }


def _timer(hand: Hand, clocked: list[int]) -> dict[str, Any] | None:
    """The running turn's clock: action time to ``deadline``, then the extra time to
    ``expires_at``; ``clock`` says whether that is a countdown or a time bank.

    ``seats``: whose clock it is: the player to act, or everyone still to
    choose in a choice made at once (then ``seat`` is None)."""
    if not clocked or hand.turn_deadline is None or hand.turn_expires_at is None:
        return None
    extra = hand.turn_expires_at - hand.turn_deadline
    numbers = hand.seat_numbers()
    seats = [numbers[player] for player in clocked]
    return {
        "seat": seats[0] if len(clocked) == 1 else None,
        "seats": seats,
        "deadline": hand.turn_deadline.isoformat(),
        "expires_at": hand.turn_expires_at.isoformat(),
        "time_bank_ms": extra // timedelta(milliseconds=1),
        "clock": hand.table.stakes.clock,  # the table's, read with it: no query
    }


def events_since(cursor: Cursor, player_id: int | None) -> list[dict[str, Any]]:
    """New events of the hand the viewer was following, as that viewer may see them."""
    hand = Hand.objects.select_related("table").filter(pk=cursor.hand_id).first()
    if hand is None:
        return []
    state = HandState.from_dict(hand.state, adopt=True)
    names = _live_names(hand, hand_names(hand))
    visible = events_for(state, hand.engine_player(player_id), since=cursor.seen)
    told = LIVE_LINES.between(hand, state, names, cursor.seen)
    return _event_messages(hand, visible, told, cursor.seen)


def _event_messages(
    hand: Hand, visible: list[dict[str, Any]], told: list[str | None], first: int
) -> list[dict[str, Any]]:
    """``visible`` events of ``hand`` as messages, from the hand's event number ``first``."""
    return [
        {"type": "event", "hand_id": hand.pk, "index": index, "event": event, "text": text}
        for index, (event, text) in enumerate(zip(visible, told, strict=True), start=first)
    ]


@dataclass
class _Told:
    """One hand's live log so far, and the narrator that goes on telling it."""

    key: tuple[str, tuple[str, ...], bool]  # what its every line depends on (LiveLines._log)
    narrator: LiveNarrator
    events: list[dict[str, Any]] = field(default_factory=list)  # the engine's, as told
    lines: list[str | None] = field(default_factory=list)

    def goes_on_to(self, state: HandState) -> bool:
        """Whether ``state``'s events begin with the ones told (or these with its)."""
        last = min(len(self.events), len(state.events)) - 1
        return last < 0 or self.events[last] == state.events[last]


class LiveLines:
    """The live log's lines of the hands this process is telling: each event
    of a hand as the table's live log tells it, one line or None.

    Told from an observer's events, so the lines are the same for every viewer
    and name no down card: a player sees their own in their seat. Each hand's
    events are told once, as they come (:class:`LiveNarrator`), and the lines
    kept for the newest ``KEEP`` hands: a change at a table costs the telling
    of its new events, not of the whole hand again. The lines are those a
    telling of the whole hand so far gives. A new telling begins when the
    hand's result comes, as every line then reads the result (or, were a
    player's name to change, the new name).
    """

    KEEP = 256

    def __init__(self) -> None:
        self.told: OrderedDict[int, _Told] = OrderedDict()  # hand id -> its log
        self.lock = threading.Lock()  # told on the event loop and in database threads

    def between(
        self, hand: Hand, state: HandState, names: list[str], first: int
    ) -> list[str | None]:
        """The lines of ``hand``'s events from number ``first`` to the last of ``state``'s."""
        end = len(state.events)
        with self.lock:
            told = self._log(hand, state, names)
            if len(told.lines) < end:
                new = events_for(state, since=len(told.lines))
                told.events += state.events[len(told.lines) :]
                told.lines += [each.text for each in told.narrator.tell_new(new, names, state)]
            return told.lines[first:end]

    def _log(self, hand: Hand, state: HandState, names: list[str]) -> _Told:
        key = (hand.deck_commitment, tuple(names), state.result is not None)
        told = self.told.pop(hand.pk, None)
        if told is None or told.key != key or not told.goes_on_to(state):
            told = _Told(key, LiveNarrator(names, state))
        self.told[hand.pk] = told
        while len(self.told) > self.KEEP:
            self.told.popitem(last=False)
        return told


LIVE_LINES = LiveLines()


def _live_names(hand: Hand, names: list[str]) -> list[str]:
    """The hand's players as the live log names them: "Seat 3 (alice)"."""
    return [
        f"Seat {seat} ({name_in_words(name)})"
        for seat, name in zip(hand.seat_numbers(), names, strict=True)
    ]


def _hand_names(rows: TableRows, hand: Hand) -> list[str]:
    """:func:`hand_names` of the rows' hand, worked out once for all their viewers."""
    names: list[str] | None = rows.shared.get("hand_names")
    if names is None:
        names = rows.shared["hand_names"] = hand_names(hand, rows.seats)
    return names


def hand_names(hand: Hand, seats: list[Seat] | None = None) -> list[str]:
    """The usernames of the hand's players in engine order (:meth:`Hand.player_names`);
    a hand dealt before it kept them names each player as their seat among
    ``seats`` does, if they still sit there, to spare a query."""
    unnamed = hand.players_unnamed()  # none for hands dealt now: no seat's player is read
    known = {s.player_id: s.player.username for s in seats or [] if s.player_id in unnamed}
    return hand.player_names(known)
