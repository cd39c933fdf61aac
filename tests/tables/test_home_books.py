"""A home game's books on its table page and as a CSV file.

Personas: alice hosts the home game and sits in seat 1; bob, a member, sits
in seat 2: both follow the books live. Carol is a member who stands (or has
left): she gets no books in her snapshot, but may download them. Dave is a
stranger, an anonymous visitor has no account, and the clerk is staff: the
clerk may download any home game's books. A table of the room keeps no books
and reads nothing for them.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from tables import services
from tables.models import Hand, RakeRule, Seat, Stakes, Table, TableMember
from tables.selectors.home_ledger import home_ledger, table_rake
from tables.selectors.snapshots import build_snapshot, read_table, rows_after_move
from tables.services import hands as hand_services
from tests.tables.conftest import bet_and_call, play_out, player_to_act
from tests.tables.test_consumers import room, run
from tests.tables.test_seat_chips import BOB_WINS

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(table: Table, alice: User, bob: User, carol: User) -> Table:
    """Alice's home game, with no rake (a home game's default); bob and carol
    opened its link."""
    Stakes.objects.filter(pk=table.stakes_id).update(rake=None)
    Table.objects.filter(pk=table.pk).update(host=alice)
    for player in (bob, carol):
        TableMember.objects.create(table=table, player=player)
    table.refresh_from_db()
    return table


@pytest.fixture
def clerk(db: None) -> User:
    """Staff: may see every home game and its books."""
    return User.objects.create_user(username="clerk", password="clerk-pw-1234", is_staff=True)


@pytest.fixture
def bob_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up, bob's cards beat alice's (``test_seat_chips.BOB_WINS``)."""
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(BOB_WINS))


def sit(table: Table, player: User, number: int, buy_in: int) -> None:
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in)


def snapshot_of(table: Table, viewer: User | None) -> dict[str, Any]:
    rows = read_table(table.pk)
    assert rows is not None
    viewer_id = viewer.pk if viewer is not None else None
    return build_snapshot(rows, viewer_id, None, with_events=False, balance=0).payload


def figures(row: dict[str, Any]) -> tuple[int, ...]:
    return tuple(row[key] for key in ("bought_in", "topped_up", "cashed_out", "on_table", "net"))


def stack(table: Table, player: User) -> int:
    return Seat.objects.get(table=table, player=player).stack


def played_hand(table: Table, alice: User, bob: User) -> int:
    """Alice and bob buy in 200 each and play a hand bob wins: what he won of
    alice's (the house's rake, if any, out of it)."""
    sit(table, alice, 1, 200)
    sit(table, bob, 2, 200)
    play_out(services.hand_start(table_id=table.pk), bet_and_call)
    won = 200 - stack(table, alice)
    assert won > 0 and stack(table, bob) == 200 + won - table_rake(table.pk)
    return won


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def ledger_csv(table_id: int, user: User | None) -> Any:
    return client_of(user).get(reverse("home_ledger_csv", args=[table_id]))


def csv_rows(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


# ------------------------------------------------------------ who sees them


def test_the_players_seated_get_the_books_in_their_snapshots(
    home: Table, alice: User, bob: User
) -> None:
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 150)
    for player in (alice, bob):
        ledger = snapshot_of(home, player)["ledger"]
        assert [(row["player"], figures(row)) for row in ledger["players"]] == [
            ("alice", (200, 0, 0, 200, 0)),
            ("bob", (150, 0, 0, 150, 0)),
        ]
        assert figures(ledger["totals"]) == (350, 0, 0, 350, 0)
        assert ledger["transfers"] == [] and ledger["rake"] == 0


def test_a_member_standing_an_observer_and_staff_get_no_books(
    home: Table, alice: User, bob: User, carol: User, clerk: User
) -> None:
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 200)
    assert "ledger" in snapshot_of(home, alice)
    for viewer in (carol, clerk, None):
        assert "ledger" not in snapshot_of(home, viewer)


def test_a_player_who_stands_up_stops_getting_the_books(
    home: Table, alice: User, carol: User
) -> None:
    sit(home, alice, 1, 200)
    sit(home, carol, 3, 100)
    assert "ledger" in snapshot_of(home, carol)
    services.seat_leave(table_id=home.pk, player_id=carol.pk)
    assert "ledger" not in snapshot_of(home, carol)
    [left] = [row for row in snapshot_of(home, alice)["ledger"]["players"] if not row["seated"]]
    assert (left["player"], figures(left)) == ("carol", (100, 0, 100, 0, 0))


