"""The operator's side of home games: an idle game closes itself, staff see
every home game with its host and books and may close any, and the reports
put the room's tables and the home games apart.

Personas: alice hosts the home game and sits in seat 1; bob, a member by its
link, sits in seat 2. Carol plays only at the room's table. The admin is
staff with every permission (pytest-django's ``admin_client``).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tables import services, tasks
from tables.models import Hand, HomeRules, RakeEntry, Seat, Stakes, Table, TableMember
from tables.reports import queries
from tables.selectors.home_ledger import home_books
from tests.tables.conftest import Worker, bet_and_call, forbid_hand_read_back, play_out, session_of

pytestmark = pytest.mark.django_db

LIMIT = datetime.timedelta(minutes=120)  # HomeRules.idle_minutes' default
TICK = datetime.timedelta(microseconds=1)
LONG_AGO = timezone.now() - datetime.timedelta(days=3)


@pytest.fixture
def home(table: Table, alice: User, bob: User) -> Table:
    """Table 1 as alice's home game, bob let in by its link."""
    Table.objects.filter(pk=table.pk).update(host=alice)
    TableMember.objects.create(table=table, player=bob)
    table.refresh_from_db()
    return table


def sit(table: Table, player: User, number: int, buy_in: int = 200) -> None:
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in)


@pytest.fixture
def seated(home: Table, alice: User, bob: User) -> Table:
    """Alice in seat 1 and bob in seat 2 at her home game; no hand dealt yet."""
    sit(home, alice, 1)
    sit(home, bob, 2)
    return home


def one_hand_at(table: Table, started: datetime.datetime) -> Hand:
    """A hand played out at ``table``, recorded as dealt at ``started``."""
    hand = play_out(services.hand_start(table_id=table.pk), bet_and_call)
    Hand.objects.filter(pk=hand.pk).update(started_at=started, ended_at=started + TICK)
    return hand


def created_at(table: Table, moment: datetime.datetime) -> None:
    Table.objects.filter(pk=table.pk).update(created_at=moment)


def is_open(table: Table) -> bool:
    table.refresh_from_db()
    return table.is_open


def balance(player: User) -> int:
    return User.objects.values_list("balance", flat=True).get(pk=player.pk)


# ------------------------------------------------------------ the idle sweep


