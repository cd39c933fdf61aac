"""Staff reports: rake from the ledger, activity at the tables, and hand search.

Each report is summed by the database in a fixed number of queries, whatever the
number of hands. For rake, Python only rolls up the grouped rows that come back
(days into weeks, tables into stakes), adding the same integers, so every total
agrees with the rake ledger (:class:`RakeEntry`) to the chip. Players active are
counted by the database from :class:`PlayerDay`, a summary of the results with
one row per (day, table, player), so the count costs rows per player and day,
not per hand.

Days are the site's time zone's (``TIME_ZONE``): with Paris time, rake taken at
23:30 UTC on 1 March counts on 2 March. Weeks are ISO weeks, Monday to Sunday,
made of those days. A hand counts when it ended, which is when its rake was taken.

Both reports put the room's tables and the players' home games (tables with a
host) apart, each with its own sums, which add up to the report's totals; a
home game's line in the per-table lists names its host.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import ExtractHour, TruncDate, TruncWeek
from django.utils import timezone

from accounts.models import User
from tables.forms import midnight
from tables.models import VARIANT_CHOICES, Hand, HandResult, PlayerDay, RakeEntry, Stakes, Table
from tables.reports.chart import Axes, Bar

ONE_DAY = datetime.timedelta(days=1)
# The chart draws a bar per day up to this many days, then a bar per week up
# to WEEKLY_UP_TO weeks, then per month: more bars than that are too thin to read.
DAILY_UP_TO = 62
WEEKLY_UP_TO = 106


@dataclass(frozen=True)
class Scope:
    """What a report covers: whole days, both ends included (None: open), and
    optionally one stakes or one table."""

    start: datetime.date | None = None
    end: datetime.date | None = None
    stakes: Stakes | None = None
    table: Table | None = None


def _within(
    rows: QuerySet[Any], moment: str, start: datetime.date | None, end: datetime.date | None
) -> QuerySet[Any]:
    """The rows whose ``moment`` falls on the days from ``start`` to ``end``."""
    # Bounds on the column itself, not on its date, so the indexes on it serve.
    if start:
        rows = rows.filter(**{f"{moment}__gte": midnight(start)})
    if end:
        rows = rows.filter(**{f"{moment}__lt": midnight(end + ONE_DAY)})
    return rows


def week_of(day: datetime.date) -> datetime.date:
    """The Monday that starts ``day``'s ISO week."""
    return day - datetime.timedelta(days=day.weekday())


def week_label(monday: datetime.date) -> str:
    """``2025-W09``: the ISO year and week number."""
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02}"


# ------------------------------------------------------------------ rake


# What each line of the rake report adds up, in the order of its fields.
SUMS = ("hands", "raked_hands", "rake")
GAME_NAMES = dict(VARIANT_CHOICES)
# What a line's bucket is: a day, a week's Monday, or a stakes or table id.
BucketKey = datetime.date | int
# The two kinds of table, as the reports' lines key and name them.
ROOM, HOME = "room", "home"
KINDS = {ROOM: "Room tables", HOME: "Home games"}


@dataclass(frozen=True)
class Line:
    """One row of a report: a bucket (a day, a week, stakes, a table) and its sums."""

    key: Any  # what the bucket is: its date, its week's Monday, a stakes or table id
    label: str
    hands: int  # hands that ended: each has a ledger row, of 0 chips if it was not raked
    raked_hands: int  # the hands among them with rake above 0
    rake: int
    note: str = ""  # shown beside the label on the page, such as a week's dates


@dataclass(frozen=True)
class RakeReport:
    by_day: list[Line]
    by_week: list[Line]
    by_stakes: list[Line]
    by_table: list[Line]
    by_game: list[Line]  # as each hand was dealt: a table's game may change
    total: Line
    chart: Chart | None
    by_kind: list[Line]  # the room's tables, then the home games: both, even empty


@dataclass(frozen=True)
class Chart:
    """The bars of a chart over a span of days, and what each bar stands for."""

    grain: str  # "day", "week" or "month"
    bars: list[Bar]
    axes: Axes


