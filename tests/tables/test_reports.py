"""The staff reports: rake that sums to the ledger, activity, hand search and the chart.

Most tests run in Europe/Paris time, so a day or a week in the report is not
the UTC one: rake taken at 23:30 UTC on a Sunday belongs to Monday there.
"""

from __future__ import annotations

import csv
import datetime
import doctest
import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tables import services
from tables.models import Hand, HandResult, RakeEntry, RakeRule, Stakes, Table
from tables.reports import chart as report_chart
from tables.reports import queries
from tables.reports import views as report_views
from tables.rules import HandState
from tests.tables.conftest import bet_and_call, play_out, player_days_redo

RAKE_REPORT = reverse("rake_report")
ACTIVITY = reverse("activity_report")
HAND_SEARCH = reverse("hand_search")
SVG = "{http://www.w3.org/2000/svg}"
UTC = datetime.UTC


@pytest.fixture(autouse=True)
def paris(settings: Any) -> None:
    """Days and weeks in Paris time (UTC+1 in winter, +2 from 30 March 2025)."""
    settings.TIME_ZONE = "Europe/Paris"


def utc(day: int, hour: int, minute: int = 0, month: int = 3) -> datetime.datetime:
    return datetime.datetime(2025, month, day, hour, minute, tzinfo=UTC)


def move(hand: Hand, ended: datetime.datetime, *, summary: bool = True) -> None:
    """Say ``hand`` ended, and was raked, at ``ended``: both are set on insert,
    and so is the activity summary's day of its players (written again unless
    ``summary`` is off)."""
    Hand.objects.filter(pk=hand.pk).update(ended_at=ended)
    RakeEntry.objects.filter(hand=hand).update(created_at=ended)
    if summary:
        player_days_redo()


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def embedded_svg(page: str, chart_id: str) -> ET.Element:
    """The chart ``chart_id`` in ``page``, parsed as XML (which fails unless well-formed)."""
    start = page.rindex("<svg", 0, page.index(f'id="{chart_id}"'))
    return ET.fromstring(page[start : page.index("</svg>", start) + len("</svg>")])


# ------------------------------------------------ hands played through the services


@pytest.fixture
def razz(db: None) -> Stakes:
    """Razz 2/4 with its own rake rule (10%, cap 5): the second stakes."""
    rule = RakeRule.objects.create(name="10% cap 5", percent=10, cap=5)
    return Stakes.objects.create(
        name="Razz 2/4", variant="razz", bring_in=1, small_bet=2, big_bet=4, min_buy_in=20,
        max_buy_in=400, rake=rule,
    )  # fmt: skip


def play_hands(table: Table, players: list[User], count: int) -> list[Hand]:
    """Seat ``players`` with the most chips allowed and play ``count`` hands to showdown."""
    for number, player in enumerate(players, start=1):
        services.seat_take(
            table_id=table.pk,
            player_id=player.pk,
            seat_number=number,
            buy_in=table.stakes.max_buy_in,
        )
    return [play_out(services.hand_start(table_id=table.pk), bet_and_call) for _ in range(count)]


@pytest.fixture
def played(table: Table, razz: Stakes, alice: User, bob: User, carol: User) -> list[Hand]:
    """Six hands through the services, moved to either side of Paris midnights.

    Table 1 (stud, alice, bob and carol) and Razz table (razz, alice and bob):
    Sunday 2 March 23:30 Paris; Monday 3 March 00:30 Paris (still Sunday in
    UTC) and 13:00; Sunday 9 March 23:59; Monday 10 March 00:00 (Sunday in
    UTC); and Saturday 1 March 12:00 at the razz table.
    """
    razz_table = Table.objects.create(name="Razz table", stakes=razz)
    stud = play_hands(table, [alice, bob, carol], 3)
    razz_hands = play_hands(razz_table, [alice, bob], 3)
    times = [utc(2, 22, 30), utc(2, 23, 30), utc(3, 12), utc(9, 22, 59), utc(9, 23), utc(1, 11)]
    for hand, ended in zip(stud + razz_hands, times, strict=True):
        move(hand, ended)
    return stud + razz_hands


def ledger_by(bucket: Any) -> dict[Any, tuple[int, int]]:
    """(hands, rake) per ``bucket(entry)``, added up here from the ledger's rows."""
    sums: dict[Any, tuple[int, int]] = {}
    for entry in RakeEntry.objects.select_related("stakes", "table"):
        hands, rake = sums.get(bucket(entry), (0, 0))
        sums[bucket(entry)] = (hands + 1, rake + entry.amount)
    return sums


