"""The "My hands" list: what a row shows, the filters, pages and its SQL.

alice plays heads-up against bob at a stud table and a razz table; carol,
never dealt in, has no hands at all.
"""

from __future__ import annotations

import datetime
import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tables.history import views as history_views
from tables.models import Hand, HandResult, Stakes, Table
from tables.rules import HandState
from tables.rules.cards import card_str
from tests.tables.test_history_access import folds, page, play_hand, seat, showdown
from tests.tables.test_migrations import DEALING_ORDER, stored_before_one_list

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-hand="(\d+)">')
# The list's queries: the session, the user, the page of results, its count,
# and the filter form's table and stakes choices (twice each when a bound
# filter is checked).
LIST_QUERIES = 8


@pytest.fixture
def razz_table(db: None) -> Table:
    stakes = Stakes.objects.create(
        name="Razz 10/20",
        variant="razz",
        ante=1,
        bring_in=3,
        small_bet=10,
        big_bet=20,
        min_buy_in=100,
        max_buy_in=1000,
    )
    return Table.objects.create(name="Razz table", stakes=stakes)


def listed(html: str) -> list[int]:
    return [int(pk) for pk in ROW.findall(html)]


def my_hands(user: User, query: str = "") -> str:
    response = page(Client(), user, reverse("my_hands") + query)
    assert response.status_code == 200
    return response.content.decode()


def started(hand: Hand, when: datetime.datetime) -> None:
    Hand.objects.filter(pk=hand.pk).update(started_at=when)


# --------------------------------------------------------------------- rows


def test_each_row_shows_the_hand_and_my_cards_in_dealing_order(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, showdown)
    html = my_hands(alice)
    row = html[html.index(f'<tr data-hand="{hand.pk}">') :]
    row = row[: row.index("</tr>")]
    state = HandState.from_dict(hand.state)
    p = [entry["player"] for entry in hand.seating["players"]].index(alice.pk)
    dealt = [card for card, _ in state.cards[p]]
    assert re.findall(r'data-card="(\w\w)"', row) == [card_str(c) for c in dealt]
    assert row.count("card-hole") == 3  # her down cards, drawn as down cards
    net = HandResult.objects.get(hand=hand, player=alice).net
    assert (f">{net:+}<" if net else ">0<") in row
    assert reverse("hand_detail", args=[hand.pk]) in row
    for text in ("Table 1", "#1", "Seven-card stud", ">5/10<"):
        assert text in row


def test_the_list_is_mine_only_newest_first(table, alice, bob, carol):
    seat(table, (alice, 1), (bob, 2))
    hands = [play_hand(table, folds(bob)) for _ in range(3)]
    assert listed(my_hands(alice)) == [hand.pk for hand in reversed(hands)]
    assert listed(my_hands(carol)) == []
    assert "No finished hands yet" in my_hands(carol)


def test_hand_finish_keeps_each_players_own_cards(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, showdown)
    state = HandState.from_dict(hand.state)
    for p, entry in enumerate(hand.seating["players"]):
        result = HandResult.objects.get(hand=hand, player_id=entry["player"])
        assert result.cards == [{"card": card_str(c), "up": up} for c, up in state.cards[p]]