def rake_report(scope: Scope) -> RakeReport:
    """Rake and raked hands per day, week, stakes, table and game, from one grouped query."""
    rows = list(
        _within(_ledger(scope), "created_at", scope.start, scope.end)
        .annotate(day=TruncDate("created_at"))
        # Ids, not names: grouping by text makes PostgreSQL sort instead of hash.
        .values("day", "stakes_id", "table_id", "variant")
        .annotate(
            hands=Count("id"), raked_hands=Count("id", filter=Q(amount__gt=0)), rake=Sum("amount")
        )
        .order_by()
    )
    stakes, tables = _names_of(Stakes, rows, "stakes_id"), _tables_of({r["table_id"] for r in rows})
    by_day = _roll_up(rows, key=lambda r: r["day"], label=lambda r: r["day"].isoformat())
    by_table = _roll_up(rows, key=_get("table_id"), label=_name(tables.name, "table_id"))
    for row in rows:
        row["kind"] = HOME if row["table_id"] in tables.host else ROOM
    return RakeReport(
        by_day=by_day,
        by_week=_weeks(by_day),
        by_stakes=_by_name(_roll_up(rows, key=_get("stakes_id"), label=_name(stakes, "stakes_id"))),
        by_table=_by_name([replace(line, note=tables.note(line.key)) for line in by_table]),
        by_game=_by_name(_roll_up(rows, key=_get("variant"), label=_game_name)),
        total=Line(None, "Total", *(sum(r[sum_] for r in rows) for sum_ in SUMS)),
        chart=_rake_chart(by_day, scope),
        by_kind=_rake_by_kind(rows),
    )


def _rake_by_kind(rows: list[dict[str, Any]]) -> list[Line]:
    """The room's tables' line and the home games', each there with 0s if it had no hand."""
    lines = {line.key: line for line in _roll_up(rows, key=_get("kind"), label=_kind_name)}
    return [lines.get(kind) or Line(kind, name, 0, 0, 0) for kind, name in KINDS.items()]


def _kind_name(row: dict[str, Any]) -> str:
    return KINDS[row["kind"]]


@dataclass(frozen=True)
class TablesOf:
    """Tables' names, and the hosts' usernames of those that are home games, by id."""

    name: dict[int, str]
    host: dict[int, str]

    def note(self, table_id: int) -> str:
        """What a per-table line says beside a home game's name."""
        host = self.host.get(table_id)
        return f"home game, hosted by {host}" if host is not None else ""


def _tables_of(ids: set[int]) -> TablesOf:
    """The names and hosts of these tables, in one query."""
    tables = TablesOf({}, {})
    rows = Table.objects.filter(pk__in=ids).values_list("pk", "name", "host__username")
    for table, name, host in rows:
        tables.name[table] = name
        if host is not None:
            tables.host[table] = host
    return tables


def _ledger(scope: Scope) -> QuerySet[RakeEntry]:
    entries = RakeEntry.objects.all()
    if scope.stakes:
        entries = entries.filter(stakes=scope.stakes)
    if scope.table:
        entries = entries.filter(table=scope.table)
    return entries


def _names_of(model: type[Stakes | Table], rows: list[dict[str, Any]], key: str) -> dict[int, str]:
    """The names of the stakes or tables that ``rows`` name by id, in one query."""
    return dict(model.objects.filter(pk__in={row[key] for row in rows}).values_list("pk", "name"))


