"""The rows a move's notice carries to the other processes (``tables.selectors.carried``).

Carried as JSON inside the Redis channel layer's msgpack, they build
every viewer's snapshot exactly as the rows a process reads itself do, with
no query of their own, at every moment of a hand of every game; and they
hold nothing nobody may know yet: not the deck, nor what is left of it, nor
the burns, nor any account's password or e-mail.
"""

from __future__ import annotations

import msgpack
import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from tables import services
from tables.models import Hand, Table, TableMember
from tables.rules import UNKNOWN, HandState
from tables.rules.variants import VARIANTS
from tables.selectors.carried import carry, uncarry
from tables.selectors.snapshots import Snapshot, TableRows, build_snapshot, read_table
from tests.tables.conftest import bet_and_call, clock_decides, play_out

pytestmark = pytest.mark.django_db


def through_redis(rows: TableRows) -> TableRows:
    """The rows packed, sent as channels_redis sends a message, and unpacked."""
    return uncarry(msgpack.unpackb(msgpack.packb(carry(rows), use_bin_type=True), raw=False))


def built(rows: TableRows, viewer: int | None) -> Snapshot:
    return build_snapshot(rows, viewer, None, with_events=True, balance=0)


def assert_same_for_everyone(table: Table, viewers: list[int | None]) -> None:
    read = read_table(table.pk)
    assert read is not None
    carried = through_redis(read)
    for viewer in viewers:
        with CaptureQueriesContext(connection) as queries:
            mine = built(carried, viewer)
        assert len(queries) == 0, [query["sql"] for query in queries]
        theirs = built(read, viewer)
        assert (mine.payload, mine.events, mine.cursor) == (
            theirs.payload,
            theirs.events,
            theirs.cursor,
        )


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_carried_rows_build_every_viewers_snapshot_as_rows_read_do(
    table: Table, alice: User, bob: User, carol: User, variant: str
) -> None:
    table.stakes.variant = variant
    table.stakes.save(update_fields=["variant"])
    players = [alice, bob, carol]
    for number, player in enumerate(players, start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None
    viewers: list[int | None] = [None, *(player.pk for player in players)]

    def choose(state: HandState) -> tuple[str, int | None]:
        assert_same_for_everyone(table, viewers)
        return bet_and_call(state)

    def decide(state: HandState, player: int) -> tuple[str, list[int] | None]:
        assert_same_for_everyone(table, viewers)
        return clock_decides(state, player)

    play_out(hand, choose, decide=decide)
    assert_same_for_everyone(table, viewers)  # the showdown, and the hand over


def test_carried_rows_hold_no_card_to_come_and_no_account_secret(
    table: Table, alice: User, bob: User
) -> None:
    for number, player in enumerate((alice, bob), start=1):
        player.email = f"{player.username}@example.com"
        player.save(update_fields=["email"])
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    hand = services.hand_start(table_id=table.pk)
    assert hand is not None
    rows = read_table(table.pk)
    assert rows is not None
    packed = carry(rows)
    carried = uncarry(packed)
    assert carried.hand is not None and carried.state is not None
    state = carried.hand.state
    assert (state["deck"], state["stub"]) == (None, None)
    assert all(card == UNKNOWN for card in state["burns"])
    everything = packed.decode()
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.deck_salt not in everything
    for cards in (stored.state["stub"], stored.deck):  # as the JSON would write them
        assert orjson.dumps(cards).decode() not in everything
    for user in (alice, bob):
        assert user.password not in everything and user.email not in everything
    # The players' names and balances came; anything else would be read.
    seat = carried.seats[0]
    assert seat.player.get_deferred_fields() >= {"password", "email"}
    alice.refresh_from_db()
    assert (seat.player.username, seat.player.balance) == (alice.username, alice.balance)


def test_a_home_games_carried_rows_bring_its_books_requests_and_bots(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    """Alice hosts, with seat approval: her bot sits and is dealt in with her,
    and bob's seat request waits; the host, bob, carol and an observer each
    see the game as from rows read."""
    Table.objects.filter(pk=table.pk).update(host=alice, seat_approval=True, invite_code="c0de")
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    services.home_bot_add(table_id=table.pk, player_id=alice.pk)
    services.seat_request_send(table_id=table.pk, player_id=bob.pk, seat_number=3, buy_in=300)
    hand = services.hand_start_if_ready(table_id=table.pk) or table.hands.get()
    read = read_table(table.pk)
    assert read is not None and read.books and read.requests and read.bots
    viewers: list[int | None] = [None, alice.pk, bob.pk, carol.pk]

    def choose(state: HandState) -> tuple[str, int | None]:
        assert_same_for_everyone(table, viewers)
        return bet_and_call(state)

    play_out(hand, choose)
    assert_same_for_everyone(table, viewers)