def paris_day(entry: RakeEntry) -> datetime.date:
    return timezone.localtime(entry.created_at).date()


def as_dict(lines: Iterable[queries.Line]) -> dict[Any, tuple[int, int]]:
    """(raked hands, rake) per label; every hand here is raked, so hands are the same."""
    assert all(line.hands == line.raked_hands for line in lines)
    return {line.label: (line.raked_hands, line.rake) for line in lines}


def ledger_total() -> int:
    return RakeEntry.objects.aggregate(rake=Sum("amount"))["rake"]


def test_the_played_hands_were_raked(played: list[Hand]) -> None:
    """The ledger tests below would prove little with no rake at all."""
    amounts = RakeEntry.objects.values_list("amount", flat=True)
    assert len(amounts) == 6 and all(amount > 0 for amount in amounts)


def test_each_grouping_sums_to_the_rake_ledger(played: list[Hand]) -> None:
    report = queries.rake_report(queries.Scope())

    total = ledger_total()
    for lines in (
        report.by_day,
        report.by_week,
        report.by_stakes,
        report.by_table,
        report.by_game,
    ):
        assert sum(line.rake for line in lines) == total
        assert sum(line.raked_hands for line in lines) == 6
    assert (report.total.raked_hands, report.total.rake) == (6, total)


def test_days_and_weeks_are_the_site_time_zones(played: list[Hand]) -> None:
    report = queries.rake_report(queries.Scope())

    per_day = ledger_by(lambda e: paris_day(e).isoformat())
    assert as_dict(report.by_day) == per_day
    assert sorted(per_day) == ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-09", "2025-03-10"]
    weeks = ledger_by(lambda e: f"2025-W{paris_day(e).isocalendar().week:02}")
    assert as_dict(report.by_week) == weeks
    assert {week: hands for week, (hands, _) in weeks.items()} == {
        "2025-W09": 2,  # Saturday 1 and Sunday 2 March
        "2025-W10": 3,  # Monday 3 (one of them Sunday in UTC) and Sunday 9
        "2025-W11": 1,  # Monday 10 at midnight, Sunday 9 in UTC
    }


def test_weeks_are_noted_with_their_dates(played: list[Hand]) -> None:
    weeks = queries.rake_report(queries.Scope()).by_week

    assert [(w.key, w.note) for w in weeks][:2] == [
        (day("2025-02-24"), "24 Feb to 2 Mar 2025"),
        (day("2025-03-03"), "3 Mar to 9 Mar 2025"),
    ]


def test_stakes_and_tables_sum_to_their_ledger_rows(played: list[Hand]) -> None:
    report = queries.rake_report(queries.Scope())

    assert as_dict(report.by_stakes) == ledger_by(lambda e: e.stakes.name)
    assert as_dict(report.by_table) == ledger_by(lambda e: e.table.name)
    assert [line.label for line in report.by_table] == ["Razz table", "Table 1"]


def test_a_tables_rake_splits_by_the_game_each_hand_was_dealt(
    admin_client: Client, played: list[Hand], table: Table, razz: Stakes
) -> None:
    # Table 1 dealt stud; now its stakes deal razz, as a rotation would.
    Stakes.objects.filter(pk=table.stakes_id).update(
        variant="razz", ante=razz.ante, bring_in=razz.bring_in
    )
    razz_hand = play_out(services.hand_start(table_id=table.pk), bet_and_call)
    assert razz_hand.variant == "razz" and razz_hand.rake_entry.amount > 0

    report = queries.rake_report(queries.Scope(table=table))

    by_game = ledger_by(lambda e: e.hand.get_variant_display() if e.table == table else None)
    del by_game[None]
    assert as_dict(report.by_game) == by_game
    assert sorted(by_game) == ["Razz", "Seven-card stud"]
    assert by_game["Razz"][0] == 1 and by_game["Seven-card stud"][0] == 3
    page = admin_client.get(RAKE_REPORT, {"table": table.pk}).content.decode()
    games = page[page.index('id="rake-by-game"') :]
    assert "Razz" in games and "Seven-card stud" in games


def test_a_date_range_keeps_to_paris_days(played: list[Hand]) -> None:
    report = queries.rake_report(queries.Scope(start=day("2025-03-03"), end=day("2025-03-09")))

    expected = ledger_by(lambda e: day("2025-03-03") <= paris_day(e) <= day("2025-03-09"))[True]
    assert (report.total.raked_hands, report.total.rake) == expected
    assert [line.label for line in report.by_day] == ["2025-03-03", "2025-03-09"]


