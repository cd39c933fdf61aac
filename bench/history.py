"""History at scale: fill a database with 100,000 hands, then time the pages that read them.

    python bench/history.py [--hands 100000] [--repeat 20] [--keep] [--json PATH]

**Data.** It drops and recreates a PostgreSQL database of its own
(``--database-url``, whose name must contain "bench"), migrates, and fills it
with ``--hands`` finished hands. Each is played by the real rules engine
(``HandState.new`` on a shuffled deck) with random legal moves, as in
``bench/engine.py``, 2% of them left to the turn clock (a check if free, else a
fold, marked as timed out). 12 tables of stud, razz and stud hi-lo at 5/10
and 10/20 play in sessions of 20 to 180 hands over the 120 days up to
yesterday, busier in the evening: 2 to 8 players from a pool of 300 (some far
keener than others) sit down with a buy-in, their stacks carry from hand to
hand, the broke leave, and players come and go between hands. The button
moves and seats are ordered as ``tables.services`` does it.

Every hand is written as ``tables.services`` writes one that ends: the
``Hand`` (deck, salt and ``deck_commitment``, seating, the engine's final
state, its version), a ``HandResult`` per player, the ``RakeEntry`` and the
activity summary's ``PlayerDay`` rows, with ``bulk_create`` a batch of hands
per transaction. The moves are where the services keep them, in the state's
action list, each with the time it was made (``"at"``) and, when the clock
made it, its mark; the hand's version counts them, as the services count.
Then ``VACUUM ANALYZE``, as autovacuum would have run over months of play.
The chips come from nowhere: nobody bought in through the ledger, so
``manage.py audit_chips`` fails on this database, as it should.

**Timing.** In this process, through Django's test ``Client`` (no server, no
network; ``DEBUG`` off), logged in as the player with the most hands and as a
superuser, it requests each page twice untimed, then ``--repeat`` times, and
prints the median and 95th percentile in milliseconds and the SQL queries of
one more request: the hand history list (first page, last page, filtered), a
hand's page (the player's longest hand), that hand's downloads, a range
download of about 50 of the player's hands, the rake report (everything, and
its CSV), the activity report (from the first day, and with no dates) and
the staff hand search (first page, last page, one player). A page that answers
404 (say, a filter that finds nothing to download) is listed as not
available and not timed.

The database stays afterwards: ``--keep`` times it again without refilling.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import json
import os
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
DAYS = 120
PLAYERS = 300
# A player's chance of being picked falls off as 1/rank**KEENNESS: a few regulars
# play a large share of the hands, as on any site, and their lists run deep.
KEENNESS = 0.5
SESSION_HANDS = (20, 180)
# How many players a session starts with, 2 to 8, and how often: mostly 4 to 7.
SESSION_PLAYERS = ((2, 3, 4, 5, 6, 7, 8), (1, 2, 3, 4, 4, 3, 2))
# Between two sessions at a table, at least this long with nobody playing.
SESSION_GAP = timedelta(minutes=10)
SEATS = 8
LEAVE_SHARE = 0.03  # per hand, one player stands up
JOIN_SHARE = 0.04  # per hand, one player sits down in a free seat
TIMEOUT_SHARE = 0.02
THINK_SECONDS = (1.0, 8.0)
ACTION_SECONDS = 10  # the stakes' action time, spent in full by a timeout
DEAL_SECONDS = 2.0
NEXT_HAND_SECONDS = 3.0  # CARDROOM_NEXT_HAND_DELAY_SECONDS
# Sessions are more likely to start at the busy hours of the day.
HOUR_WEIGHTS = (3, 2, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 5, 4, 4, 5, 6, 8, 10, 10, 9, 7, 5)
HANDS_PER_BATCH = 500
RANGE_HANDS = 50  # about a page of hands for the range download
WARM_UP = 2


@dataclass(frozen=True)
class StakesSpec:
    name: str
    variant: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    rake_cap: int
    tables: int


STAKES = (
    StakesSpec("Stud 5/10", "stud", 1, 2, 5, 10, rake_cap=3, tables=3),
    StakesSpec("Stud 10/20", "stud", 2, 5, 10, 20, rake_cap=6, tables=2),
    StakesSpec("Razz 5/10", "razz", 1, 2, 5, 10, rake_cap=3, tables=3),
    StakesSpec("Stud hi-lo 5/10", "stud8", 1, 2, 5, 10, rake_cap=3, tables=2),
    StakesSpec("Stud hi-lo 10/20", "stud8", 2, 5, 10, 20, rake_cap=6, tables=2),
)


# -------------------------------------------------------------- arguments


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Fill a database with finished hands; time the history, export and "
        "report pages over them."
    )
    add = parser.add_argument
    add("--hands", type=int, default=100_000, help="finished hands to fill in (100000)")
    add(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/cardroom_history_bench",
        help="a PostgreSQL database to drop and refill; its name must contain 'bench'",
    )
    add("--repeat", type=int, default=20, help="timed requests per page (20)")
    add("--keep", action="store_true", help="reuse the database as filled by an earlier run")
    add("--seed", type=int, default=1, help="seed for the players, sessions and moves")
    add("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeat < 1:
        parser.error("--hands and --repeat must be at least 1")
    if "bench" not in urlsplit(args.database_url).path:
        parser.error("--database-url must name a database with 'bench' in it: it is dropped")
    return args


def configure(database_url: str) -> None:
    """Production settings on the bench's database, for this process."""
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(40),
            # The test client's requests are addressed to "testserver", over plain
            # HTTP: what is timed is the page, not a redirect to HTTPS.
            "ALLOWED_HOSTS": "testserver",
            "HTTPS": "false",
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "cardroom.settings"),
        }
    )
    sys.path.insert(0, str(BASE_DIR))  # run as a script, only bench/ is on the path
    import django

    django.setup()