def test_once_closed_everyone_let_in_gets_the_final_books(
    home: Table, alice: User, bob: User, carol: User, clerk: User, bob_wins: None
) -> None:
    won = played_hand(home, alice, bob)
    services.home_close(table_id=home.pk, player_id=alice.pk)
    finals = [snapshot_of(home, viewer).get("ledger") for viewer in (alice, bob, carol, clerk)]
    assert all(final == finals[0] for final in finals)  # the same settle-up for everyone
    final = finals[0]
    assert final is not None and all(not row["seated"] for row in final["players"])
    assert figures(final["totals"]) == (400, 0, 400, 0, 0)
    assert final["transfers"] == [{"payer": "alice", "payee": "bob", "house": False, "amount": won}]
    assert "ledger" not in snapshot_of(home, None)  # a visitor, who can't open its page anyway


def test_a_table_of_the_room_keeps_no_books(seated: Table, alice: User, bob: User) -> None:
    rows = read_table(seated.pk)
    assert rows is not None and rows.books is None
    for viewer in (alice, bob, None):
        assert "ledger" not in snapshot_of(seated, viewer)


# ------------------------------------------------------------ the figures


def test_the_books_after_a_hand_say_who_pays_whom(
    home: Table, alice: User, bob: User, bob_wins: None
) -> None:
    won = played_hand(home, alice, bob)
    ledger = snapshot_of(home, bob)["ledger"]
    assert [(row["player"], figures(row)) for row in ledger["players"]] == [
        ("alice", (200, 0, 0, 200 - won, -won)),
        ("bob", (200, 0, 0, 200 + won, won)),
    ]
    assert figures(ledger["totals"]) == (400, 0, 0, 400, 0)
    assert ledger["transfers"] == [
        {"payer": "alice", "payee": "bob", "house": False, "amount": won}
    ]


def test_top_ups_and_a_cash_out_show_in_the_books(
    home: Table, alice: User, bob: User, carol: User, bob_wins: None
) -> None:
    won = played_hand(home, alice, bob)
    services.seat_top_up(table_id=home.pk, player_id=alice.pk, amount=won)
    sit(home, carol, 3, 100)
    services.seat_leave(table_id=home.pk, player_id=carol.pk)
    ledger = snapshot_of(home, alice)["ledger"]
    assert {row["player"]: figures(row) for row in ledger["players"]} == {
        "alice": (200, won, 0, 200, -won),
        "bob": (200, 0, 0, 200 + won, won),
        "carol": (100, 0, 100, 0, 0),
    }
    assert figures(ledger["totals"]) == (500, won, 100, 400 + won, 0)
    assert [(t["payer"], t["payee"], t["amount"]) for t in ledger["transfers"]] == [
        ("alice", "bob", won)
    ]


def test_the_house_is_owed_the_rake_of_a_home_game_with_one(
    home: Table, alice: User, bob: User, bob_wins: None
) -> None:
    rule = RakeRule.objects.create(name="10% cap 5", percent=10, cap=5)
    Stakes.objects.filter(pk=home.stakes_id).update(rake=rule)
    played_hand(home, alice, bob)
    rake = table_rake(home.pk)
    assert rake > 0
    ledger = snapshot_of(home, alice)["ledger"]
    assert ledger["rake"] == rake and ledger["totals"]["net"] == -rake
    house = [t for t in ledger["transfers"] if t["house"]]
    assert [(t["payee"], t["amount"]) for t in house] == [("the house", rake)]


def test_a_move_mid_hand_leaves_the_books_a_fresh_read_gives(
    home: Table, alice: User, bob: User
) -> None:
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 200)
    hand = services.hand_start(table_id=home.pk)
    hand = services.hand_act(
        hand_id=hand.pk, player_id=player_to_act(hand), kind="bring_in", version=hand.version
    )
    hand = Hand.objects.select_related("table__stakes").get(pk=hand.pk)
    kept, fresh = rows_after_move(hand), read_table(home.pk)
    assert fresh is not None and kept.books is not None
    assert kept.books == fresh.books
    # The antes and the bring-in are in the pot, and still on the table.
    assert [row["on_table"] for row in kept.books["players"]] == [200, 200]


# ------------------------------------------------------------ what it costs