def test_the_stakes_and_table_filters_keep_to_their_rake(
    played: list[Hand], razz: Stakes, table: Table
) -> None:
    by_stakes = queries.rake_report(queries.Scope(stakes=razz))
    by_table = queries.rake_report(queries.Scope(table=table))

    ledger = ledger_by(lambda e: e.table.name)
    assert (by_stakes.total.raked_hands, by_stakes.total.rake) == ledger["Razz table"]
    assert (by_table.total.raked_hands, by_table.total.rake) == ledger["Table 1"]
    assert [line.label for line in by_stakes.by_stakes] == ["Razz 2/4"]


def test_the_chart_has_a_bar_per_day_summing_to_the_ledger(played: list[Hand]) -> None:
    chart = queries.rake_report(queries.Scope(start=day("2025-03-01"), end=day("2025-03-10"))).chart

    assert chart is not None and chart.grain == "day"
    assert len(chart.bars) == 10  # days with no rake are bars of 0
    assert sum(bar.value for bar in chart.bars) == ledger_total()
    assert [bar.value for bar in chart.bars[3:8]] == [0] * 5  # 4 to 8 March


def test_a_long_range_is_charted_per_week(played: list[Hand]) -> None:
    scope = queries.Scope(start=day("2025-01-01"), end=day("2025-06-30"))

    chart = queries.rake_report(scope).chart

    assert chart is not None and chart.grain == "week"
    # ISO week 1 of 2025 starts on Monday 30 December 2024; 30 June is a Monday.
    assert len(chart.bars) == 27
    assert chart.bars[0].label == "2025-W01" and chart.bars[-1].label == "2025-W27"
    assert sum(bar.value for bar in chart.bars) == ledger_total()


def test_a_range_over_two_years_is_charted_per_month(played: list[Hand]) -> None:
    chart = queries.rake_report(queries.Scope(start=day("2023-02-15"), end=day("2025-03-31"))).chart

    assert chart is not None and chart.grain == "month"
    assert len(chart.bars) == 26  # February 2023 to March 2025
    assert sum(bar.value for bar in chart.bars) == ledger_total()


def test_the_chart_stops_at_today(db: None) -> None:
    today = timezone.localdate()

    span = queries.chart_span(queries.Scope(end=today + datetime.timedelta(days=30)), [today])

    assert span == (today, today)


# ------------------------------------------------------------- the report page


def test_the_page_shows_the_totals_and_embeds_the_chart(
    admin_client: Client, played: list[Hand]
) -> None:
    response = admin_client.get(RAKE_REPORT, {"start": "2025-03-01", "end": "2025-03-10"})

    page = response.content.decode()
    total = ledger_total()
    assert f"Total rake: <strong>{total}</strong> chips from 6 raked hands" in page
    bars = embedded_svg(page, "rake-chart").findall(f".//{SVG}rect[@class='bar']")
    assert len(bars) == 10


def test_the_chart_is_well_formed_svg_with_a_title(played: list[Hand]) -> None:
    chart = queries.rake_report(queries.Scope(start=day("2025-03-01"), end=day("2025-03-10"))).chart
    assert chart is not None

    svg = ET.fromstring(report_chart.bar_chart(chart.bars, chart.axes, chart_id="c"))

    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "c-title c-desc"
    assert svg.find(f"{SVG}title").text == "Rake per day, 2025-03-01 to 2025-03-10"
    bars = svg.findall(f".//{SVG}rect[@class='bar']")
    assert [bar.find(f"{SVG}title").text for bar in bars][1] == (
        f"2025-03-02: {chart.bars[1].value} chips from 1 raked hand"
    )
    axis_labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "axis-label"]
    assert axis_labels == ["Rake (chips)", "Day"]


def test_bar_heights_follow_the_values() -> None:
    bars = [report_chart.Bar(str(v), v, f"{v} chips") for v in (0, 5, 10)]

    svg = ET.fromstring(
        report_chart.bar_chart(bars, report_chart.Axes("t", "x", "y"), chart_id="c")
    )

    heights = [float(r.get("height")) for r in svg.iter(f"{SVG}rect")]
    assert heights[0] == 0 and heights[2] == pytest.approx(2 * heights[1])


def test_chart_text_is_escaped() -> None:
    bars = [report_chart.Bar("<b>", 1, "a & b")]
    axes = report_chart.Axes("Rake at <Table & Co>", "x", "y")

    svg = ET.fromstring(report_chart.bar_chart(bars, axes, chart_id="c"))

    assert svg.find(f"{SVG}title").text == "Rake at <Table & Co>"