def _name(names: dict[int, str], key: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: names[row[key]]


def _game_name(row: dict[str, Any]) -> str:
    code: str = row["variant"]
    return GAME_NAMES.get(code, code)


def _get(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda row: row[name]


def _weeks(by_day: list[Line]) -> list[Line]:
    """The days rolled up into their ISO weeks, each noted with its dates."""
    days = [{"week": week_of(d.key), **{sum_: getattr(d, sum_) for sum_ in SUMS}} for d in by_day]
    weeks = _roll_up(days, key=_get("week"), label=lambda d: week_label(d["week"]))
    return [replace(week, note=week_dates(week.key)) for week in weeks]


def week_dates(monday: datetime.date) -> str:
    """``24 Feb to 2 Mar 2025``: a week's Monday and Sunday."""
    sunday = monday + datetime.timedelta(days=6)
    return f"{monday.day} {monday:%b} to {sunday.day} {sunday:%b %Y}"


def _roll_up(
    rows: Iterable[dict[str, Any]],
    *,
    key: Callable[[dict[str, Any]], BucketKey],
    label: Callable[[dict[str, Any]], str],
) -> list[Line]:
    """Add up the ``SUMS`` of the rows sharing a key, in key order."""
    sums: dict[BucketKey, list[Any]] = {}
    for row in rows:
        entry = sums.setdefault(key(row), [label(row), *[0] * len(SUMS)])
        for i, sum_ in enumerate(SUMS, start=1):
            entry[i] += row[sum_]
    return [Line(k, *sums[k]) for k in sorted(sums)]


def _by_name(lines: list[Line]) -> list[Line]:
    return sorted(lines, key=lambda line: line.label)


def _rake_chart(by_day: list[Line], scope: Scope) -> Chart | None:
    span = chart_span(scope, [line.key for line in by_day])
    if span is None:
        return None
    grain = chart_grain(*span)
    rake = {bucket: 0 for bucket in buckets(*span, grain)}
    raked = dict.fromkeys(rake, 0)
    for line in by_day:
        rake[bucket_of(line.key, grain)] += line.rake
        raked[bucket_of(line.key, grain)] += line.raked_hands
    bars = [
        Bar(
            label=axis_label(bucket, grain),
            value=rake[bucket],
            tooltip=f"{bucket_name(bucket, grain)}: {rake[bucket]} chips "
            f"from {raked[bucket]} raked hand{'s' if raked[bucket] != 1 else ''}",
        )
        for bucket in rake
    ]
    first, last = span
    axes = Axes(
        title=f"Rake per {grain}, {first.isoformat()} to {last.isoformat()}",
        x_label=grain.capitalize(),
        y_label="Rake (chips)",
    )
    return Chart(grain=grain, bars=bars, axes=axes)


def chart_span(
    scope: Scope, days: list[datetime.date], *, now: datetime.datetime | None = None
) -> tuple[datetime.date, datetime.date] | None:
    """The days a chart runs over: the range asked, or from the first day with
    data to today (``now``'s day) when it is open; never into the future, unless
    data is there."""
    today = timezone.localdate(now)
    first = scope.start or min(days, default=None)
    if first is None:
        return None
    last = max(min(scope.end or today, today), max(days, default=first))
    return (first, last) if first <= last else None


def chart_grain(first: datetime.date, last: datetime.date) -> str:
    length = (last - first).days + 1
    if length <= DAILY_UP_TO:
        return "day"
    return "week" if length <= WEEKLY_UP_TO * 7 else "month"


def bucket_of(day: datetime.date, grain: str) -> datetime.date:
    """The first day of the chart bucket holding ``day``."""
    if grain == "week":
        return week_of(day)
    return day.replace(day=1) if grain == "month" else day


def buckets(first: datetime.date, last: datetime.date, grain: str) -> Iterator[datetime.date]:
    """Every bucket from the one holding ``first`` to the one holding ``last``."""
    bucket, end = bucket_of(first, grain), bucket_of(last, grain)
    while bucket <= end:
        yield bucket
        if grain == "month":
            bucket = (bucket + datetime.timedelta(days=31)).replace(day=1)
        else:
            bucket += datetime.timedelta(days=7 if grain == "week" else 1)


def axis_label(bucket: datetime.date, grain: str) -> str:
    if grain == "week":
        return week_label(bucket)
    return bucket.strftime("%b %Y" if grain == "month" else "%d %b")


def bucket_name(bucket: datetime.date, grain: str) -> str:
    if grain == "week":
        return f"{week_label(bucket)} ({week_dates(bucket)})"
    return bucket.strftime("%B %Y") if grain == "month" else bucket.isoformat()


def rake_csv_rows(report: RakeReport) -> Iterator[list[object]]:
    """The report as CSV rows: each grouping's buckets, then the total."""
    yield ["grouping", "bucket", "hands", "raked_hands", "rake"]
    for grouping, lines in (
        ("day", report.by_day),
        ("week", report.by_week),
        ("stakes", report.by_stakes),
        ("table", report.by_table),
        ("game", report.by_game),
        ("kind", report.by_kind),
    ):
        for line in lines:
            yield [grouping, spreadsheet_safe(line.label), *(getattr(line, s) for s in SUMS)]
    yield ["total", "", *(getattr(report.total, s) for s in SUMS)]


def spreadsheet_safe(text: str) -> str:
    """``text`` that a spreadsheet shows as text, never runs as a formula.

    Stakes and table names are typed by staff, so one could start with ``=``.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("Stud 5/10")
    ("'=1+1", 'Stud 5/10')
    """
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# -------------------------------------------------------------- activity


@dataclass(frozen=True)
class Activity:
    """Hands ended and players dealt in over ``hours``.

    For a day, week, stakes, table or the whole range, ``hours`` are the clock
    hours in which one of its hands ended (an hour with no play doesn't thin
    out the figure); for an hour of the day, the times that hour came.
    """

    key: Any
    label: str
    hands: int
    players: int | None  # None for an hour of the day, where it isn't counted
    hours: float
    note: str = ""  # shown beside the label, such as a week's dates

    @property
    def per_hour(self) -> float:
        # No hours means no hands either: an hour of the day still to come.
        return self.hands / self.hours if self.hours else 0.0


@dataclass(frozen=True)
class ActivityReport:
    by_day: list[Activity]
    by_week: list[Activity]  # ISO weeks; their hours are those of their days in the span
    # Hour of the day, 0 to 23, summed over the span; its hours are the times it came.
    by_hour: list[Activity]
    busiest: list[Activity]  # the three hours of the day with the most hands
    by_stakes: list[Activity]
    by_table: list[Activity]
    by_game: list[Activity]  # as each hand was dealt: a mixed table's games apart
    total: Activity
    chart: Chart | None
    days: int  # days in the span
    # The first and last day of the span: with no start, from the first hand's
    # day; with no end, to today. None when no hand ended in the range.
    span: tuple[datetime.date, datetime.date] | None = None
    # The room's tables, then the home games (both, even empty, once a hand ended).
    by_kind: list[Activity] = field(default_factory=list)


def activity_report(scope: Scope, *, now: datetime.datetime | None = None) -> ActivityReport:
    """Hands per hour and players active, per day, week, hour of day, stakes and table.

    With no start it covers every hand: the players come from the summary, and
    the hands from the index of when hands ended, so a long range costs an
    index entry per hand but no hand's results. ``now`` (default: the clock's)
    is where today's hours stop.
    """
    now = now or timezone.now()
    per_table_hour = list(hands_per_table_hour(_finished(Hand.objects.all(), scope)))
    span = chart_span(scope, [row["day"] for row in per_table_hour], now=now)
    if span is None:
        empty = Activity(None, "Total", 0, 0, 0.0)
        return ActivityReport([], [], [], [], [], [], [], empty, None, 0)
    players = _players_active(_player_days(scope))
    names = _table_and_stakes_names({row["table_id"] for row in per_table_hour})
    for row in per_table_hour:
        row["stakes_id"] = names.stakes_of[row["table_id"]]
        row["kind"] = HOME if row["table_id"] in names.host else ROOM
    by_hour = _activity_by_hour(per_table_hour, span, now)
    played = _hours_played(per_table_hour, _get("day"))
    return ActivityReport(
        by_day=_activity_by_day(per_table_hour, players.day, played),
        by_week=_activity_by_week(per_table_hour, players.week),
        by_hour=by_hour,
        busiest=sorted((a for a in by_hour if a.hands), key=lambda a: -a.hands)[:3],
        by_stakes=_activity_by(per_table_hour, players, names, Stakes),
        by_table=[
            replace(line, note=_home_note(names.host.get(line.key)))
            for line in _activity_by(per_table_hour, players, names, Table)
        ],
        by_game=_activity_by_game(per_table_hour, players),
        total=Activity(
            None,
            "Total",
            sum(row["hands"] for row in per_table_hour),
            players.total,
            _hours_played(per_table_hour, lambda row: None).get(None, 0),
        ),
        chart=_hour_chart(by_hour, span),
        days=(span[1] - span[0]).days + 1,
        span=span,
        by_kind=_activity_by_kind(per_table_hour, players),
    )


def _home_note(host: str | None) -> str:
    return f"home game, hosted by {host}" if host is not None else ""


def _activity_by_kind(
    per_table_hour: list[dict[str, Any]], players: PlayersActive
) -> list[Activity]:
    """The room's tables and the home games, each over its own hours of play.

    Their hands add up to the total; a player who played at both counts in
    each, and an hour with play at both is an hour of each.
    """
    kind = _get("kind")
    hands, played = _hands_by(per_table_hour, kind), _hours_played(per_table_hour, kind)
    return [
        Activity(
            key,
            name,
            hands.get(key, 0),
            players.kind.get(key, 0),
            played.get(key, 0),
        )
        for key, name in KINDS.items()
    ]


def hands_per_table_hour(hands: QuerySet[Hand]) -> QuerySet[Hand, dict[str, Any]]:
    """How many of ``hands`` of each game ended at each table in each hour of each day.

    One pass over the hands that ended serves the days, the weeks, the
    tables, the stakes, the games and the hours of the day: far fewer rows
    come back than there are hands, since a table plays dozens of hands an
    hour. Every column it reads is in the finished hands' index
    (``hand_ended_covering``), so the pass reads no hand's row.
    """
    return (
        hands.annotate(day=TruncDate("ended_at"), hour=ExtractHour("ended_at"))
        .values("day", "hour", "table_id", "variant")
        .annotate(hands=Count("id"))
        .order_by()
    )


def _hands_by(
    per_table_hour: list[dict[str, Any]], key: Callable[[dict[str, Any]], Hashable]
) -> dict[Any, int]:
    """The hands of the rows that share a key, added up."""
    hands: dict[Any, int] = {}
    for row in per_table_hour:
        hands[key(row)] = hands.get(key(row), 0) + row["hands"]
    return hands


def _hours_played(
    per_table_hour: list[dict[str, Any]], key: Callable[[dict[str, Any]], Hashable]
) -> dict[Any, int]:
    """How many clock hours had play (a hand ended) among the rows sharing a key.

    Two tables playing in the same hour make one hour of play, not two. On
    the night clocks go back, the hour that comes twice counts once.
    """
    hours: dict[Any, set[tuple[datetime.date, int]]] = {}
    for row in per_table_hour:
        hours.setdefault(key(row), set()).add((row["day"], row["hour"]))
    return {k: len(seen) for k, seen in hours.items()}


def _finished(hands: QuerySet[Hand], scope: Scope) -> QuerySet[Hand]:
    """The finished hands in ``scope``."""
    hands = _within(hands.filter(ended_at__isnull=False), "ended_at", scope.start, scope.end)
    if scope.stakes:
        hands = hands.filter(table__stakes=scope.stakes)
    if scope.table:
        hands = hands.filter(table=scope.table)
    return hands


def _player_days(scope: Scope) -> QuerySet[PlayerDay]:
    """The summary's rows for the days, stakes and table of ``scope``.

    Its days are the site's, as ``_within`` makes them for ``ended_at``.
    """
    rows = PlayerDay.objects.all()
    if scope.start:
        rows = rows.filter(day__gte=scope.start)
    if scope.end:
        rows = rows.filter(day__lte=scope.end)
    if scope.stakes:
        rows = rows.filter(stakes=scope.stakes)
    if scope.table:
        rows = rows.filter(table=scope.table)
    return rows


@dataclass(frozen=True)
class PlayersActive:
    """Distinct players dealt in: per day, per table id and per stakes id, and in all."""

    day: dict[datetime.date, int]
    week: dict[datetime.date, int]  # by the Monday of each ISO week
    table: dict[int, int]
    stakes: dict[int, int]
    game: dict[str, int]  # by variant
    kind: dict[str, int]  # by kind of table: ROOM or HOME
    total: int


def _players_active(rows: QuerySet[PlayerDay]) -> PlayersActive:
    """Count the players in ``rows`` per grouping, one query each.

    The database counts distinct players over the summary, which holds each
    (day, table, player) once however many hands they played, so this reads
    one row per player per table and day, not one per hand.
    """

    def distinct(home: bool | None = None) -> Count:
        kind = None if home is None else Q(table__host__isnull=not home)
        return Count("player_id", distinct=True, filter=kind)

    # In all and per kind of table in one query.
    counted = rows.aggregate(all=distinct(), **{HOME: distinct(True), ROOM: distinct(False)})

    def per(key: str, rows: QuerySet[PlayerDay] = rows) -> dict[Any, int]:
        counts = rows.values(key).annotate(n=Count("player_id", distinct=True)).order_by()
        return dict(counts.values_list(key, "n"))

    return PlayersActive(
        day=per("day"),
        week=per("week", rows.annotate(week=TruncWeek("day"))),
        table=per("table_id"),
        stakes=per("stakes_id"),
        game=per("variant"),
        kind={HOME: counted[HOME], ROOM: counted[ROOM]},
        total=counted["all"],
    )


def _activity_by_day(
    per_table_hour: list[dict[str, Any]],
    players: dict[datetime.date, int],
    played: dict[datetime.date, int],
) -> list[Activity]:
    hands = _hands_by(per_table_hour, _get("day"))
    return [
        Activity(day, day.isoformat(), hands[day], players.get(day, 0), played[day])
        for day in sorted(hands)
    ]


def _activity_by_week(
    per_table_hour: list[dict[str, Any]], players: dict[datetime.date, int]
) -> list[Activity]:
    def monday(row: dict[str, Any]) -> datetime.date:
        return week_of(row["day"])

    hands, played = _hands_by(per_table_hour, monday), _hours_played(per_table_hour, monday)
    return [
        Activity(
            week,
            week_label(week),
            hands[week],
            players.get(week, 0),
            played[week],
            note=week_dates(week),
        )
        for week in sorted(hands)
    ]


@dataclass(frozen=True)
class TableNames:
    table: dict[int, str]  # by table id
    stakes: dict[int, str]  # by stakes id
    stakes_of: dict[int, int]  # each table's stakes id
    host: dict[int, str]  # the host's username of each home game, by table id


def _table_and_stakes_names(tables: set[int]) -> TableNames:
    """The names of these tables, their stakes and the stakes' names, and the
    home games' hosts, in one query."""
    names = TableNames({}, {}, {}, {})
    rows = Table.objects.filter(pk__in=tables).values_list(
        "pk", "name", "stakes_id", "stakes__name", "host__username"
    )
    for table, name, stakes, stakes_name, host in rows:
        names.table[table], names.stakes[stakes] = name, stakes_name
        names.stakes_of[table] = stakes
        if host is not None:
            names.host[table] = host
    return names


def _activity_by(
    per_table_hour: list[dict[str, Any]],
    players: PlayersActive,
    names: TableNames,
    model: type[Stakes | Table],
) -> list[Activity]:
    """Per table or per stakes, each over its own hours of play."""
    if model is Table:
        key, active, names_of = "table_id", players.table, names.table
    else:
        key, active, names_of = "stakes_id", players.stakes, names.stakes
    hands, played = _hands_by(per_table_hour, _get(key)), _hours_played(per_table_hour, _get(key))
    lines = [Activity(k, names_of[k], hands[k], active.get(k, 0), played[k]) for k in hands]
    return sorted(lines, key=lambda line: line.label)


def _activity_by_game(
    per_table_hour: list[dict[str, Any]], players: PlayersActive
) -> list[Activity]:
    """Per game, as each hand was dealt, each over its own hours of play."""
    key = _get("variant")
    hands, played = _hands_by(per_table_hour, key), _hours_played(per_table_hour, key)
    lines = [
        Activity(
            game,
            _game_name({"variant": game}),
            hands[game],
            players.game.get(game, 0),
            played[game],
        )
        for game in hands
    ]
    return sorted(lines, key=lambda line: line.label)


def _activity_by_hour(
    per_table_hour: list[dict[str, Any]],
    span: tuple[datetime.date, datetime.date],
    now: datetime.datetime,
) -> list[Activity]:
    """Hands ended in each hour of the day, over the times that hour came in the span."""
    counts = [0] * 24
    for row in per_table_hour:
        counts[row["hour"]] += row["hands"]
    came = _hours_of_day_seen(*span, now)
    return [
        Activity(hour, f"{hour:02}:00", counts[hour], None, float(came[hour])) for hour in range(24)
    ]


def _hours_of_day_seen(
    first: datetime.date, last: datetime.date, now: datetime.datetime
) -> list[int]:
    """How many times each hour of the day began from ``first`` to ``last``, up to ``now``.

    Once a day, except today's hours still to come (and, on the days clocks
    change, the hour skipped or repeated, which is close enough for an average).
    """
    came, day = [0] * 24, first
    while day <= last:
        begins = midnight(day)
        for hour in range(24):
            came[hour] += begins + datetime.timedelta(hours=hour) < now
        day += ONE_DAY
    return came


def _hour_chart(by_hour: list[Activity], span: tuple[datetime.date, datetime.date]) -> Chart:
    first, last = span
    bars = [
        Bar(
            label=line.label,
            value=line.hands,
            tooltip=f"{line.label} to {(line.key + 1) % 24:02}:00: {line.hands} hands",
        )
        for line in by_hour
    ]
    axes = Axes(
        title=f"Hands ended by hour of the day, {first.isoformat()} to {last.isoformat()}",
        x_label="Hour of the day",
        y_label="Hands",
    )
    return Chart(grain="hour", bars=bars, axes=axes)


# ------------------------------------------------------------ hand search


@dataclass(frozen=True)
class HandQuery:
    player: User | None = None
    table: Table | None = None
    variant: str = ""  # the game each hand was dealt, whatever its table deals now
    start: datetime.date | None = None
    end: datetime.date | None = None


@dataclass(frozen=True)
class HandRow:
    """One finished hand as the search lists it."""

    id: int
    table: str
    number: int
    game: str  # as the hand was dealt
    ended_at: datetime.datetime
    players: list[str]
    pot: int
    rake: int
    net: int | None  # the searched player's, when the search names one


def hands_found(query: HandQuery) -> QuerySet[Hand]:
    """Finished hands matching ``query``, the latest first."""
    hands = Hand.objects.filter(ended_at__isnull=False)
    hands = _within(hands, "ended_at", query.start, query.end)
    if query.player:
        hands = hands.filter(pk__in=query.player.hand_results.values("hand_id"))
    if query.table:
        hands = hands.filter(table=query.table)
    if query.variant:
        hands = hands.filter(variant=query.variant)
    return hands.order_by("-ended_at", "-id")


def hands_listed(ids: list[int]) -> list[Hand]:
    """The hands with these ids, in this order, with what :func:`hand_row` reads.

    A page is chosen by id first (from an index, however deep the page) and
    read here, so the pots are extracted from the state of its hands only.
    """
    results = HandResult.objects.select_related("player").order_by("seat_number")
    hands = (
        Hand.objects.filter(pk__in=ids)
        .select_related("table", "rake_entry")
        # Only the pots, not the whole state with its every card and move.
        .annotate(pots=KeyTransform("pots", KeyTransform("result", "state")))
        .only("number", "ended_at", "game", "table__name", "rake_entry__amount")
        .prefetch_related(Prefetch("results", queryset=results))
        .in_bulk()
    )
    return [hands[pk] for pk in ids]


def hand_row(hand: Hand, player: User | None) -> HandRow:
    """One hand from :func:`hands_listed` as the search lists it."""
    results = list(hand.results.all())
    mine = next((r.net for r in results if player and r.player_id == player.pk), None)
    rake_entry = getattr(hand, "rake_entry", None)
    return HandRow(
        id=hand.pk,
        table=hand.table.name,
        number=hand.number,
        game=hand.game,
        ended_at=hand.ended_at,  # type: ignore[arg-type]
        players=[r.player.username for r in results],
        # The pots hold every chip put in, the rake included.
        pot=sum(pot["amount"] for pot in hand.pots or []),  # type: ignore[attr-defined]
        rake=rake_entry.amount if rake_entry else 0,
        net=mine,
    )
