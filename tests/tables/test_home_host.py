"""A home game's host runs it: pauses and resumes the deal, removes a player,
closes the game; each power refused to everyone else, changing nothing.

Personas: alice hosts, and sits in seat 1; bob, a member by the invite link,
sits in seat 2 and is the player she removes; carol is a member too, who
may see the table but not run it; dave is a stranger, for whom the table
doesn't exist.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import ChipTransfer, User
from tables import services
from tables.models import Hand, Seat, Table, TableMember
from tables.selectors.snapshots import build_snapshot, read_table
from tables.selectors.tables import table_visible
from tables.services.home import NotFound
from tests.tables.conftest import bet_and_call, play_out
from tests.tables.test_consumers import room, run

pytestmark = pytest.mark.django_db

# Every power, called by ``player`` at ``table`` with what it needs besides.
POWERS: dict[str, Callable[[Table, User], object]] = {
    "pause": lambda table, player: services.home_pause(table_id=table.pk, player_id=player.pk),
    "resume": lambda table, player: services.home_resume(table_id=table.pk, player_id=player.pk),
    "remove": lambda table, player: services.home_remove(
        table_id=table.pk, player_id=player.pk, username="bob"
    ),
    "close": lambda table, player: services.home_close(table_id=table.pk, player_id=player.pk),
}


@pytest.fixture
def home(table: Table, alice: User, bob: User, carol: User) -> Table:
    """Table 1 as alice's home game, with bob and carol let in by its link."""
    Table.objects.filter(pk=table.pk).update(host=alice)
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    table.refresh_from_db()
    return table


def sit(table: Table, player: User, number: int, buy_in: int = 200) -> None:
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in)


@pytest.fixture
def seated(home: Table, alice: User, bob: User) -> Table:
    """Alice in seat 1 and bob in seat 2; no hand dealt yet."""
    sit(home, alice, 1)
    sit(home, bob, 2)
    return home


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    table.refresh_from_db()
    return (
        table.is_open,
        table.paused,
        sorted(Seat.objects.filter(table=table).values_list("number", "player_id", "leaving")),
        sorted(TableMember.objects.filter(table=table).values_list("player_id", flat=True)),
        Hand.objects.filter(table=table).count(),
    )


def a_while_ago(table: Table) -> None:
    """Every hand at the table ended long ago: the pause after a hand is over."""
    Hand.objects.filter(table=table).update(ended_at=timezone.now() - datetime.timedelta(hours=1))


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_member_who_isnt_the_host_is_refused_clearly(
    power: str, seated: Table, carol: User
) -> None:
    before = state_of(seated)
    with pytest.raises(services.ServiceError, match="only Table 1's host may do that"):
        POWERS[power](seated, carol)
    assert state_of(seated) == before


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_stranger_is_told_what_a_missing_table_tells(
    power: str, seated: Table, dave: User
) -> None:
    before = state_of(seated)
    with pytest.raises(NotFound) as stranger:
        POWERS[power](seated, dave)
    missing = Table(pk=seated.pk + 1000)
    with pytest.raises(NotFound) as nowhere:
        POWERS[power](missing, dave)
    assert str(stranger.value) == f"there is no table #{seated.pk}"
    assert str(nowhere.value) == f"there is no table #{missing.pk}"
    assert state_of(seated) == before


@pytest.mark.parametrize("power", sorted(POWERS))
def test_a_closed_game_takes_no_command(power: str, home: Table, alice: User, bob: User) -> None:
    sit(home, bob, 2)
    Table.objects.filter(pk=home.pk).update(is_open=False, paused=power == "resume")
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="Table 1 is closed"):
        POWERS[power](home, alice)
    assert state_of(home) == before


@pytest.mark.parametrize("power", ["pause", "remove", "close"])
def test_a_table_of_the_room_has_no_host(power: str, table: Table, alice: User) -> None:
    with pytest.raises(services.ServiceError, match="a table of the room, not a home game"):
        POWERS[power](table, alice)


# --------------------------------------------------------- pause and resume


def test_paused_no_hand_is_dealt(seated: Table, alice: User, carol: User) -> None:
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    sit(seated, carol, 4)
    assert services.hand_start_if_ready(table_id=seated.pk) is None
    with pytest.raises(services.ServiceError, match="host has paused the game"):
        services.hand_start(table_id=seated.pk)
    assert services.hands_start_due() == 0
    assert not Hand.objects.filter(table=seated).exists()


def test_resume_deals_at_once_when_the_table_is_ready(seated: Table, alice: User) -> None:
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    hand = services.home_resume(table_id=seated.pk, player_id=alice.pk)
    assert isinstance(hand, Hand) and hand.player_ids() and not hand.is_finished
    seated.refresh_from_db()
    assert not seated.paused


def test_the_hand_in_play_finishes_and_no_next_one_follows(seated: Table, alice: User) -> None:
    hand = services.hand_start(table_id=seated.pk)
    assert hand is not None
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    play_out(hand, bet_and_call)
    a_while_ago(seated)
    assert services.hand_start_if_ready(table_id=seated.pk) is None
    assert services.hands_start_due() == 0
    nxt = services.home_resume(table_id=seated.pk, player_id=alice.pk)
    assert nxt is not None and nxt.number == hand.number + 1


