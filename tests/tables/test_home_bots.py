"""A home game's host adds bots and removes them; the house's bot process plays them.

Personas: alice hosts Table 1 and sits in seat 1; bob is her friend, a member
by the invite link, who sits or not as a test needs; carol is a member who
may see the table but not run it; dave is a stranger, for whom the table
doesn't exist. The bots are ``bot-<n>`` accounts the service makes.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from accounts.models import ChipTransfer, User
from accounts.services import user_signup
from tables import services
from tables.bot_accounts import bot_number, bot_user, is_bot_account
from tables.home.bot_house import BotHouse
from tables.models import HomeBot, Seat, Table, TableConnection, TableGame, TableMember
from tables.selectors.home_bots import home_bots_to_play
from tables.selectors.snapshots import build_snapshot, read_table
from tables.services.home import NotFound
from tests.conftest import start_process, stop_process_group
from tests.tables.conftest import bet_and_call, play_out
from tests.tables.test_consumers import room, run

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(table: Table, alice: User, bob: User, carol: User) -> Table:
    """Table 1 (stud, buy-in 50 to 500, eight seats) as alice's home game, with
    bob and carol let in by its link, and alice in seat 1."""
    Table.objects.filter(pk=table.pk).update(host=alice)
    for friend in (bob, carol):
        TableMember.objects.create(table=table, player=friend)
    table.refresh_from_db()
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    return table


def add(table: Table, host: User) -> HomeBot:
    return services.home_bot_add(table_id=table.pk, player_id=host.pk)


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    return (
        sorted(HomeBot.objects.filter(table=table).values_list("player_id", flat=True)),
        sorted(Seat.objects.filter(table=table).values_list("number", "player_id", "leaving")),
        sorted(TableMember.objects.filter(table=table).values_list("player_id", flat=True)),
        User.objects.filter(username__startswith="bot-").count(),
    )


# ------------------------------------------------------------------ adding


def test_the_host_adds_a_bot_seated_at_once_as_a_member_with_the_largest_buy_in(
    home: Table, alice: User
) -> None:
    services.home_pause(table_id=home.pk, player_id=alice.pk)  # no hand dealt: no ante paid
    row = add(home, alice)
    assert row.player.username == "bot-1" and row.buy_in == 500
    seat = Seat.objects.get(table=home, player=row.player)
    assert (seat.number, seat.stack, seat.auto_rebuy_to) == (2, 500, 500)
    assert TableMember.objects.filter(table=home, player=row.player).exists()
    assert is_bot_account(row.player)


def test_a_bot_and_the_host_are_dealt_a_hand_at_once(home: Table, alice: User) -> None:
    add(home, alice)
    hand = home.hands.get()
    assert sorted(hand.player_names()) == ["alice", "bot-1"]


def test_each_bot_added_is_another_account_in_the_next_free_seat(
    home: Table, alice: User, bob: User
) -> None:
    services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=2, buy_in=100)
    first, second = add(home, alice), add(home, alice)
    assert [first.player.username, second.player.username] == ["bot-1", "bot-2"]
    seats = Seat.objects.filter(table=home, player__username__startswith="bot-")
    assert sorted(seats.values_list("number", flat=True)) == [3, 4]


def test_a_bot_playing_at_another_open_table_is_not_taken(
    home: Table, alice: User, stakes: Any
) -> None:
    elsewhere = Table.objects.create(name="Table 2", stakes=stakes)
    busy = bot_user(1)
    services.seat_take(table_id=elsewhere.pk, player_id=busy.pk, seat_number=1, buy_in=100)
    assert add(home, alice).player.username == "bot-2"


def test_a_person_who_signed_up_with_a_bots_name_is_never_played(
    home: Table, alice: User, client: Any
) -> None:
    person = user_signup(username="bot-1", password="a-person-pw-1234")
    client.force_login(person)  # a person logs in; a bot never does
    person.refresh_from_db()
    assert not is_bot_account(person)
    assert add(home, alice).player.username == "bot-2"
    assert not Seat.objects.filter(player=person).exists()


def test_a_bot_short_of_chips_is_granted_the_difference_and_every_chip_is_accounted_for(
    home: Table, alice: User, settings: Any
) -> None:
    settings.CARDROOM_SIGNUP_GRANT = 120  # the bot's welcome grant: short of a buy-in of 500
    row = add(home, alice)
    grants = ChipTransfer.objects.filter(user=row.player, kind=ChipTransfer.Kind.GRANT)
    assert list(grants.order_by("pk").values_list("amount", "table_id")) == [
        (120, None),
        (380, home.pk),
    ]
    row.player.refresh_from_db()
    assert row.player.balance == 0  # all of it on the table
    # The house's bot process keeps one buy-in in its balance for the next rebuy.
    assert services.home_bots_stake() == 500
    assert services.home_bots_stake() == 0  # nothing more to do
    row.player.refresh_from_db()
    assert row.player.balance == 500
    call_command("audit_chips")  # raises CommandError on any difference


# ------------------------------------------------------------------ refusals


def test_a_member_who_isnt_the_host_cant_add_or_remove_a_bot(
    home: Table, alice: User, carol: User
) -> None:
    add(home, alice)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="only Table 1's host may do that"):
        add(home, carol)
    with pytest.raises(services.ServiceError, match="only Table 1's host may do that"):
        services.home_bot_remove(table_id=home.pk, player_id=carol.pk, username="bot-1")
    assert state_of(home) == before


def test_a_stranger_is_told_the_table_doesnt_exist(home: Table, alice: User, dave: User) -> None:
    add(home, alice)
    before = state_of(home)
    with pytest.raises(NotFound, match=f"there is no table #{home.pk}"):
        add(home, dave)
    with pytest.raises(NotFound, match=f"there is no table #{home.pk}"):
        services.home_bot_remove(table_id=home.pk, player_id=dave.pk, username="bot-1")
    assert state_of(home) == before


def test_a_closed_game_takes_no_bot(home: Table, alice: User) -> None:
    add(home, alice)
    services.home_close(table_id=home.pk, player_id=alice.pk)
    before = state_of(home)
    for command in (
        lambda: add(home, alice),
        lambda: services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username="bot-1"),
    ):
        with pytest.raises(services.ServiceError, match="Table 1 is closed"):
            command()
    assert state_of(home) == before


def test_a_table_of_the_room_has_no_host_to_add_bots(table: Table, alice: User) -> None:
    with pytest.raises(services.ServiceError, match="a table of the room, not a home game"):
        add(table, alice)
    assert not HomeBot.objects.exists()


def test_no_bot_is_added_when_every_seat_is_taken(home: Table, alice: User) -> None:
    home.stakes.seats = 3  # alice's seat and two bots'
    home.stakes.save(update_fields=["seats"])
    add(home, alice)
    add(home, alice)
    before = state_of(home)
    with pytest.raises(services.ServiceError, match="every seat at Table 1 is taken"):
        add(home, alice)
    assert state_of(home) == before


# ------------------------------------------------------------------ removing


def test_a_bot_between_hands_is_removed_at_once(home: Table, alice: User) -> None:
    services.home_pause(table_id=home.pk, player_id=alice.pk)
    row = add(home, alice)
    chips = services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username="bot-1")
    assert chips == 500
    assert not HomeBot.objects.exists()
    assert not Seat.objects.filter(player=row.player).exists()
    assert not TableMember.objects.filter(table=home, player=row.player).exists()


def test_a_bot_in_a_hand_leaves_when_it_ends(home: Table, alice: User) -> None:
    row = add(home, alice)  # dealt in at once
    assert services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username="bot-1") is None
    assert not HomeBot.objects.exists()  # the house stops playing it now
    assert Seat.objects.get(player=row.player).leaving
    assert not TableMember.objects.filter(table=home, player=row.player).exists()
    assert home_bots_to_play() == []


def test_removing_a_person_or_a_bot_twice_is_refused(home: Table, alice: User, bob: User) -> None:
    services.seat_take(table_id=home.pk, player_id=bob.pk, seat_number=2, buy_in=100)
    services.home_pause(table_id=home.pk, player_id=alice.pk)
    add(home, alice)
    services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username="bot-1")
    before = state_of(home)
    for name in ("bob", "bot-1", "alice"):
        with pytest.raises(services.ServiceError, match=f"{name} is not a bot playing at Table 1"):
            services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username=name)
    assert state_of(home) == before


def test_a_bot_the_host_removed_as_a_player_is_played_no_more(home: Table, alice: User) -> None:
    """The host's panel removes any player, a bot too: its row goes with its seat."""
    services.home_pause(table_id=home.pk, player_id=alice.pk)
    add(home, alice)
    assert [row.username for row in home_bots_to_play()] == ["bot-1"]
    services.home_remove(table_id=home.pk, player_id=alice.pk, username="bot-1")
    assert home_bots_to_play() == [] and not HomeBot.objects.exists()
    with pytest.raises(services.ServiceError, match="bot-1 is not a bot playing at Table 1"):
        services.home_bot_remove(table_id=home.pk, player_id=alice.pk, username="bot-1")


