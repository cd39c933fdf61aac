"""The activity report's summary of players per day and table (PlayerDay).

The hands here are played through the services at chosen times, so the rows
are the ones the services write when a hand ends; each test checks them
against the players' results (``HandResult``) read back here. Days are in
Paris time, where a hand ending at 23:30 UTC belongs to the next day.
"""

from __future__ import annotations

import datetime
import importlib
from typing import Any

import pytest
from django.apps import apps

from accounts.models import User
from tables import services
from tables.models import Hand, PlayerDay, Stakes, Table, TableGame
from tables.reports import queries
from tests.tables.conftest import bet_and_call, play_out, player_days, player_days_from_results

UTC = datetime.UTC
# 0006_player_day starts with a digit, so it can't be imported by an import statement.
player_day_migration = importlib.import_module("tables.migrations.0006_player_day")


@pytest.fixture(autouse=True)
def paris(settings: Any) -> None:
    """Days in Paris time, UTC+1 in March until the 30th."""
    settings.TIME_ZONE = "Europe/Paris"


def utc(day: int, hour: int, minute: int = 0) -> datetime.datetime:
    return datetime.datetime(2025, 3, day, hour, minute, tzinfo=UTC)


def seat(table: Table, players: list[User]) -> None:
    for number, player in enumerate(players, start=1):
        services.seat_take(
            table_id=table.pk,
            player_id=player.pk,
            seat_number=number,
            buy_in=table.stakes.max_buy_in,
        )


def play_at(table: Table, when: datetime.datetime) -> Hand:
    """One hand through the services, dealt and played out at ``when``, so it ends then."""
    hand = services.hand_start(table_id=table.pk, now=when)
    return play_out(hand, bet_and_call, now=when)


@pytest.fixture
def second_table(stakes: Stakes) -> Table:
    """Another table of the same stakes."""
    return Table.objects.create(name="Table 2", stakes=stakes)