def test_the_chart_and_csv_helpers_pass_their_doctests() -> None:
    for module in (report_chart, queries):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# ------------------------------------------------------------------------- CSV


def read_csv(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_csv_is_an_attachment_with_every_grouping(
    admin_client: Client, played: list[Hand]
) -> None:
    response = admin_client.get(
        RAKE_REPORT, {"start": "2025-03-01", "end": "2025-03-10", "format": "csv"}
    )

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="rake-2025-03-01-to-2025-03-10.csv"'
    )
    rows = read_csv(response)
    assert rows[0] == ["grouping", "bucket", "hands", "raked_hands", "rake"]
    assert Counter(row[0] for row in rows[1:]) == {
        "day": 5, "week": 3, "stakes": 2, "table": 2, "game": 2, "kind": 2, "total": 1,
    }  # fmt: skip


def test_each_csv_grouping_sums_to_the_ledger(admin_client: Client, played: list[Hand]) -> None:
    rows = read_csv(admin_client.get(RAKE_REPORT, {"format": "csv"}))[1:]

    total = ledger_total()
    for grouping in ("day", "week", "stakes", "table", "game", "kind"):
        assert sum(int(row[4]) for row in rows if row[0] == grouping) == total, grouping
        assert sum(int(row[3]) for row in rows if row[0] == grouping) == 6, grouping
    assert rows[-1] == ["total", "", "6", "6", str(total)]
    days = {row[1]: (int(row[3]), int(row[4])) for row in rows if row[0] == "day"}
    assert days == ledger_by(lambda e: paris_day(e).isoformat())


def test_a_name_that_looks_like_a_formula_is_kept_as_text(
    admin_client: Client, table: Table, alice: User, bob: User
) -> None:
    Table.objects.filter(pk=table.pk).update(name="=HYPERLINK(1)")
    play_hands(table, [alice, bob], 1)

    rows = read_csv(admin_client.get(RAKE_REPORT, {"format": "csv"}))

    assert [r[:2] for r in rows if r[0] == "table"][0] == ["table", "'=HYPERLINK(1)"]


def test_bad_dates_give_the_page_with_a_message_not_a_csv(admin_client: Client, db: None) -> None:
    response = admin_client.get(RAKE_REPORT, {"start": "2025-13-01", "format": "csv"})

    assert response["Content-Type"].startswith("text/html")
    assert "Enter a real date as YYYY-MM-DD" in response.content.decode()


@pytest.mark.parametrize("url", [RAKE_REPORT, ACTIVITY, HAND_SEARCH])
@pytest.mark.parametrize(
    "params",
    [
        {"end": "9999-12-31"},  # the day after it is past the calendar's end
        {"start": "9999-12-31"},
        {"start": "0001-01-01"},  # its midnight in Paris is before year 1 in UTC
        {"end": "9999-12-31", "format": "csv"},
    ],
)
def test_a_day_out_of_range_gives_the_form_with_a_message(
    admin_client: Client, db: None, url: str, params: dict[str, str]
) -> None:
    response = admin_client.get(url, params)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "Enter a date from 2000-01-01 to 2099-12-31." in response.content.decode()


def test_a_table_and_other_stakes_together_are_refused(
    admin_client: Client, table: Table, razz: Stakes
) -> None:
    response = admin_client.get(RAKE_REPORT, {"stakes": razz.pk, "table": table.pk})

    assert response.context["report"] is None
    assert "Table 1 plays Stud 5/10, not Razz 2/4" in response.content.decode()


def test_a_stakes_that_does_not_exist_is_named_in_the_message(
    admin_client: Client, db: None
) -> None:
    response = admin_client.get(RAKE_REPORT, {"stakes": "999"})

    assert "That stakes no longer exists; choose another." in response.content.decode()


# -------------------------------------------------------------------- activity