def test_the_data_migration_fills_the_cards_of_hands_finished_before_it(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    hands = [play_hand(table, showdown), play_hand(table, folds(alice))]
    expected = dict(HandResult.objects.values_list("pk", "cards"))
    # As 0004 found them: hands stored with the down cards and upcards apart.
    for hand in hands:
        Hand.objects.filter(pk=hand.pk).update(state=stored_before_one_list(hand.state))
    HandResult.objects.update(cards={})
    migration = importlib.import_module("tables.migrations.0004_hand_result_cards")
    migration.fill_cards(apps, None)
    # ...and 0013 then puts its copies in dealing order, as a hand's end writes them now.
    DEALING_ORDER.forwards(apps, None)
    assert dict(HandResult.objects.values_list("pk", "cards")) == expected
    assert len(expected) == 2 * len(hands) and all(expected.values())


# ------------------------------------------------------------------ filters


@pytest.fixture
def two_tables(table, razz_table, alice, bob) -> dict[str, list[Hand]]:
    """Three stud hands (bob folds twice, alice once) and two razz hands."""
    seat(table, (alice, 1), (bob, 2))
    seat(razz_table, (alice, 1), (bob, 2))
    return {
        "stud": [play_hand(table, folds(who)) for who in (bob, alice, bob)],
        "razz": [play_hand(razz_table, folds(who)) for who in (bob, alice)],
    }


def test_it_filters_by_table_stakes_and_game(two_tables, alice, table, razz_table):
    stud, razz = ([h.pk for h in reversed(two_tables[k])] for k in ("stud", "razz"))
    assert listed(my_hands(alice, f"?table={table.pk}")) == stud
    assert listed(my_hands(alice, f"?stakes={razz_table.stakes.pk}")) == razz
    assert listed(my_hands(alice, "?variant=razz")) == razz
    assert listed(my_hands(alice, f"?variant=stud&table={razz_table.pk}")) == []
    assert "No hands match these filters." in my_hands(alice, "?variant=stud8")


def test_it_filters_won_and_lost(two_tables, alice):
    nets = dict(HandResult.objects.filter(player=alice).values_list("hand_id", "net"))
    won = sorted((pk for pk, net in nets.items() if net > 0), reverse=True)
    lost = sorted((pk for pk, net in nets.items() if net < 0), reverse=True)
    assert won and lost
    assert listed(my_hands(alice, "?outcome=won")) == won
    assert listed(my_hands(alice, "?outcome=lost")) == lost


def test_it_filters_by_whole_days_both_included(two_tables, alice):
    hands = two_tables["stud"]
    day = datetime.datetime(2026, 3, 1, tzinfo=datetime.UTC)
    started(hands[0], day - datetime.timedelta(seconds=1))  # the last second of 28 Feb
    started(hands[1], day)  # the first moment of 1 March
    started(hands[2], day + datetime.timedelta(days=1, hours=23, minutes=59))  # late on 2 March
    assert listed(my_hands(alice, "?start=2026-03-01&end=2026-03-02")) == [
        hands[2].pk,
        hands[1].pk,
    ]
    assert listed(my_hands(alice, "?end=2026-02-28")) == [hands[0].pk]
    assert listed(my_hands(alice, "?start=2026-03-02&end=2026-03-02")) == [hands[2].pk]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?start=2026-02-30", "From: Enter a real date as YYYY-MM-DD, such as 2025-03-01."),
        ("?end=9999-12-31", "To: Enter a date from 2000-01-01 to 2099-12-31."),
        ("?start=0001-01-01", "From: Enter a date from 2000-01-01 to 2099-12-31."),
        ("?table=9999999999999999999999999", "Table: Select a valid choice."),
        ("?table=999999", "Table: Select a valid choice."),
        ("?stakes=abc", "Stakes: Select a valid choice."),
        ("?variant=poker", "Game: Select a valid choice. poker is not one of"),
        ("?outcome=maybe", "Result: Select a valid choice. maybe is not one of"),
        (
            "?start=2026-03-02&end=2026-03-01",
            "The range ends (2026-03-01) before it starts (2026-03-02).",
        ),
    ],
)
def test_a_bad_filter_says_what_is_wrong_and_filters_nothing(two_tables, alice, query, message):
    everything = listed(my_hands(alice))
    # A good filter alongside the bad one is not applied either.
    html = my_hands(alice, query + "&outcome=won" if "outcome" not in query else query)
    assert "No filter was applied: all your hands are listed." in html
    assert message in html.replace("&#x27;", "'")
    assert listed(html) == everything


# --------------------------------------------------------------------- pages