def test_pausing_twice_and_resuming_a_game_not_paused_are_refused(
    seated: Table, alice: User
) -> None:
    with pytest.raises(services.ServiceError, match="Table 1 isn't paused"):
        services.home_resume(table_id=seated.pk, player_id=alice.pk)
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    with pytest.raises(services.ServiceError, match="Table 1 is paused already"):
        services.home_pause(table_id=seated.pk, player_id=alice.pk)
    seated.refresh_from_db()
    assert seated.paused


def test_everyone_is_told_the_game_is_paused_and_who_hosts_it(
    seated: Table, alice: User, bob: User
) -> None:
    services.home_pause(table_id=seated.pk, player_id=alice.pk)
    rows = read_table(seated.pk)
    assert rows is not None
    snaps = {
        p: build_snapshot(rows, p, None, with_events=False).payload for p in (alice.pk, bob.pk)
    }
    for payload in snaps.values():
        assert payload["table"]["waiting"] == "paused"
        home = payload["table"]["home"]
        assert (home["host"], home["paused"]) == ("alice", True)
    assert snaps[alice.pk]["you"]["host"] is True
    assert snaps[bob.pk]["you"]["host"] is False


def test_a_table_of_the_room_has_no_home_part(table: Table, alice: User) -> None:
    rows = read_table(table.pk)
    assert rows is not None
    payload = build_snapshot(rows, alice.pk, None, with_events=False).payload
    assert "home" not in payload["table"] and "host" not in payload["you"]


# ---------------------------------------------------------------- removing


def test_a_player_not_in_a_hand_is_removed_at_once(seated: Table, alice: User, bob: User) -> None:
    balance = User.objects.get(pk=bob.pk).balance
    assert services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob") == 200
    assert not Seat.objects.filter(table=seated, player=bob).exists()
    assert User.objects.get(pk=bob.pk).balance == balance + 200
    assert ChipTransfer.objects.filter(user=bob, kind=ChipTransfer.Kind.CASH_OUT).exists()
    assert not table_visible(seated.pk, bob.pk)


def test_a_player_in_a_hand_is_removed_when_it_ends(seated: Table, alice: User, bob: User) -> None:
    hand = services.hand_start(table_id=seated.pk)
    assert hand is not None
    assert services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob") is None
    seat = Seat.objects.get(table=seated, player=bob)
    assert seat.leaving and not table_visible(seated.pk, bob.pk)
    balance = User.objects.get(pk=bob.pk).balance
    play_out(hand, bet_and_call)
    ended = Hand.objects.get(pk=hand.pk)
    won = next(r.final_stack for r in ended.results.all() if r.player_id == bob.pk)
    assert not Seat.objects.filter(table=seated, player=bob).exists()
    assert User.objects.get(pk=bob.pk).balance == balance + won


def test_removing_twice_is_refused(seated: Table, alice: User, bob: User) -> None:
    hand = services.hand_start(table_id=seated.pk)
    assert hand is not None
    services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob")
    before = state_of(seated)
    with pytest.raises(services.ServiceError, match=f"bob is removed already.*#{hand.number}"):
        services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob")
    assert state_of(seated) == before
    play_out(hand, bet_and_call)
    with pytest.raises(services.ServiceError, match="bob is not seated at Table 1"):
        services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob")


def test_a_player_who_chose_to_leave_may_still_be_removed(
    seated: Table, alice: User, bob: User
) -> None:
    services.hand_start(table_id=seated.pk)
    services.seat_leave(table_id=seated.pk, player_id=bob.pk)
    assert services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob") is None
    assert not table_visible(seated.pk, bob.pk)


def test_removing_a_player_not_seated_is_refused(seated: Table, alice: User, carol: User) -> None:
    before = state_of(seated)
    for name in ("carol", "nobody"):
        with pytest.raises(services.ServiceError, match=f"{name} is not seated at Table 1"):
            services.home_remove(table_id=seated.pk, player_id=alice.pk, username=name)
    assert state_of(seated) == before


def test_the_host_cant_remove_themself(seated: Table, alice: User) -> None:
    before = state_of(seated)
    with pytest.raises(services.ServiceError, match="you host this game"):
        services.home_remove(table_id=seated.pk, player_id=alice.pk, username="alice")
    assert state_of(seated) == before


# ----------------------------------------------------------------- closing


def test_the_host_closes_the_game_and_every_seat_is_cashed_out(
    seated: Table, alice: User, bob: User
) -> None:
    services.home_close(table_id=seated.pk, player_id=alice.pk)
    seated.refresh_from_db()
    assert not seated.is_open and not Seat.objects.filter(table=seated).exists()