def finished_hand(
    table: Table,
    players: list[User],
    ended: datetime.datetime,
    *,
    rake: int = 0,
    pots: tuple[int, ...] = (10,),
    summary: bool = True,
) -> Hand:
    """A finished hand stored as the services store one, with the rows the reports read
    (the activity summary's through :func:`move`, unless ``summary`` is off: then the
    caller writes it once for all its hands)."""
    number = (table.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    seats = [{"seat": seat, "player": p.pk} for seat, p in enumerate(players, start=1)]
    hand = Hand.objects.create(
        table=table,
        number=number,
        deck=[],
        deck_salt="salt",
        deck_commitment="c0ffee",
        seating={"dealer": 1, "players": seats},
        state={"result": {"rake": rake, "pots": [{"amount": amount} for amount in pots]}},
        **Hand.game_fields(table.stakes.game_config(), table.stakes.seats),
    )
    HandResult.objects.bulk_create(
        HandResult(hand=hand, player=p, seat_number=i, starting_stack=100, final_stack=100, net=0)
        for i, p in enumerate(players, start=1)
    )
    RakeEntry.objects.create(
        hand=hand, table=table, stakes=table.stakes, variant=hand.variant, amount=rake
    )
    move(hand, ended, summary=summary)
    return hand


@pytest.fixture
def known(table: Table, razz: Stakes, alice: User, bob: User, carol: User) -> dict[str, Any]:
    """Four hands on 1 and 2 March, Paris time, and one still being played (no
    results or rake yet, as the services leave a hand in play).

    Table 1: 10:15 alice and bob, 10:45 alice and carol, 22:10 bob and carol on
    1 March. Razz table: 10:30 alice and bob on 2 March.
    """
    razz_table = Table.objects.create(name="Razz table", stakes=razz)
    finished_hand(table, [alice, bob], utc(1, 9, 15))
    finished_hand(table, [alice, carol], utc(1, 9, 45))
    finished_hand(table, [bob, carol], utc(1, 21, 10))
    finished_hand(razz_table, [alice, bob], utc(2, 9, 30))
    running = finished_hand(table, [alice, carol], utc(1, 12))
    Hand.objects.filter(pk=running.pk).update(ended_at=None)
    running.results.all().delete()
    RakeEntry.objects.filter(hand=running).delete()
    player_days_redo()
    return {"table": table, "razz_table": razz_table}


def march(start: str, end: str) -> queries.Scope:
    return queries.Scope(start=day(f"2025-03-{start}"), end=day(f"2025-03-{end}"))


def test_activity_per_day_counts_hands_players_and_hours_of_play(known: dict[str, Any]) -> None:
    report = queries.activity_report(march("01", "02"))

    # 1 March had play from 10:00 to 11:00 and from 22:00 to 23:00, Paris time.
    assert [(a.label, a.hands, a.players, a.hours) for a in report.by_day] == [
        ("2025-03-01", 3, 3, 2),
        ("2025-03-02", 1, 2, 1),
    ]
    assert report.by_day[0].per_hour == 3 / 2
    assert (report.total.hands, report.total.players, report.total.hours) == (4, 3, 3)


def test_activity_per_week_counts_the_weeks_hours_of_play(known: dict[str, Any]) -> None:
    report = queries.activity_report(march("01", "02"))

    assert [(a.label, a.note, a.hands, a.players, a.hours) for a in report.by_week] == [
        ("2025-W09", "24 Feb to 2 Mar 2025", 4, 3, 3),  # only Saturday and Sunday asked
    ]


def test_activity_per_hour_of_the_day_and_the_busiest_hours(known: dict[str, Any]) -> None:
    report = queries.activity_report(march("01", "02"))

    hands = {a.label: a.hands for a in report.by_hour if a.hands}
    assert hands == {"10:00": 3, "22:00": 1}  # Paris hours, not UTC ones
    assert report.by_hour[10].per_hour == 1.5  # three hands over two days
    assert [a.label for a in report.busiest] == ["10:00", "22:00"]
    assert report.chart is not None and len(report.chart.bars) == 24


def test_activity_per_stakes_and_table(known: dict[str, Any]) -> None:
    report = queries.activity_report(march("01", "02"))

    assert [(a.label, a.hands, a.players, a.hours) for a in report.by_table] == [
        ("Razz table", 1, 2, 1),
        ("Table 1", 3, 3, 2),
    ]
    assert [(a.label, a.hands, a.players, a.hours) for a in report.by_stakes] == [
        ("Razz 2/4", 1, 2, 1),
        ("Stud 5/10", 3, 3, 2),
    ]


def test_activity_filtered_to_one_table(known: dict[str, Any]) -> None:
    scope = queries.Scope(start=day("2025-03-01"), end=day("2025-03-02"), table=known["table"])

    report = queries.activity_report(scope)

    assert (report.total.hands, report.total.players) == (3, 3)
    assert [a.label for a in report.by_table] == ["Table 1"]


def hands_between(
    table: Table, players: list[User], first: datetime.datetime, last: datetime.datetime, count: int
) -> None:
    """``count`` finished hands at ``table``, ending evenly from ``first`` to ``last``."""
    step = (last - first) / (count - 1)
    for i in range(count):
        finished_hand(table, players, first + i * step, summary=False)
    player_days_redo()


def test_hands_per_hour_divide_by_the_hours_that_had_play_not_the_day(
    table: Table, alice: User, bob: User
) -> None:
    """The issue's evening: 92 hands in 35 minutes, the report read at 17:10 (Paris)."""
    hands_between(table, [alice, bob], utc(5, 13, 5), utc(5, 13, 40), 92)

    report = queries.activity_report(march("05", "05"), now=utc(5, 16, 10))

    assert (report.total.hands, report.total.hours, report.total.per_hour) == (92, 1, 92.0)
    assert [(a.hands, a.per_hour) for a in report.by_day] == [(92, 92.0)]
    assert [(a.hands, a.per_hour) for a in report.by_table] == [(92, 92.0)]


def test_play_across_two_clock_hours_counts_both(table: Table, alice: User, bob: User) -> None:
    hands_between(table, [alice, bob], utc(5, 13, 40), utc(5, 14, 15), 10)

    report = queries.activity_report(march("05", "05"), now=utc(5, 16, 10))

    assert (report.total.hours, report.total.per_hour) == (2, 5.0)


def test_each_table_and_stakes_divide_by_their_own_hours_of_play(
    table: Table, razz: Stakes, alice: User, bob: User
) -> None:
    razz_table = Table.objects.create(name="Razz table", stakes=razz)
    hands_between(table, [alice, bob], utc(5, 9, 10), utc(5, 11, 50), 9)  # 10:10 to 12:50
    hands_between(razz_table, [alice, bob], utc(5, 9, 20), utc(5, 9, 40), 4)

    report = queries.activity_report(march("05", "06"), now=utc(7, 12))

    assert [(a.label, a.hands, a.hours) for a in report.by_table] == [
        ("Razz table", 4, 1),
        ("Table 1", 9, 3),
    ]
    assert [(a.label, a.per_hour) for a in report.by_stakes] == [
        ("Razz 2/4", 4.0),
        ("Stud 5/10", 3.0),
    ]
    # The two tables shared the hour from 10:00: the room played for three hours.
    assert (report.total.hands, report.total.hours) == (13, 3)
    assert [(a.label, a.hours) for a in report.by_day] == [("2025-03-05", 3)]


def test_every_hour_of_the_day_has_an_average_even_those_still_to_come(
    table: Table, alice: User, bob: User
) -> None:
    hands_between(table, [alice, bob], utc(5, 13, 5), utc(5, 13, 40), 4)

    report = queries.activity_report(march("05", "05"), now=utc(5, 16, 10))

    averages = [a.per_hour for a in report.by_hour]
    assert averages[14] == 4.0  # 14:00 Paris, on the one day it has come
    assert averages[18:] == [0.0] * 6  # today's evening: no hands, and none on average
    assert all(isinstance(average, float) for average in averages)


def test_activity_with_no_dates_covers_every_hand_up_to_today(known: dict[str, Any]) -> None:
    report = queries.activity_report(queries.Scope())

    assert (report.total.hands, report.total.players) == (4, 3)
    assert report.span == (day("2025-03-01"), timezone.localdate())
    assert report.days == (timezone.localdate() - day("2025-03-01")).days + 1


def test_the_activity_page_fills_the_average_of_every_hour_of_the_day(
    admin_client: Client, table: Table, alice: User, bob: User
) -> None:
    finished_hand(table, [alice, bob], timezone.now() - datetime.timedelta(minutes=5))

    today = timezone.localdate().isoformat()
    page = admin_client.get(ACTIVITY, {"start": today, "end": today}).content.decode()

    hour_table = page[page.index('id="activity-by-hour"') : page.index('id="activity-by-stakes"')]
    averages = re.findall(
        r'<tr><td>\d\d:00</td><td class="num">\d+</td><td class="num">([^<]*)</td>', hour_table
    )
    assert len(averages) == 24
    assert all(re.fullmatch(r"\d+\.\d", average) for average in averages), averages


def test_the_activity_page_with_no_dates_says_it_starts_at_the_first_hand(
    admin_client: Client, known: dict[str, Any]
) -> None:
    page = admin_client.get(ACTIVITY).content.decode()

    assert "From the first hand, on 2025-03-01, to today." in page
    assert "<strong>4</strong> hands ended in" in page
    dated = admin_client.get(ACTIVITY, {"start": "2025-03-01", "end": "2025-03-02"})
    assert "From 2025-03-01 to 2025-03-02." in dated.content.decode()


def test_the_activity_page_shows_the_figures(admin_client: Client, known: dict[str, Any]) -> None:
    response = admin_client.get(ACTIVITY, {"start": "2025-03-01", "end": "2025-03-02"})

    page = response.content.decode()
    assert "<strong>4</strong> hands ended in 2 days" in page
    assert "in 3 hours of play:\n        <strong>1.3</strong> an hour" in page
    assert "<strong>3</strong> players active" in page
    assert "Busiest hours (Europe/Paris): 10:00 (3 hands), 22:00 (1 hand)." in page
    bars = embedded_svg(page, "hours-chart").findall(f".//{SVG}rect[@class='bar']")
    assert len(bars) == 24


# ----------------------------------------------------------------- hand search


def found(client: Client, **params: object) -> list[int]:
    response = client.get(HAND_SEARCH, params)
    assert response.status_code == 200
    return [row.id for row in response.context["rows"] or []]


def test_hand_search_lists_finished_hands_latest_first(
    admin_client: Client, known: dict[str, Any]
) -> None:
    hands = list(Hand.objects.filter(ended_at__isnull=False).order_by("-ended_at"))

    assert found(admin_client) == [hand.pk for hand in hands]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"player": "carol"}, ["22:10", "10:45"]),
        ({"player": "CAROL"}, ["22:10", "10:45"]),
        ({"player": "alice", "start": "2025-03-02"}, ["10:30"]),
        ({"end": "2025-03-01"}, ["22:10", "10:45", "10:15"]),
        ({"player": "bob", "end": "2025-03-01", "start": "2025-03-01"}, ["22:10", "10:15"]),
    ],
)
def test_hand_search_filters(
    admin_client: Client, known: dict[str, Any], params: dict[str, str], expected: list[str]
) -> None:
    response = admin_client.get(HAND_SEARCH, params)

    times = [timezone.localtime(row.ended_at).strftime("%H:%M") for row in response.context["rows"]]
    assert times == expected