def test_each_player_has_one_row_a_day_however_many_hands(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    seat(table, [alice, bob, carol])
    for minute in (0, 10, 20):
        play_at(table, utc(3, 12, minute))

    rows = player_days()

    assert rows == player_days_from_results()
    assert rows == {
        (datetime.date(2025, 3, 3), table.pk, table.stakes_id, p.pk) for p in (alice, bob, carol)
    }


def test_days_are_the_site_time_zones_when_the_hand_ended(
    table: Table, alice: User, bob: User
) -> None:
    seat(table, [alice, bob])
    before = play_at(table, utc(1, 22, 30))  # 23:30 on 1 March in Paris
    after = play_at(table, utc(1, 23, 30))  # 00:30 on 2 March in Paris, 1 March in UTC

    assert (before.ended_at, after.ended_at) == (utc(1, 22, 30), utc(1, 23, 30))
    days = {day for day, _, _, _ in player_days()}
    assert days == {datetime.date(2025, 3, 1), datetime.date(2025, 3, 2)}
    assert player_days() == player_days_from_results()


def test_a_player_at_two_tables_has_a_row_at_each(
    table: Table, second_table: Table, alice: User, bob: User, carol: User
) -> None:
    seat(table, [alice, bob])
    seat(second_table, [alice, carol])
    play_at(table, utc(3, 12))
    play_at(second_table, utc(3, 13))

    alices = {(day, t) for day, t, _, player in player_days() if player == alice.pk}

    assert alices == {
        (datetime.date(2025, 3, 3), table.pk),
        (datetime.date(2025, 3, 3), second_table.pk),
    }
    assert player_days() == player_days_from_results()


def test_a_hand_still_being_played_has_no_rows(table: Table, alice: User, bob: User) -> None:
    seat(table, [alice, bob])
    services.hand_start(table_id=table.pk, now=utc(3, 12))

    assert player_days() == set()


def test_the_migration_fills_the_summary_from_hands_already_played(
    table: Table, second_table: Table, alice: User, bob: User, carol: User
) -> None:
    seat(table, [alice, bob, carol])
    seat(second_table, [bob, carol])
    for when in (utc(1, 22, 30), utc(1, 23, 30), utc(2, 9)):
        play_at(table, when)
        play_at(second_table, when)
    services.hand_start(table_id=table.pk, now=utc(2, 10))  # not over: not counted
    written = player_days()
    PlayerDay.objects.all().delete()

    player_day_migration.fill_player_days(apps, None)

    assert player_days() == written == player_days_from_results()
    assert len(written) == 3 * 2 + 2 * 2  # three players on 1 and 2 March, and two


def test_the_migration_fill_batches_its_inserts(
    table: Table, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat(table, [alice, bob, carol])
    play_at(table, utc(3, 12))
    PlayerDay.objects.all().delete()
    monkeypatch.setattr(player_day_migration, "BATCH", 2)  # three rows: two batches

    player_day_migration.fill_player_days(apps, None)

    assert player_days() == player_days_from_results() and len(player_days()) == 3


# ------------------------------------------------ the report counts from the summary


def players_per(lines: list[queries.Activity]) -> dict[str, int | None]:
    return {line.label: line.players for line in lines}


def test_the_report_counts_the_players_the_results_show(
    table: Table, second_table: Table, alice: User, bob: User, carol: User
) -> None:
    """Alice plays at both tables on 2 March (Paris), so she counts once that day
    and in the stakes, and once at each table."""
    seat(table, [alice, bob])
    seat(second_table, [alice, carol])
    play_at(table, utc(1, 22, 30))  # 1 March: alice, bob
    play_at(table, utc(1, 23, 30))  # 2 March: alice, bob
    play_at(second_table, utc(2, 12))  # 2 March: alice, carol

    report = queries.activity_report(queries.Scope(start=datetime.date(2025, 3, 1)))

    assert players_per(report.by_day) == {"2025-03-01": 2, "2025-03-02": 3}
    assert players_per(report.by_table) == {"Table 1": 2, "Table 2": 2}
    assert players_per(report.by_stakes) == {"Stud 5/10": 3}
    assert report.total.players == 3


def test_a_mixed_tables_activity_is_split_by_the_game_each_hand_was_dealt(
    table: Table, second_table: Table, alice: User, bob: User, carol: User
) -> None:
    """Table 1 rotates razz and stud hi-lo hand by hand; table 2 deals stud."""
    Table.objects.filter(pk=table.pk).update(policy="rotation", rotate_hands=1)
    for position, variant in enumerate(["razz", "stud8"]):
        TableGame.objects.create(table=table, position=position, variant=variant)
    seat(table, [alice, bob])
    seat(second_table, [alice, carol])
    for hour in (10, 11, 12):  # razz, stud hi-lo, razz
        play_at(table, utc(2, hour))
    play_at(second_table, utc(2, 12))

    report = queries.activity_report(queries.Scope(start=datetime.date(2025, 3, 1)))

    by_game = {line.label: (line.hands, line.players, line.hours) for line in report.by_game}
    assert by_game == {
        "Razz": (2, 2, 2),
        "Seven-card stud": (1, 2, 1),
        "Seven-card stud hi-lo, eight or better": (1, 2, 1),
    }
    assert players_per(report.by_table) == {"Table 1": 2, "Table 2": 2}
    assert report.total.hands == sum(line.hands for line in report.by_game) == 4
    assert set(PlayerDay.objects.filter(table=table).values_list("player_id", "variant")) == {
        (player.pk, game) for player in (alice, bob) for game in ("razz", "stud8")
    }


def test_a_range_of_days_counts_the_summary_of_those_days_only(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    seat(table, [alice, bob, carol])
    play_at(table, utc(1, 22, 30))  # 1 March in Paris, all three
    services.seat_sit_out(table_id=table.pk, player_id=carol.pk)
    play_at(table, utc(1, 23, 30))  # 2 March in Paris, alice and bob

    report = queries.activity_report(
        queries.Scope(start=datetime.date(2025, 3, 2), end=datetime.date(2025, 3, 2))
    )

    assert [(line.label, line.hands, line.players) for line in report.by_day] == [
        ("2025-03-02", 1, 2)
    ]
    assert report.total.players == 2


def test_a_week_counts_each_player_once_and_weeks_are_paris_ones(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    seat(table, [alice, bob, carol])
    services.seat_sit_out(table_id=table.pk, player_id=carol.pk)
    play_at(table, utc(1, 12))  # Saturday 1 March: alice, bob
    play_at(table, utc(2, 12))  # Sunday 2 March: alice, bob
    services.seat_sit_in(table_id=table.pk, player_id=carol.pk)
    play_at(table, utc(2, 23, 30))  # Monday 3 March in Paris (Sunday in UTC): all three

    report = queries.activity_report(queries.Scope(start=datetime.date(2025, 3, 1)))

    weeks = [(line.label, line.hands, line.players) for line in report.by_week]
    assert weeks == [("2025-W09", 2, 2), ("2025-W10", 1, 3)]