def test_closing_waits_for_the_hand_in_play(seated: Table, alice: User) -> None:
    hand = services.hand_start(table_id=seated.pk)
    assert hand is not None
    services.home_close(table_id=seated.pk, player_id=alice.pk)
    assert Seat.objects.filter(table=seated).count() == 2
    play_out(hand, bet_and_call)
    assert not Seat.objects.filter(table=seated).exists()
    assert not Hand.objects.filter(table=seated).exclude(pk=hand.pk).exists()


# ---------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
def test_the_host_pauses_and_resumes_over_the_socket(
    seated: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = (
                await join(seated.pk, cookies_all["alice"]),
                await join(seated.pk, cookies_all["bob"]),
            )
            assert alice.last_snapshot["you"]["host"] is True
            assert bob.last_snapshot["you"]["host"] is False
            await alice.send({"type": "home_pause"})
            for socket in (alice, bob):
                snapshot = await socket.receive_snapshot()
                home = snapshot["table"]["home"]
                assert (home["host"], home["paused"]) == ("alice", True)
                assert snapshot["table"]["waiting"] == "paused"
            await alice.send({"type": "home_resume"})
            for socket in (alice, bob):
                snapshot = await socket.receive_snapshot()
                assert snapshot["table"]["home"]["paused"] is False
                assert snapshot["hand"] is not None  # dealt at once on resume

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_member_is_refused_and_nothing_changes(
    seated: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol, bob = (
                await join(seated.pk, cookies_all["carol"]),
                await join(seated.pk, cookies_all["bob"]),
            )
            for message in (
                {"type": "home_pause"},
                {"type": "home_remove", "player": "bob"},
                {"type": "home_close"},
            ):
                await carol.send(message)
                error = await carol.receive()
                assert (error["type"], error["code"]) == ("error", "refused")
                assert error["message"] == "only Table 1's host may do that"
            assert await bob.quiet()  # nobody else heard a thing: nothing changed

    run(scenario)
    assert state_of(seated)[:3] == (
        True,
        False,
        [(1, seated.host_id, False), (2, _id("bob"), False)],
    )


def _id(username: str) -> int:
    return User.objects.get(username=username).pk


@pytest.mark.django_db(transaction=True)
def test_bad_host_messages_are_refused_as_bad(seated: Table, cookies_all: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(seated.pk, cookies_all["alice"])
            for message in (
                {"type": "home_remove"},
                {"type": "home_remove", "player": 7},
                {"type": "home_remove", "player": ""},
                {"type": "home_pause", "for": 10},
            ):
                await alice.send(message)
                error = await alice.receive()
                assert (error["type"], error["code"]) == ("error", "bad_message"), message

    run(scenario)
    assert state_of(seated)[0] is True


@pytest.mark.django_db(transaction=True)
def test_the_host_removes_a_player_over_the_socket(
    seated: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(seated.pk, cookies_all["alice"])
            await alice.send({"type": "home_pause"})
            await alice.receive_snapshot()
            await alice.send({"type": "home_remove", "player": "bob"})
            snapshot = await alice.receive_snapshot()
            assert [seat["player"] for seat in snapshot["table"]["seats"]] == ["alice"]
            await alice.send({"type": "home_remove", "player": "bob"})
            error = await alice.receive()
            assert (error["code"], error["message"]) == ("refused", "bob is not seated at Table 1")
            await alice.send({"type": "home_close"})
            closed = await alice.receive_snapshot()
            assert closed["table"]["is_open"] is False and closed["table"]["seats"] == []
            await alice.send({"type": "home_close"})
            assert (await alice.receive())["code"] == "refused"

    run(scenario)
    # Bob's page, opened again, finds no table.
    assert not table_visible(seated.pk, _id("bob"))


def test_a_removed_player_cant_take_back_the_removal(seated: Table, alice: User, bob: User) -> None:
    """Unticking "leave after this hand" is a stay: refused to a removed player."""
    hand = services.hand_start(table_id=seated.pk)
    assert hand is not None
    services.home_remove(table_id=seated.pk, player_id=alice.pk, username="bob")
    with pytest.raises(services.ServiceError, match="the host has removed you from this game"):
        services.seat_stay(table_id=seated.pk, player_id=bob.pk)
    assert Seat.objects.get(table=seated, player=bob).leaving


@pytest.mark.django_db(transaction=True)
def test_a_removed_players_open_page_is_closed_as_for_a_missing_table(
    seated: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(seated.pk, cookies_all["alice"])
            bob = await join(seated.pk, cookies_all["bob"])
            carol = await join(seated.pk, cookies_all["carol"])
            await alice.send({"type": "home_remove", "player": "bob"})
            await alice.receive_snapshot()
            while (error := await bob.receive())["type"] != "error":
                pass  # a snapshot that left before the notice
            assert (error["code"], error["message"]) == (
                "refused",
                "the host has removed you from this game",
            )
            closed = await bob.communicator.receive_output(timeout=3)
            assert (closed["type"], closed["code"]) == ("websocket.close", 4404)
            # Carol, another member, stays.
            snapshot = await carol.receive_snapshot()
            assert [seat["player"] for seat in snapshot["table"]["seats"]] == ["alice"]

    run(scenario)