def test_it_pages_newest_first_and_keeps_the_filters(table, alice, bob, monkeypatch):
    monkeypatch.setattr(history_views, "HANDS_PER_PAGE", 2)
    seat(table, (alice, 1), (bob, 2))
    hands = [play_hand(table, folds(bob)).pk for _ in range(5)][::-1]
    first = my_hands(alice, "?outcome=won")
    assert listed(first) == hands[:2]
    assert "Page 1 of 3 · 5 hands" in first
    assert "?outcome=won&amp;page=2" in first and 'rel="prev"' not in first
    assert listed(my_hands(alice, "?outcome=won&page=2")) == hands[2:4]
    last = my_hands(alice, "?outcome=won&page=3")
    assert listed(last) == hands[4:]
    assert "?outcome=won&amp;page=2" in last and 'rel="next"' not in last
    # A page past the end, or not a number, shows the last or the first page.
    assert listed(my_hands(alice, "?outcome=won&page=99")) == hands[4:]
    assert listed(my_hands(alice, "?outcome=won&page=x")) == hands[:2]


# ----------------------------------------------------------------------- SQL


@pytest.mark.parametrize("query", ["", "?variant=stud&outcome=lost&start=2020-01-01"])
def test_the_list_makes_the_same_queries_for_one_hand_or_a_full_page(
    table, alice, bob, django_assert_max_num_queries, query
):
    seat(table, (alice, 1), (bob, 2))
    client = Client()
    client.force_login(alice)
    play_hand(table, folds(alice))
    with django_assert_max_num_queries(LIST_QUERIES):
        assert len(listed(client.get(reverse("my_hands") + query).content.decode())) == 1
    for _ in range(history_views.HANDS_PER_PAGE + 2):
        play_hand(table, folds(alice))
    with django_assert_max_num_queries(LIST_QUERIES):
        html = client.get(reverse("my_hands") + query).content.decode()
    assert len(listed(html)) == history_views.HANDS_PER_PAGE


def test_the_list_never_loads_a_hands_state_or_deck(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    play_hand(table, showdown)
    client = Client()
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("my_hands"))
    results = [q["sql"] for q in queries if 'FROM "tables_handresult"' in q["sql"]]
    page_query = next(sql for sql in results if "LIMIT" in sql)
    assert '"tables_hand"."state"' not in page_query
    assert '"tables_hand"."deck"' not in page_query
    assert '"tables_hand"."deck_salt"' not in page_query


def test_dates_are_days_in_the_sites_time_zone(two_tables, alice, settings):
    settings.TIME_ZONE = "America/New_York"
    hand = two_tables["stud"][0]
    # 03:30 UTC on 2 March is still 1 March in New York.
    started(hand, datetime.datetime(2026, 3, 2, 3, 30, tzinfo=datetime.UTC))
    timezone.deactivate()
    assert hand.pk in listed(my_hands(alice, "?start=2026-03-01&end=2026-03-01"))
    assert hand.pk not in listed(my_hands(alice, "?start=2026-03-02"))


def test_dates_are_days_in_the_players_time_zone_when_the_page_sends_it(two_tables, alice, dave):
    hand = two_tables["stud"][0]
    # 03:30 UTC on 2 March: 1 March in New York, 2 March on the site's clock.
    started(hand, datetime.datetime(2026, 3, 2, 3, 30, tzinfo=datetime.UTC))
    new_york = "&tz=America/New_York"
    assert hand.pk in listed(my_hands(alice, "?start=2026-03-01&end=2026-03-01" + new_york))
    assert hand.pk not in listed(my_hands(alice, "?start=2026-03-02" + new_york))
    assert hand.pk not in listed(my_hands(alice, "?start=2026-03-01&end=2026-03-01"))
    # The list's times are the player's, and the range download keeps the zone.
    html = my_hands(alice, "?start=2026-03-01" + new_york)
    assert "2026-03-01 22:30" in html and "tz=America%2FNew_York" in html
    # A zone alone narrows nothing: a player with no hands is told he has none.
    assert "No finished hands yet." in my_hands(dave, "?outcome=" + new_york)
    assert "No hands match these filters." in my_hands(dave, "?outcome=won" + new_york)