def test_hand_search_by_table(admin_client: Client, known: dict[str, Any]) -> None:
    razz_hand = Hand.objects.get(table=known["razz_table"])

    assert found(admin_client, table=known["razz_table"].pk) == [razz_hand.pk]


def test_a_row_has_the_players_pot_rake_net_and_a_link(
    admin_client: Client, table: Table, alice: User, bob: User, carol: User
) -> None:
    hand = finished_hand(table, [carol, alice], utc(1, 12), rake=3, pots=(30, 12))
    HandResult.objects.filter(hand=hand, player=alice).update(net=17)

    response = admin_client.get(HAND_SEARCH, {"player": "alice"})

    row = response.context["rows"][0]
    assert (row.players, row.pot, row.rake, row.net) == (["carol", "alice"], 42, 3, 17)
    assert f'href="{reverse("hand_detail", args=[hand.pk])}"' in response.content.decode()


def test_the_pot_is_read_from_a_real_hands_state(
    admin_client: Client, table: Table, alice: User, bob: User
) -> None:
    (hand,) = play_hands(table, [alice, bob], 1)

    (row,) = admin_client.get(HAND_SEARCH).context["rows"]

    pots = HandState.from_dict(hand.state).result["pots"]
    assert row.pot == sum(pot["amount"] for pot in pots) > row.rake > 0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"player": "nobody"}, "No player is called &#x27;nobody&#x27;."),
        ({"start": "2025-02-30"}, "Enter a real date as YYYY-MM-DD, such as 2025-03-01."),
        ({"start": "2025-03-02", "end": "2025-03-01"}, "The range ends (2025-03-01) before"),
        ({"table": "abc"}, "That table no longer exists; choose another."),
    ],
)
def test_bad_search_input_gives_a_message_and_no_hands(
    admin_client: Client, known: dict[str, Any], params: dict[str, str], message: str
) -> None:
    response = admin_client.get(HAND_SEARCH, params)

    assert response.context["rows"] is None
    page = response.content.decode()
    assert message in page and "No hands were searched" in page