def test_a_game_idle_for_the_limit_since_its_last_hand_closes_and_cashes_out(
    seated: Table, alice: User, bob: User, grant: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt = timezone.now() - datetime.timedelta(hours=5)
    created_at(seated, dealt - datetime.timedelta(days=1))
    one_hand_at(seated, dealt)
    forbid_hand_read_back(monkeypatch)  # the sweep reads the last hand in one query
    stacks = dict(Seat.objects.filter(table=seated).values_list("player_id", "stack"))

    assert services.home_games_close_idle(now=dealt + LIMIT - TICK) == 0
    assert is_open(seated) and seated.closed_at is None

    swept = timezone.now()
    assert services.home_games_close_idle(now=dealt + LIMIT) == 1
    assert not is_open(seated)
    assert seated.closed_at is not None and seated.closed_at >= swept
    assert not Seat.objects.filter(table=seated).exists()
    assert balance(alice) == grant - 200 + stacks[alice.pk]
    assert balance(bob) == grant - 200 + stacks[bob.pk]
    call_command("audit_chips")  # raises CommandError when a chip is unaccounted for


def test_before_its_first_hand_a_game_is_idle_from_its_opening(seated: Table) -> None:
    opened = timezone.now() - datetime.timedelta(hours=3)
    created_at(seated, opened)
    assert services.home_games_close_idle(now=opened + LIMIT - TICK) == 0
    assert is_open(seated)
    assert services.home_games_close_idle(now=opened + LIMIT) == 1
    assert not is_open(seated)


def test_a_game_staff_reopen_is_idle_from_its_reopening(home: Table) -> None:
    created_at(home, LONG_AGO)
    services.table_close(table_id=home.pk)
    services.table_open(table_id=home.pk)
    home.refresh_from_db()
    reopened = home.reopened_at
    assert reopened is not None and home.is_open
    assert services.home_games_close_idle(now=reopened + LIMIT - TICK) == 0
    assert is_open(home)
    assert services.home_games_close_idle(now=reopened + LIMIT) == 1
    assert not is_open(home)


def test_a_paused_game_is_as_idle_as_any(seated: Table, alice: User) -> None:
    dealt = timezone.now() - datetime.timedelta(hours=5)
    created_at(seated, LONG_AGO)
    one_hand_at(seated, dealt)
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    assert services.home_games_close_idle(now=dealt + LIMIT) == 1
    assert not is_open(seated)


def test_a_hand_in_play_is_never_idle(seated: Table) -> None:
    created_at(seated, LONG_AGO)
    hand = services.hand_start(table_id=seated.pk)
    Hand.objects.filter(pk=hand.pk).update(started_at=LONG_AGO)
    assert services.home_games_close_idle(now=timezone.now() + 10 * LIMIT) == 0
    assert is_open(seated)
    # Once it ends, the game is idle since that hand's deal.
    play_out(hand, bet_and_call)
    assert services.home_games_close_idle(now=LONG_AGO + LIMIT) == 1


def test_a_limit_of_0_never_closes_a_game(seated: Table) -> None:
    HomeRules.objects.filter(pk=HomeRules.current().pk).update(idle_minutes=0)
    created_at(seated, LONG_AGO)
    assert services.home_games_close_idle(now=timezone.now() + 100 * LIMIT) == 0
    assert is_open(seated)


def test_the_limit_is_the_operators(seated: Table) -> None:
    HomeRules.objects.filter(pk=HomeRules.current().pk).update(idle_minutes=15)
    opened = timezone.now() - datetime.timedelta(hours=1)
    created_at(seated, opened)
    assert services.home_games_close_idle(now=opened + datetime.timedelta(minutes=15)) == 1


def test_the_rooms_tables_and_closed_games_are_left_alone(
    seated: Table, stakes: Stakes, carol: User
) -> None:
    room = Table.objects.create(name="Room table", stakes=stakes)
    created_at(room, LONG_AGO)
    services.table_close(table_id=seated.pk)
    closed_at = Table.objects.get(pk=seated.pk).closed_at
    created_at(seated, LONG_AGO)
    assert services.home_games_close_idle() == 0
    assert is_open(room)
    assert Table.objects.get(pk=seated.pk).closed_at == closed_at


def test_closing_and_reopening_keep_and_clear_when_a_table_closed(table: Table) -> None:
    before = timezone.now()
    services.table_close(table_id=table.pk)
    table.refresh_from_db()
    assert table.closed_at is not None and before <= table.closed_at <= timezone.now()
    first = table.closed_at
    services.table_close(table_id=table.pk)  # closed already: its time stays
    table.refresh_from_db()
    assert table.closed_at == first
    services.table_open(table_id=table.pk)
    table.refresh_from_db()
    assert table.is_open and table.closed_at is None


def test_the_admins_reopen_button_clears_the_closing_time(
    admin_client: Client, home: Table
) -> None:
    services.table_close(table_id=home.pk)
    admin_client.post(reverse("admin:tables_table_open_close", args=[home.pk]), {"to": "open"})
    home.refresh_from_db()
    assert home.is_open and home.closed_at is None


def test_beat_runs_the_sweep_every_minute(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["close-idle-home-games"]
    assert entry["task"] == tasks.close_idle_home_games.name
    assert entry["schedule"] == 60.0
    assert entry["options"]["queue"] == settings.CARDROOM_TURN_QUEUE


@pytest.mark.django_db(transaction=True)
def test_the_task_closes_the_game_and_its_players_are_told(seated: Table, alice: User) -> None:
    """The host's open page sees the game closed and her seat gone."""
    from tests.tables.test_consumers import room, run

    created_at(seated, LONG_AGO)
    cookie = session_of(alice)

    async def scenario() -> None:
        async with room() as join:
            host = await join(seated.pk, cookie)
            assert host.last_snapshot["table"]["is_open"]
            assert await database_sync_to_async(tasks.close_idle_home_games)() == 1
            snapshot = await host.receive_snapshot()
            assert not snapshot["table"]["is_open"] and snapshot["table"]["seats"] == []

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_closes_the_idle_games_and_no_other(
    start_worker: Callable[..., Worker], seated: Table, stakes: Stakes, carol: User
) -> None:
    busy = Table.objects.create(name="Busy home", stakes=stakes, host=carol)
    created_at(seated, LONG_AGO)
    worker = start_worker()
    tasks.close_idle_home_games.apply_async(queue=worker.queue)
    assert worker.wait_results("tables.tasks.close_idle_home_games", 1) == ["1"]
    assert not is_open(seated) and not Seat.objects.filter(table=seated).exists()
    assert is_open(busy)  # opened just now


# ------------------------------------------------------------------ the admin


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def books_rows(page: str) -> list[str]:
    """Each row of the books' table on a table's admin page, as its text."""
    found = re.search(r'<div class="home-books" id="home-books">(.*?)</table>', page, re.S)
    assert found, "no books on the page"
    return [text_of(row) for row in re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)]


def test_a_home_games_page_shows_its_books_and_settle_up(
    admin_client: Client, seated: Table, alice: User, bob: User
) -> None:
    one_hand_at(seated, timezone.now())
    services.seat_top_up(table_id=seated.pk, player_id=bob.pk, amount=50)
    books = home_books(seated.pk)
    assert books.payments  # someone won the hand

    page = admin_client.get(reverse("admin:tables_table_change", args=[seated.pk]))
    html = page.content.decode()

    def line(name: str, figures: Any) -> str:
        numbers = (
            figures.bought_in,
            figures.topped_up,
            figures.cashed_out,
            figures.on_table,
            figures.net,
        )
        return " ".join([name, *map(str, numbers)])

    assert books_rows(html) == [
        "Player Bought in Topped up Cashed out On the table Net",
        *(line(row.name, row) for row in books.rows),
        line("Total", books.totals),
    ]
    for payment in books.payments:
        assert f"{payment.payer} pays {payment.payee} {payment.amount} chips" in text_of(html)
    csv_url = reverse("home_ledger_csv", args=[seated.pk])
    assert f'href="{csv_url}"' in html
    assert admin_client.get(csv_url).status_code == 200
    assert "alice" in text_of(html)  # the host, on the page


def test_a_room_tables_page_has_no_books(admin_client: Client, table: Table) -> None:
    html = admin_client.get(reverse("admin:tables_table_change", args=[table.pk])).content
    assert b'id="home-books"' not in html and b"Download the books" not in html


def test_the_admin_closes_the_chosen_home_games_and_says_what_it_did(
    admin_client: Client, seated: Table, stakes: Stakes, alice: User, bob: User, carol: User
) -> None:
    playing = Table.objects.create(name="Playing home", stakes=stakes, host=carol)
    TableMember.objects.create(table=playing, player=bob)
    sit(playing, carol, 1)
    sit(playing, bob, 3)
    hand = services.hand_start(table_id=playing.pk)
    gone = Table.objects.create(name="Gone home", stakes=stakes, host=bob)
    services.table_close(table_id=gone.pk)
    gone_at = Table.objects.get(pk=gone.pk).closed_at
    room = Table.objects.create(name="Room table", stakes=stakes)
    chosen = [seated.pk, playing.pk, gone.pk, room.pk]

    response = admin_client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "close_home_games", "_selected_action": chosen},
    )

    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == [
        "Closed 1 home game: Table 1. Every player was stood up, their chips back in "
        "their balance.",
        "Closed 1 home game with a hand in play: Playing home. The hand plays to its end; "
        "then every player is stood up, their chips back in their balance.",
        "Closed already, left as they were: Gone home.",
        'Not home games, left open: Room table. Tables of the room close with "Close tables".',
    ]
    assert not is_open(seated) and not Seat.objects.filter(table=seated).exists()
    assert not is_open(playing) and Seat.objects.filter(table=playing).count() == 2
    play_out(hand, bet_and_call)
    assert not Seat.objects.filter(table=playing).exists()
    assert Table.objects.get(pk=gone.pk).closed_at == gone_at
    assert is_open(room)
    call_command("audit_chips")