@pytest.mark.parametrize(
    "zone", ["Mars/Olympus_Mons", "../../etc/passwd", "America/", "zone.tab", "UTC" * 30]
)
def test_an_unknown_time_zone_is_refused_and_filters_nothing(two_tables, alice, zone):
    everything = listed(my_hands(alice))
    html = my_hands(alice, f"?outcome=won&tz={zone}")
    assert "No filter was applied: all your hands are listed." in html
    assert "Time zone: " in html
    assert listed(html) == everything


def test_the_filter_form_sends_the_browsers_zone_without_showing_it(alice):
    html = my_hands(alice)
    assert 'type="hidden" name="tz"' in html and "data-time-zone-field" in html
    assert "<label>Time zone" not in html


# --------------------------------------------------------------------- links


def test_the_header_and_the_lobby_link_players_to_their_hands(alice):
    url = reverse("my_hands")
    for path in (reverse("home"), reverse("lobby")):
        assert f'href="{url}"' in page(Client(), alice, path).content.decode()
        assert f'href="{url}"' not in page(Client(), None, path).content.decode()


def test_the_table_page_knows_where_hands_are_reviewed(table, alice):
    html = page(Client(), alice, reverse("table", args=[table.pk])).content.decode()
    assert 'data-hand-url="/hands/0/"' in html
    assert 'data-all-hands="0"' in html


def test_the_download_links_export_the_hands_of_the_chosen_table(two_tables, alice, table):
    html = my_hands(alice, f"?table={table.pk}&outcome=won")
    links = re.findall(r'href="(/hands/export\.(?:phhs|txt)[^"]*)"', html)
    assert [link.split("?")[1] for link in links] == [f"table={table.pk}"] * 2
    client = Client()
    client.force_login(alice)
    phhs = client.get(links[0].replace("&amp;", "&"))
    assert phhs.status_code == 200 and phhs["Content-Disposition"].startswith("attachment")
    # One PHH section per hand alice played at that table, whatever the outcome filter.
    assert len(re.findall(r"^\[\d+\]$", phhs.content.decode(), re.M)) == len(two_tables["stud"])


def test_there_is_nothing_to_download_without_hands(carol):
    assert "/hands/export." not in my_hands(carol)


# --------------------------------------------------------------------- times

TIME = re.compile(r'<time datetime="([^"]+)" data-local="([\w-]+)">([^<]+)</time>')


def test_the_list_gives_each_start_as_an_instant_for_the_browser_to_localize(
    table, alice, bob, settings
):
    """The text is the site's zone (read without JavaScript); ``datetime`` is
    the exact instant, which local-times.js writes in the browser's zone."""
    settings.TIME_ZONE = "America/New_York"
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, folds(bob))
    started(hand, datetime.datetime(2026, 3, 2, 3, 30, 15, tzinfo=datetime.UTC))
    timezone.deactivate()
    html = my_hands(alice)
    [(instant, style, text)] = TIME.findall(html)
    assert datetime.datetime.fromisoformat(instant) == datetime.datetime(
        2026, 3, 2, 3, 30, 15, tzinfo=datetime.UTC
    )
    assert (style, text) == ("date-minute", "2026-03-01 22:30")
    assert "Started (<span data-time-zone>America/New_York</span>)" in html


def test_the_hand_page_gives_its_start_and_end_as_instants(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    hand = play_hand(table, folds(bob))
    html = page(Client(), alice, reverse("hand_detail", args=[hand.pk])).content.decode()
    times = TIME.findall(html)
    assert [datetime.datetime.fromisoformat(instant) for instant, _, _ in times] == [
        hand.started_at,
        hand.ended_at,
    ]
    assert [style for _, style, _ in times] == ["date-second", "second"]
    assert "(<span data-time-zone>UTC</span>)" in html


def test_every_page_loads_the_script_that_localizes_times(alice):
    script = '<script type="module" src="/static/js/local-times.js"></script>'
    assert script in page(Client(), alice, reverse("my_hands")).content.decode()
    assert script in page(Client(), None, reverse("lobby")).content.decode()