# ------------------------------------------------------------- database


def recreate_database(url: str) -> None:
    import psycopg

    name, admin = _database_name(url), _admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def database_exists(url: str) -> bool:
    import psycopg

    with psycopg.connect(_admin_url(url), autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [_database_name(url)]
        )
        return found.fetchone() is not None


def _database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def _admin_url(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# ------------------------------------------------------------------ play


@dataclass
class BenchSeat:
    """A seat as ``tables.services`` orders them: a number, a player and a stack."""

    number: int
    player_id: int
    stack: int


@dataclass
class PlayedHand:
    table: Any  # tables.models.Table
    number: int
    dealer: int
    order: list[BenchSeat]  # engine order, the stacks as dealt
    deck: list[int]
    salt: str
    state: Any  # tables.rules.HandState, finished, its actions timed
    started_at: datetime
    ended_at: datetime


@dataclass
class TablePlay:
    """One table's hands, session after session, in the order they were dealt."""

    table: Any
    config: Any  # tables.rules.GameConfig
    buy_ins: tuple[int, int]
    players: Sequence[int]
    weights: Sequence[float]
    rng: random.Random
    seats: list[BenchSeat] = field(default_factory=list)
    sat: set[int] = field(default_factory=set)  # players who sat down this session
    number: int = 0
    dealer: int = 0

    def hands(self, sessions: list[tuple[datetime, int]]) -> Iterator[PlayedHand]:
        ended: datetime | None = None  # the table's last hand
        for start, count in sessions:
            # A session planned to start while the last one played starts after it.
            clock = start if ended is None else max(start, ended + SESSION_GAP)
            self.seats, self.sat = [], set()
            self._sit_down(self.rng.choices(*SESSION_PLAYERS)[0])
            for _ in range(count):
                self._come_and_go()
                hand = self._play(clock)
                yield hand
                ended = hand.ended_at
                clock = ended + timedelta(seconds=NEXT_HAND_SECONDS)
                self._settle(hand)

    def _sit_down(self, count: int) -> None:
        """``count`` players new to this session sit down in free seats with a buy-in."""
        free = sorted(set(range(1, SEATS + 1)) - {seat.number for seat in self.seats})
        while count > 0 and free:
            player = self.rng.choices(self.players, self.weights)[0]
            if player in self.sat:
                continue  # here already, or left: someone who left is gone for the session
            number = free.pop(self.rng.randrange(len(free)))
            self.seats.append(BenchSeat(number, player, self.rng.randint(*self.buy_ins)))
            self.sat.add(player)
            count -= 1
        self.seats.sort(key=lambda seat: seat.number)

    def _come_and_go(self) -> None:
        if len(self.seats) > 2 and self.rng.random() < LEAVE_SHARE:
            self.seats.pop(self.rng.randrange(len(self.seats)))
        if len(self.seats) < SEATS and self.rng.random() < JOIN_SHARE:
            self._sit_down(1)
        if len(self.seats) < 2:
            self._sit_down(2 - len(self.seats))

    def _play(self, start: datetime) -> PlayedHand:
        from tables.rules import HandState
        from tables.services import hands

        # The services' own helpers, so the button and the order match theirs.
        self.dealer = hands._next_dealer(self.seats, self.dealer)  # type: ignore[arg-type]
        order = hands._engine_order(self.seats, self.dealer)  # type: ignore[arg-type]
        deck = list(range(52))
        self.rng.shuffle(deck)
        state = HandState.new(self.config, [seat.stack for seat in order], deck)
        ended = play_moves(state, self.rng, start + timedelta(seconds=DEAL_SECONDS))
        self.number += 1
        return PlayedHand(
            table=self.table,
            number=self.number,
            dealer=self.dealer,
            order=[BenchSeat(s.number, s.player_id, s.stack) for s in order],
            deck=deck,
            salt=f"{self.rng.getrandbits(256):064x}",
            state=state,
            started_at=start,
            ended_at=ended,
        )

    def _settle(self, hand: PlayedHand) -> None:
        """The stacks after the hand; a player left with nothing stands up."""
        stacks = {s.number: stack for s, stack in zip(hand.order, hand.state.stacks, strict=True)}
        for seat in self.seats:
            seat.stack = stacks.get(seat.number, seat.stack)
        self.seats = [seat for seat in self.seats if seat.stack > 0]


def play_moves(state: Any, rng: random.Random, at: datetime) -> datetime:
    """Random legal moves from ``at`` to the end of the hand, some of them left to
    the clock, each timed and marked in the state as the services do it; returns
    when the last was made (``at`` if nobody moved)."""
    from tables.models import Stakes
    from tables.services import timeouts

    while not state.finished:
        timed_out = rng.random() < TIMEOUT_SHARE
        if timed_out:
            kind, amount = timeouts._timeout_move(state, Stakes.TimeoutPolicy.CHECK_FOLD), None
            at += timedelta(seconds=ACTION_SECONDS)
        else:
            kind, amount = choose(rng, state.legal_actions())
            at += timedelta(seconds=rng.uniform(*THINK_SECONDS))
        made = at.isoformat(timespec="milliseconds")  # as tables.services.hands stamps a move
        state.act(state.to_act, kind, amount, timed_out=timed_out, at=made)
    return at


def choose(rng: random.Random, options: Sequence[Any]) -> tuple[str, int | None]:
    """``bench/engine.py``'s policy: a uniform pick among the legal kinds, and for a
    wager its smallest or largest size."""
    option = rng.choice(options)
    if option.min is None or option.min == option.max:
        return option.kind, option.min
    return option.kind, rng.choice((option.min, option.max))


# ------------------------------------------------------------------ fill


@dataclass(frozen=True)
class Filled:
    hands: int
    actions: int  # the moves in the hands' action lists
    results: int
    player_days: int
    seconds: float


def fill(
    hands: int,
    *,
    seed: int = 1,
    end: datetime | None = None,
    progress: Callable[[int], None] | None = None,
) -> Filled:
    """Stakes, tables, players and ``hands`` finished hands over the DAYS before ``end``
    (default: a day ago), written as the services write them."""
    from tables.models import HandResult, PlayerDay

    began = time.perf_counter()
    end = end or _now() - timedelta(days=1)
    players, weights = _players(seed)
    tables = _tables()
    plays = []
    for index, (table, quota) in enumerate(zip(tables, _quotas(hands, len(tables)), strict=True)):
        play = _table_play(table, players, weights, random.Random(f"{seed}:table:{index}"))
        plays.append(play.hands(_sessions(quota, end, play.rng)))
    written = 0
    with _given_times():
        for batch in _batches(heapq.merge(*plays, key=lambda h: h.started_at)):
            write(batch)
            written += len(batch)
            if progress:
                progress(written)
    return Filled(
        hands=written,
        actions=moves_stored(),
        results=HandResult.objects.count(),
        player_days=PlayerDay.objects.count(),
        seconds=time.perf_counter() - began,
    )


def moves_stored() -> int:
    """The moves of every stored hand: one version each, as the services count."""
    from django.db.models import Sum

    from tables.models import Hand

    return Hand.objects.aggregate(moves=Sum("version"))["moves"] or 0


def _now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def _players(seed: int) -> tuple[list[int], list[float]]:
    """The pool of players, and how keen each is; and a superuser for the staff pages."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    # Nobody logs in with a password: the bench logs in with force_login.
    password = make_password(None)
    users = User.objects.bulk_create(
        User(username=f"bench-player-{n:03}", password=password) for n in range(1, PLAYERS + 1)
    )
    User.objects.create_superuser(username="bench-staff", email="", password=None)
    rng = random.Random(f"{seed}:players")
    ids = [user.pk for user in users]
    rng.shuffle(ids)  # the keenest aren't the first signed up
    return ids, [1 / rank**KEENNESS for rank in range(1, len(ids) + 1)]


def _tables() -> list[Any]:
    from tables.models import RakeRule, Stakes, Table

    tables = []
    for spec in STAKES:
        rule, _ = RakeRule.objects.get_or_create(
            name=f"5% cap {spec.rake_cap}", defaults={"percent": Decimal(5), "cap": spec.rake_cap}
        )
        stakes = Stakes(
            name=spec.name,
            variant=spec.variant,
            ante=spec.ante,
            bring_in=spec.bring_in,
            small_bet=spec.small_bet,
            big_bet=spec.big_bet,
            min_buy_in=5 * spec.big_bet,
            max_buy_in=50 * spec.big_bet,
            seats=SEATS,
            rake=rule,
        )
        stakes.full_clean()
        stakes.save()
        for number in range(1, spec.tables + 1):
            tables.append(Table.objects.create(name=f"{spec.name} #{number}", stakes=stakes))
    return tables


def _table_play(
    table: Any, players: list[int], weights: list[float], rng: random.Random
) -> TablePlay:
    stakes = table.stakes
    return TablePlay(
        table=table,
        config=stakes.game_config(),
        buy_ins=(stakes.min_buy_in, stakes.max_buy_in),
        players=players,
        weights=weights,
        rng=rng,
    )


def _quotas(hands: int, tables: int) -> list[int]:
    """``hands`` shared out between the tables as evenly as it goes."""
    return [hands // tables + (index < hands % tables) for index in range(tables)]


def _sessions(hands: int, end: datetime, rng: random.Random) -> list[tuple[datetime, int]]:
    """Sessions (start, hands) adding up to ``hands``, started over the DAYS before ``end``."""
    sizes = []
    while sum(sizes) < hands:
        sizes.append(min(rng.randint(*SESSION_HANDS), hands - sum(sizes)))
    first_day = (end - timedelta(days=DAYS)).replace(hour=0, minute=0, second=0, microsecond=0)
    starts = []
    while len(starts) < len(sizes):
        hour = rng.choices(range(24), HOUR_WEIGHTS)[0]
        start = first_day + timedelta(
            days=rng.randrange(DAYS), hours=hour, seconds=rng.randrange(3600)
        )
        if start < end - timedelta(hours=6):  # room to finish before ``end``
            starts.append(start)
    return list(zip(sorted(starts), sizes, strict=True))


def _batches(hands: Iterable[PlayedHand]) -> Iterator[list[PlayedHand]]:
    batch: list[PlayedHand] = []
    for hand in hands:
        batch.append(hand)
        if len(batch) == HANDS_PER_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


@contextlib.contextmanager
def _given_times() -> Iterator[None]:
    """Let ``bulk_create`` keep the times given: ``auto_now_add`` would stamp every row now."""
    from tables.models import Hand, RakeEntry

    stamped = [
        Hand._meta.get_field("started_at"),
        RakeEntry._meta.get_field("created_at"),
    ]
    for stamp in stamped:
        stamp.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for stamp in stamped:
            stamp.auto_now_add = True  # type: ignore[attr-defined]


def write(batch: list[PlayedHand]) -> None:
    """The rows ``tables.services`` writes for these hands, in one transaction."""
    from django.db import transaction

    from tables.models import Hand, HandResult, PlayerDay, RakeEntry

    with transaction.atomic():
        hands = Hand.objects.bulk_create(_hand_row(played) for played in batch)
        pairs = list(zip(hands, batch, strict=True))
        HandResult.objects.bulk_create(_result_rows(pairs), batch_size=5000)
        RakeEntry.objects.bulk_create(_rake_row(hand, played) for hand, played in pairs)
        PlayerDay.objects.bulk_create(_player_day_rows(pairs), ignore_conflicts=True)


def _hand_row(played: PlayedHand) -> Any:
    from tables.models import Hand
    from tables.services import deck_commitment

    return Hand(
        table=played.table,
        number=played.number,
        started_at=played.started_at,
        ended_at=played.ended_at,
        deck=played.deck,
        deck_salt=played.salt,
        deck_commitment=deck_commitment(played.salt, played.deck),
        seating={
            "dealer": played.dealer,
            "players": [{"seat": s.number, "player": s.player_id} for s in played.order],
        },
        state=played.state.to_dict(),
        # One version per move, as the services count; every action is a move.
        version=len(played.state.actions),
        **Hand.game_fields(played.state.config, played.table.stakes.seats),
    )


def _result_rows(pairs: list[tuple[Any, PlayedHand]]) -> Iterator[Any]:
    from tables.models import HandResult
    from tables.services.hands import _held_cards

    for hand, played in pairs:
        state = played.state
        for player, (seat, start, final) in enumerate(
            zip(played.order, state.starting_stacks, state.stacks, strict=True)
        ):
            yield HandResult(
                hand=hand,
                player_id=seat.player_id,
                seat_number=seat.number,
                starting_stack=start,
                final_stack=final,
                net=final - start,
                cards=_held_cards(state, player),
            )


def _rake_row(hand: Any, played: PlayedHand) -> Any:
    from tables.models import RakeEntry

    return RakeEntry(
        hand=hand,
        table_id=played.table.pk,
        stakes_id=played.table.stakes_id,
        variant=played.state.config.variant,
        amount=played.state.result["rake"],
        created_at=played.ended_at,  # the services take the rake as the hand ends
    )


def _player_day_rows(pairs: list[tuple[Any, PlayedHand]]) -> Iterator[Any]:
    from django.utils import timezone

    from tables.models import PlayerDay

    seen = {
        (timezone.localdate(played.ended_at), played.table.pk, played.table.stakes_id, s.player_id)
        for _, played in pairs
        for s in played.order
    }
    for day, table, stakes, player in seen:
        yield PlayerDay(day=day, table_id=table, stakes_id=stakes, player_id=player)


# ---------------------------------------------------------------- timing


@dataclass(frozen=True)
class Page:
    label: str
    who: str  # "player" or "staff"
    url: str


@dataclass(frozen=True)
class Timing:
    label: str
    who: str
    url: str
    status: str  # "ok", "not available" (404), or "HTTP <code>"
    median_ms: float | None = None
    p95_ms: float | None = None
    queries: int | None = None
    size: int | None = None  # bytes of the response body


@dataclass(frozen=True)
class Subjects:
    """Who and what the pages are asked about, found in the filled database."""

    player: Any
    staff: Any
    player_hands: int
    long_hand: int
    range_day: date
    range_table: int
    range_hands: int
    first_day: date
    all_hands: int


def find_subjects() -> Subjects:
    from django.db.models import Count, F
    from django.db.models.functions import TruncDate

    from accounts.models import User
    from tables.models import Hand, HandResult

    keenest = HandResult.objects.values("player_id").annotate(n=Count("id")).order_by("-n").first()
    player = User.objects.get(pk=keenest["player_id"])
    mine = Hand.objects.filter(results__player=player, ended_at__isnull=False)
    per_day = (
        mine.annotate(day=TruncDate("started_at"))
        .values("day", "table_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    closest = min(per_day, key=lambda row: (abs(row["n"] - RANGE_HANDS), row["day"]))
    return Subjects(
        player=player,
        staff=User.objects.get(username="bench-staff"),
        player_hands=keenest["n"],
        long_hand=mine.order_by(F("version").desc(), "pk").values_list("pk", flat=True)[0],
        range_day=closest["day"],
        range_table=closest["table_id"],
        range_hands=closest["n"],
        first_day=_local_day(
            Hand.objects.order_by("ended_at").values_list("ended_at", flat=True)[0]
        ),
        all_hands=Hand.objects.filter(ended_at__isnull=False).count(),
    )


def _local_day(moment: datetime) -> date:
    from django.utils import timezone

    return timezone.localdate(moment)


def pages(subjects: Subjects) -> list[Page]:
    from django.urls import reverse

    def url(name: str, *args: object, **query: object) -> str:
        return reverse(name, args=args) + (f"?{urlencode(query)}" if query else "")

    hand = subjects.long_hand
    history_pages = -(-subjects.player_hands // 25)  # the history lists 25 a page
    search_pages = -(-subjects.all_hands // 50)  # the hand search 50
    day = subjects.range_day.isoformat()
    return [
        Page("history list, first page", "player", url("my_hands")),
        Page(
            f"history list, last page ({history_pages})",
            "player",
            url("my_hands", page=history_pages),
        ),
        Page(
            "history list, razz hands won", "player", url("my_hands", variant="razz", outcome="won")
        ),
        Page(f"hand page, hand {hand}", "player", url("hand_detail", hand)),
        Page("hand download .phh", "player", url("export_hand", hand, "phh")),
        Page("hand download .txt", "player", url("export_hand", hand, "txt")),
        Page(
            f"range download .phhs ({subjects.range_hands} hands)",
            "player",
            url("export_hands", "phhs", start=day, end=day, table=subjects.range_table),
        ),
        Page(
            f"range download .txt ({subjects.range_hands} hands)",
            "player",
            url("export_hands", "txt", start=day, end=day, table=subjects.range_table),
        ),
        Page("rake report, everything", "staff", url("rake_report")),
        Page("rake report CSV, everything", "staff", url("rake_report", format="csv")),
        # From the first day, so that a default range of a few days can't hide the cost.
        Page(
            "activity report, from the first day",
            "staff",
            url("activity_report", start=subjects.first_day.isoformat()),
        ),
        Page("activity report, no dates", "staff", url("activity_report")),
        Page("hand search, first page", "staff", url("hand_search")),
        Page(
            f"hand search, last page ({search_pages})",
            "staff",
            url("hand_search", page=search_pages),
        ),
        Page(
            "hand search, one player", "staff", url("hand_search", player=subjects.player.username)
        ),
    ]


def time_pages(subjects: Subjects, repeat: int) -> list[Timing]:
    from django.test import Client

    clients = {"player": Client(), "staff": Client()}
    clients["player"].force_login(subjects.player)
    clients["staff"].force_login(subjects.staff)
    return [time_page(clients[page.who], page, repeat) for page in pages(subjects)]


def time_page(client: Any, page: Page, repeat: int) -> Timing:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(page.url)
    if response.status_code != 200:
        status = "not available" if response.status_code == 404 else f"HTTP {response.status_code}"
        return Timing(page.label, page.who, page.url, status)
    for _ in range(WARM_UP - 1):
        client.get(page.url)
    seconds = []
    for _ in range(repeat):
        began = time.perf_counter()
        client.get(page.url)
        seconds.append(time.perf_counter() - began)
    # Counted apart from the timed requests: capturing queries slows them down.
    with CaptureQueriesContext(connection) as queries:
        response = client.get(page.url)
    return Timing(
        page.label,
        page.who,
        page.url,
        "ok",
        median_ms=statistics.median(seconds) * 1000,
        p95_ms=percentile(seconds, 0.95) * 1000,
        queries=len(queries),
        size=len(response.content),
    )


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` from 0 to 1) of some values."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))  # ceil without floats drifting
    return ordered[int(rank) - 1]


# ---------------------------------------------------------------- output


def load_average() -> str:
    return ", ".join(f"{load:.2f}" for load in os.getloadavg())


def report(figures: dict[str, Any]) -> None:
    print(
        f"{figures['hands']} hands, {figures['actions']} actions, {figures['results']} results, "
        f"{figures['player_days']} player-days"
    )
    if figures["fill_seconds"] is not None:
        print(f"fill: {figures['fill_seconds']:.1f} s")
    print(f"player: {figures['player']} ({figures['player_hands']} hands)")
    print(
        f"load average (1, 5, 15 min): {figures['load_before']} before timing, "
        f"{figures['load_after']} after"
    )
    print(f"{'page':<42} {'who':<7} {'median ms':>9} {'p95 ms':>7} {'queries':>7} {'bytes':>9}")
    for t in figures["pages"]:
        if t["status"] != "ok":
            print(f"{t['label']:<42} {t['who']:<7} {t['status']}")
            continue
        print(
            f"{t['label']:<42} {t['who']:<7} {t['median_ms']:>9.1f} {t['p95_ms']:>7.1f} "
            f"{t['queries']:>7} {t['size']:>9}"
        )


def say(text: str) -> None:
    print(f"bench/history.py: {text}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ main


def prepare(args: argparse.Namespace) -> Filled | None:
    """The filled database: reused with ``--keep`` if it has hands, else made anew."""
    name = _database_name(args.database_url)
    if not (args.keep and database_exists(args.database_url)):
        say(f"recreating {name}")
        recreate_database(args.database_url)
    configure(args.database_url)
    migrate()
    from tables.models import Hand

    if args.keep and Hand.objects.exists():
        say(f"reusing the {Hand.objects.count()} hands in {name}")
        return None
    say(f"filling {name} with {args.hands} hands")
    filled = fill(args.hands, seed=args.seed, progress=_progress(args.hands))
    say(f"filled in {filled.seconds:.0f} s; vacuuming")
    _vacuum()
    return filled


def _progress(hands: int) -> Callable[[int], None]:
    """Say how far the fill has got, about every tenth of the way."""
    step = max(HANDS_PER_BATCH, hands // 10 // HANDS_PER_BATCH * HANDS_PER_BATCH)

    def tell(written: int) -> None:
        if written % step == 0 or written == hands:
            say(f"{written} hands written")

    return tell


def _vacuum() -> None:
    """What autovacuum would have done to hands written over months: without the
    visibility map it sets, PostgreSQL won't answer from an index alone."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    filled = prepare(args)
    from tables.models import HandResult, PlayerDay

    subjects = find_subjects()
    before = load_average()
    say(f"timing {len(pages(subjects))} pages, {args.repeat} requests each")
    timings = time_pages(subjects, args.repeat)
    figures = {
        "date": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "hands": subjects.all_hands,
        "actions": filled.actions if filled else moves_stored(),
        "results": filled.results if filled else HandResult.objects.count(),
        "player_days": filled.player_days if filled else PlayerDay.objects.count(),
        "fill_seconds": filled.seconds if filled else None,
        "player": subjects.player.username,
        "player_hands": subjects.player_hands,
        "repeat": args.repeat,
        "load_before": before,
        "load_after": load_average(),
        "pages": [asdict(timing) for timing in timings],
    }
    report(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