def test_a_room_tables_reads_read_no_books(seated: Table) -> None:
    """A table of the room reads its latest hand, seats and waiting list, and nothing more."""
    hand = services.hand_start(table_id=seated.pk)
    read_table(seated.pk)  # every compiled read compiled
    with CaptureQueriesContext(connection) as fresh:
        read_table(seated.pk)
    hand = Hand.objects.select_related("table__stakes").get(pk=hand.pk)
    with CaptureQueriesContext(connection) as after_move:
        rows_after_move(hand)
    assert (len(fresh), len(after_move)) == (3, 2)
    for query in [*fresh, *after_move]:
        assert "chiptransfer" not in query["sql"] and "rakeentry" not in query["sql"]


def test_the_books_are_read_once_for_every_viewer(home: Table, alice: User, bob: User) -> None:
    """Building a snapshot runs on the event loop: it reads nothing, books included."""
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 200)
    rows = read_table(home.pk)
    assert rows is not None
    with CaptureQueriesContext(connection) as queries:
        for viewer in (alice.pk, bob.pk, None):
            build_snapshot(rows, viewer, None, with_events=True, balance=0)
    assert len(queries) == 0


# ------------------------------------------------------------ over the socket


@pytest.mark.django_db(transaction=True)  # the consumers read in threads of their own
def test_over_the_socket_the_players_seated_get_the_books_and_a_member_standing_none(
    home: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob, carol = [await join(home.pk, cookies[n]) for n in ("alice", "bob", "carol")]
            await alice.send({"type": "sit", "seat": 1, "buy_in": 200})
            await bob.send({"type": "sit", "seat": 2, "buy_in": 120})
            for socket in (alice, bob):
                while len(socket.last_snapshot.get("ledger", {"players": []})["players"]) < 2:
                    await socket.receive_snapshot()
                ledger = socket.last_snapshot["ledger"]
                assert [(r["player"], r["bought_in"]) for r in ledger["players"]] == [
                    ("alice", 200),
                    ("bob", 120),
                ]
            while len(carol.last_snapshot["table"]["seats"]) < 2:
                await carol.receive_snapshot()
            assert all("ledger" not in frame for frame in carol.frames)

    run(scenario)


# ------------------------------------------------------------ the CSV file


def test_the_csv_file_has_a_row_per_player_the_totals_and_the_transfers(
    home: Table, alice: User, bob: User, bob_wins: None
) -> None:
    User.objects.filter(pk=bob.pk).update(display_name="=HYPERLINK(1)")
    won = played_hand(home, alice, bob)
    response = ledger_csv(home.pk, alice)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    w = str(won)
    assert csv_rows(response) == [
        ["Player", "Username", "Bought in", "Topped up", "Cashed out", "On the table", "Net"],
        # Bob's name as he typed it shows as text, never runs as a formula.
        ["'=HYPERLINK(1)", "bob", "200", "0", "0", str(200 + won), w],
        ["alice", "alice", "200", "0", "0", str(200 - won), "-" + w],
        ["Total", "", "400", "0", "0", "400", "0"],
        [],
        ["Pays", "To", "Chips"],
        ["alice", "'=HYPERLINK(1)", w],
    ]


def test_the_csv_file_names_the_houses_rake(
    home: Table, alice: User, bob: User, bob_wins: None
) -> None:
    rule = RakeRule.objects.create(name="10% cap 5", percent=10, cap=5)
    Stakes.objects.filter(pk=home.stakes_id).update(rake=rule)
    played_hand(home, alice, bob)
    rake = str(table_rake(home.pk))
    rows = csv_rows(ledger_csv(home.pk, bob))
    assert ["Rake taken", "", "", "", "", "", rake] in rows
    assert ["alice", "the house", rake] in rows


def test_the_host_members_and_staff_may_download_the_books(
    home: Table, alice: User, bob: User, carol: User, clerk: User
) -> None:
    sit(home, carol, 3, 100)
    services.seat_leave(table_id=home.pk, player_id=carol.pk)
    # Carol, who has left, still has her row, and the file.
    for user in (alice, bob, carol, clerk):
        response = ledger_csv(home.pk, user)
        assert response.status_code == 200, user
        assert csv_rows(response)[1] == ["carol", "carol", "100", "0", "100", "0", "0"]
    assert len(home_ledger(home.pk)) == 1


def test_anyone_else_is_told_the_table_does_not_exist(
    home: Table, table: Table, dave: User, alice: User, stakes: Stakes
) -> None:
    room_table = Table.objects.create(name="Table 2", stakes=stakes)
    for user in (dave, None):
        assert ledger_csv(home.pk, user).status_code == 404
    assert ledger_csv(999_999, alice).status_code == 404
    # A table of the room keeps no books: there is nothing to download.
    assert ledger_csv(room_table.pk, alice).status_code == 404