def test_hand_search_pages(
    admin_client: Client, known: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    everything = found(admin_client)
    monkeypatch.setattr(report_views, "HANDS_PER_PAGE", 3)  # four finished hands: two pages

    response = admin_client.get(HAND_SEARCH, {"page": 2})

    assert [row.id for row in response.context["rows"]] == everything[3:]
    assert 'href="?page=1"' in response.content.decode()
    assert "Page 2 of 2" in response.content.decode()
    assert found(admin_client, page="99") == everything[3:]  # past the end: the last page


# ------------------------------------------------------------------------ access

PAGES = [RAKE_REPORT, f"{RAKE_REPORT}?format=csv", ACTIVITY, HAND_SEARCH]


@pytest.mark.parametrize("url", PAGES)
def test_anonymous_visitors_are_sent_to_the_admin_login(client: Client, db: None, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.parametrize("url", PAGES)
def test_a_player_is_sent_to_the_admin_login(client: Client, alice: User, url: str) -> None:
    client.force_login(alice)

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


@pytest.mark.parametrize(
    ("url", "codename"),
    [
        (RAKE_REPORT, "view_rakeentry"),
        (ACTIVITY, "view_hand"),
        (HAND_SEARCH, "view_hand"),
    ],
)
def test_staff_need_the_pages_permission(
    client: Client, db: None, quick_passwords: None, url: str, codename: str
) -> None:
    clerk = User.objects.create_user(username="clerk", password="pw", is_staff=True)
    client.force_login(clerk)
    assert client.get(url).status_code == 403

    clerk.user_permissions.add(Permission.objects.get(codename=codename))
    client.force_login(User.objects.get(pk=clerk.pk))  # a fresh permission cache

    assert client.get(url).status_code == 200


def test_the_admin_index_links_every_report(admin_client: Client, db: None) -> None:
    page = admin_client.get(reverse("admin:index")).content.decode()

    for url in (RAKE_REPORT, ACTIVITY, HAND_SEARCH):
        assert f'href="{url}"' in page


# ------------------------------------------------------------------ query counts


@pytest.fixture
def many_hands(known: dict[str, Any], alice: User, bob: User, carol: User) -> None:
    """Forty more hands over ten days at both tables, so that a query per hand,
    per day or per table would show."""
    players = [alice, bob, carol]
    for i in range(40):
        table = known["table"] if i % 2 else known["razz_table"]
        finished_hand(table, players[: 2 + i % 2], utc(1 + i % 10, i % 24), rake=i % 4)


QUERIED = [
    (RAKE_REPORT, {}),
    (RAKE_REPORT, {"format": "csv"}),
    (ACTIVITY, {"start": "2025-03-01", "end": "2025-03-10"}),
    (ACTIVITY, {}),
    (HAND_SEARCH, {}),
    (HAND_SEARCH, {"player": "alice", "start": "2025-03-01"}),
]


def queries_for(client: Client, url: str, params: dict[str, str], limit: int, assert_max) -> int:
    with assert_max(limit) as captured:
        assert client.get(url, params).status_code == 200
    return len(captured)


@pytest.mark.parametrize(("url", "params"), QUERIED)
def test_the_queries_do_not_grow_with_the_hands(
    admin_client: Client,
    known: dict[str, Any],
    django_assert_max_num_queries: Any,
    request: pytest.FixtureRequest,
    url: str,
    params: dict[str, str],
) -> None:
    few = queries_for(admin_client, url, params, 12, django_assert_max_num_queries)
    request.getfixturevalue("many_hands")

    many = queries_for(admin_client, url, params, 12, django_assert_max_num_queries)

    assert many == few


def test_the_activity_queries_do_not_grow_with_the_hands_at_one_table(
    admin_client: Client,
    known: dict[str, Any],
    django_assert_max_num_queries: Any,
    request: pytest.FixtureRequest,
) -> None:
    params = {"start": "2025-03-01", "table": str(known["table"].pk)}
    # One more than without a filter: the form reads the table.
    few = queries_for(admin_client, ACTIVITY, params, 13, django_assert_max_num_queries)
    request.getfixturevalue("many_hands")

    with django_assert_max_num_queries(13) as captured:
        response = admin_client.get(ACTIVITY, params)

    assert response.context["report"].total.hands == 3 + 20
    assert len(captured) == few


@pytest.mark.django_db(transaction=True)  # VACUUM runs outside a transaction
def test_the_activity_report_counts_hands_from_the_index_alone(
    known: dict[str, Any], postgresql: None
) -> None:
    """Every column the report's pass over the finished hands reads is in their
    index, so it reads no hand's row (a row holds the hand's whole state).

    Vacuumed, the hands' rows are all marked visible, so an index that covers
    the pass makes an index-only scan the cheapest way left once reading the
    whole table is turned off; one that doesn't leaves an index scan, which
    reads each hand's row."""
    hands = queries.hands_per_table_hour(Hand.objects.filter(ended_at__isnull=False))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE tables_hand")
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off")
        try:
            plan = hands.explain()
        finally:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan")

    assert "Index Only Scan using hand_ended_covering on tables_hand" in plan, plan