def list_queries(client: Client, **params: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        page = client.get(reverse("admin:tables_table_changelist"), params)
    assert page.status_code == 200
    return len(captured.captured_queries), page.content.decode()


def test_the_list_shows_each_games_host_in_a_fixed_number_of_queries(
    admin_client: Client, home: Table, stakes: Stakes, bob: User, carol: User
) -> None:
    Table.objects.create(name="Lobby table", stakes=stakes)
    few, _ = list_queries(admin_client)
    for n in range(5):
        Table.objects.create(name=f"Home {n}", stakes=stakes, host=carol if n % 2 else bob)
    many, page = list_queries(admin_client)
    assert many == few
    assert re.search(r'Home 1</a></th>.*?<td class="field-host[^"]*">carol</td>', page, re.S)

    _, homes = list_queries(admin_client, home="yes")
    _, rooms = list_queries(admin_client, home="no")
    assert "Home 3" in homes and "Lobby table" not in homes
    assert "Lobby table" in rooms and "Home 3" not in rooms


def test_the_operator_sets_the_idle_limit(admin_client: Client) -> None:
    rules = HomeRules.current()
    form = {"variants": "[]", "structures": "[]", "max_big_bet": "100", "max_buy_in": "10000"}
    form |= {"max_open_games": "3", "rake": "", "idle_minutes": "45"}
    admin_client.post(reverse("admin:tables_homerules_change", args=[rules.pk]), form)
    assert HomeRules.current().idle_minutes == 45


# ---------------------------------------------------------------- the reports


@pytest.fixture
def both_kinds(seated: Table, stakes: Stakes, alice: User, bob: User, carol: User) -> Table:
    """Two hands at alice's home game (alice and bob) and three at a room table
    (alice, bob and carol), all raked by the stakes' rule; returns the room's."""
    room = Table.objects.create(name="Room table", stakes=stakes)
    for number, player in ((1, alice), (2, bob), (4, carol)):
        sit(room, player, number)
    for _ in range(2):
        play_out(services.hand_start(table_id=seated.pk), bet_and_call)
    for _ in range(3):
        play_out(services.hand_start(table_id=room.pk), bet_and_call)
    return room


def ledger(**where: Any) -> tuple[int, int, int]:
    entries = RakeEntry.objects.filter(**where)
    rakes = list(entries.values_list("amount", flat=True))
    return len(rakes), sum(1 for rake in rakes if rake), sum(rakes)


def sums(line: queries.Line) -> tuple[int, int, int]:
    return line.hands, line.raked_hands, line.rake


def test_the_rake_report_splits_room_tables_and_home_games(both_kinds: Table) -> None:
    report = queries.rake_report(queries.Scope())
    room, home = report.by_kind
    assert (room.label, home.label) == ("Room tables", "Home games")
    assert sums(room) == ledger(table__host__isnull=True) and room.hands == 3
    assert sums(home) == ledger(table__host__isnull=False) and home.hands == 2
    assert home.rake > 0
    assert sums(report.total) == ledger()
    assert tuple(map(sum, zip(sums(room), sums(home), strict=True))) == sums(report.total)
    notes = {line.label: line.note for line in report.by_table}
    assert notes == {"Room table": "", "Table 1": "home game, hosted by alice"}


def test_the_rake_page_and_csv_show_the_split(admin_client: Client, both_kinds: Table) -> None:
    page = admin_client.get(reverse("rake_report")).content.decode()
    split = re.search(r'<table id="rake-by-kind">(.*?)</table>', page, re.S)
    assert split
    rows = [text_of(row) for row in re.findall(r"<tr>(.*?)</tr>", split.group(1), re.S)]
    room, home, total = (
        ledger(table__host__isnull=True),
        ledger(table__host__isnull=False),
        ledger(),
    )
    assert rows[1:] == [
        "Room tables " + " ".join(map(str, room)),
        "Home games " + " ".join(map(str, home)),
        "Total " + " ".join(map(str, total)),
    ]
    assert "(home game, hosted by alice)" in page

    response = admin_client.get(reverse("rake_report"), {"format": "csv"})
    kinds = [r for r in csv.reader(io.StringIO(response.content.decode())) if r[0] == "kind"]
    assert kinds == [
        ["kind", "Room tables", *map(str, room)],
        ["kind", "Home games", *map(str, home)],
    ]


def test_an_empty_kind_still_has_its_line(table: Table, alice: User, bob: User) -> None:
    sit(table, alice, 1)
    sit(table, bob, 2)
    play_out(services.hand_start(table_id=table.pk), bet_and_call)
    room, home = queries.rake_report(queries.Scope()).by_kind
    assert room.hands == 1 and sums(home) == (0, 0, 0)
    room_activity, home_activity = queries.activity_report(queries.Scope()).by_kind
    assert (room_activity.hands, home_activity.hands, home_activity.players) == (1, 0, 0)


def test_the_activity_report_splits_room_tables_and_home_games(
    admin_client: Client, both_kinds: Table
) -> None:
    report = queries.activity_report(queries.Scope())
    room, home = report.by_kind
    assert (room.label, room.hands, room.players) == ("Room tables", 3, 3)
    assert (home.label, home.hands, home.players) == ("Home games", 2, 2)
    assert room.hands + home.hands == report.total.hands == Hand.objects.count()
    assert report.total.players == 3  # alice and bob played at both: once each in all
    assert room.hours >= 1 and home.hours >= 1

    page = admin_client.get(reverse("activity_report")).content.decode()
    split = re.search(r'<table id="activity-by-kind">(.*?)</table>', page, re.S)
    assert split
    assert "Room tables 3" in text_of(split.group(1))
    assert "Home games 2" in text_of(split.group(1))
    assert "(home game, hosted by alice)" in page