def test_a_closed_games_bots_are_played_until_its_last_hand_ends(home: Table, alice: User) -> None:
    add(home, alice)  # a hand is dealt
    services.home_close(table_id=home.pk, player_id=alice.pk)
    assert [row.username for row in home_bots_to_play()] == ["bot-1"]
    play_out(home.hands.get(), bet_and_call)
    assert home_bots_to_play() == []  # every seat is cashed out: nothing left to play


# ------------------------------------------------------------------ what everyone sees


def test_everyone_sees_which_players_are_bots(home: Table, alice: User, carol: User) -> None:
    add(home, alice)
    rows = read_table(home.pk)
    assert rows is not None
    snapshot = build_snapshot(rows, carol.pk, None, with_events=False).payload
    assert snapshot["table"]["home"]["bots"] == ["bot-1"]


def test_a_table_of_the_room_has_no_bots_list(table: Table, alice: User) -> None:
    rows = read_table(table.pk)
    assert rows is not None
    assert "home" not in build_snapshot(rows, alice.pk, None, with_events=False).payload["table"]


# ------------------------------------------------------------------ over the socket


@pytest.mark.django_db(transaction=True)
def test_the_host_adds_and_removes_a_bot_over_the_socket(
    home: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(home.pk, cookies_all["alice"])
            bob = await join(home.pk, cookies_all["bob"])
            await alice.send({"type": "home_pause"})
            await alice.receive_snapshot()
            await alice.send({"type": "home_bot_add"})
            for socket in (alice, bob):
                while (snapshot := await socket.receive_snapshot())["table"]["home"]["bots"] == []:
                    pass
                assert snapshot["table"]["home"]["bots"] == ["bot-1"]
                seats = [(s["number"], s["player"]) for s in snapshot["table"]["seats"]]
                assert seats == [(1, "alice"), (2, "bot-1")]
            await alice.send({"type": "home_bot_remove", "player": "bot-1"})
            snapshot = await alice.receive_snapshot()
            assert snapshot["table"]["home"]["bots"] == []
            assert [s["player"] for s in snapshot["table"]["seats"]] == ["alice"]
            await alice.send({"type": "home_bot_remove", "player": "bot-1"})
            error = await alice.receive()
            assert (error["code"], error["message"]) == (
                "refused",
                "bot-1 is not a bot playing at Table 1",
            )

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_member_is_refused_a_bot_and_nobody_hears_of_it(
    home: Table, cookies_all: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(home.pk, cookies_all["carol"])
            bob = await join(home.pk, cookies_all["bob"])
            for message in (
                {"type": "home_bot_add"},
                {"type": "home_bot_remove", "player": "bot-1"},
            ):
                await carol.send(message)
                error = await carol.receive()
                assert (error["code"], error["message"]) == (
                    "refused",
                    "only Table 1's host may do that",
                )
            assert await bob.quiet()

    run(scenario)
    assert not HomeBot.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_bad_bot_messages_are_refused_as_bad(home: Table, cookies_all: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(home.pk, cookies_all["alice"])
            for message in (
                {"type": "home_bot_add", "player": "bot-1"},
                {"type": "home_bot_remove"},
                {"type": "home_bot_remove", "player": 3},
                {"type": "home_bot_remove", "player": ""},
            ):
                await alice.send(message)
                error = await alice.receive()
                assert (error["type"], error["code"]) == ("error", "bad_message"), message

    run(scenario)
    assert not HomeBot.objects.exists()


# ------------------------------------------------------------------ the house's bot process


def test_bot_numbers_are_read_from_bot_names_only() -> None:
    assert [bot_number(n) for n in ("bot-3", "bot-03", "bot-", "robot-3", "bot-3x")] == [
        3,
        None,
        None,
        None,
        None,
    ]


@pytest.fixture
def house(server_env: dict[str, str], daphne: str, tmp_path: Path) -> Iterator[Path]:
    """``manage.py run_bots --home`` against the real server; its log's path."""
    argv = [sys.executable, "manage.py", "run_bots", "--home", "--url", daphne]
    argv += ["--think", "0", "--seed", "3"]
    log = tmp_path / "house.log"
    process = start_process(argv, server_env, log)
    try:
        yield log
        process.send_signal(signal.SIGINT)  # Ctrl-C: every bot disconnects
        assert process.wait(timeout=15) == 0
        assert "Bots disconnected." in log.read_text()
    finally:
        stop_process_group(process)
        print(log.read_text())  # shown by pytest only when the test fails


def wait_for(check: Callable[[], Any], what: str, log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}:\n{log.read_text()}"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_the_house_plays_the_bots_a_host_adds_at_dealers_choice_and_stops_one_removed(
    table: Table, alice: User, house: Path
) -> None:
    """Two bots the host added play each other at her dealer's-choice game,
    calling its games; removed, one is played no more and its socket closes."""
    Table.objects.filter(pk=table.pk).update(host=alice, policy="dealers_choice")
    for position, variant in enumerate(["razz", "baseball", "stud8"]):
        TableGame.objects.create(table=table, position=position, variant=variant)
    first, second = add(table, alice), add(table, alice)
    # Nothing plays them but the house: no turn clock runs here.
    wait_for(lambda: table.hands.filter(ended_at__isnull=False).count() >= 3, "3 hands", house)
    hands = list(table.hands.filter(ended_at__isnull=False).order_by("number"))
    assert all(sorted(hand.player_names()) == ["bot-1", "bot-2"] for hand in hands)
    assert all(hand.call is not None and hand.call["how"] == "called" for hand in hands)
    assert {hand.variant for hand in hands} <= {"razz", "baseball", "stud8"}
    # Between hands the host removes bot-1; the house lets it go.
    services.home_pause(table_id=table.pk, player_id=alice.pk)
    wait_for(lambda: not table.hands.filter(ended_at__isnull=True).exists(), "the hand", house)
    services.home_bot_remove(table_id=table.pk, player_id=alice.pk, username="bot-1")
    wait_for(lambda: "bot-1 left table" in house.read_text(), "bot-1 let go", house)
    gone = TableConnection.objects.filter(table=table, player=first.player)
    wait_for(lambda: not gone.exists(), "bot-1's socket closed", house)
    assert TableConnection.objects.filter(table=table, player=second.player).exists()
    assert "bot-2 left table" not in house.read_text()
    call_command("audit_chips")


def test_run_bots_home_refuses_a_negative_think_time() -> None:
    with pytest.raises(CommandError, match="--think"):
        call_command("run_bots", "--home", "--think", "-1")


class ShakyHouse(BotHouse):
    """A house whose first look at the rows fails as a deadlock with another
    transaction makes it fail (as the test database's flush once did)."""

    rounds: int = 0

    async def round(self) -> None:
        self.rounds += 1
        if self.rounds == 1:
            raise OperationalError("deadlock detected")
        await super().round()


@pytest.mark.django_db(transaction=True)
def test_the_house_plays_on_after_a_round_fails(
    home: Table, alice: User, caplog: pytest.LogCaptureFixture
) -> None:
    bot = add(home, alice)
    said: list[str] = []
    house = ShakyHouse("ws://127.0.0.1:9", tick=0.05, say=said.append)
    with caplog.at_level(logging.WARNING, logger="tables.home.bot_house"):
        asyncio.run(house.run(seconds=1.0))
    assert house.rounds > 2, "it looked again after the failure"
    assert "The bots' round failed (OperationalError('deadlock detected'))" in caplog.text
    # A later round saw the bot and started its client, stopped on the way out.
    name = bot.player.username
    assert said[0] == f"{name} plays at table #{home.pk}"
    assert said[-1] == f"{name} left table #{home.pk}"
