"""The table websocket's chip and waiting-list messages: ``top_up``, ``rebuy``,
``auto_rebuy``, ``wait`` and ``unwait``, through the real ASGI app.

Personas: alice (seat 1) and bob (seat 2) play; carol is logged in and stands,
or waits for a seat; dave waits behind her; the observer is anonymous and may
only watch. Every socket is disconnected by ``room``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from tables import services, tasks
from tables.models import Seat, Stakes, Table, WaitingPlayer
from tables.services import hands as hand_services
from tests.tables.conftest import session_of
from tests.tables.test_consumers import Socket, room, run, seats_of
from tests.tables.test_seat_chips import BOB_WINS, bust

pytestmark = pytest.mark.django_db(transaction=True)

GRANT = settings.CARDROOM_SIGNUP_GRANT


@pytest.fixture
def logins(alice: User, bob: User, carol: User, dave: User) -> dict[str, str]:
    return {user.username: session_of(user) for user in (alice, bob, carol, dave)}


@pytest.fixture
def no_broker(settings: Any) -> None:
    """No pause between hands: a hand is dealt as soon as two players have chips."""
    settings.CARDROOM_TURN_TASKS = False


@pytest.fixture
def two_seats(stakes: Stakes) -> None:
    stakes.seats = 2
    stakes.save(update_fields=["seats"])


async def drain(socket: Socket) -> None:
    """Read whatever the socket has been sent so far, so the next frame is new."""
    while not await socket.idle(0.2):
        await socket.receive_any()


async def ask(socket: Socket, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and return the reply: the error, or the snapshot after the change."""
    await drain(socket)
    await socket.send(message)
    reply = await socket.receive()
    while reply["type"] == "event":
        reply = await socket.receive()
    return reply


async def sit(socket: Socket, seat: int, buy_in: int) -> dict[str, Any]:
    return await ask(socket, {"type": "sit", "seat": seat, "buy_in": buy_in})


async def until(socket: Socket, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first snapshot from now on that is ``wanted`` (each must come within 3 s)."""
    while not wanted(snapshot := await socket.receive_snapshot()):
        pass
    return snapshot


async def refused(socket: Socket, message: dict[str, Any], code: str, text: str) -> None:
    reply = await ask(socket, message)
    assert (reply["type"], reply["code"]) == ("error", code), reply
    assert text in reply["message"]


@database_sync_to_async
def stack_of(table: Table, username: str) -> int:
    return Seat.objects.get(table=table, player__username=username).stack


@database_sync_to_async
def balance_of(username: str) -> int:
    return User.objects.get(username=username).balance


# ------------------------------------------------------------------- top_up


def test_top_up_adds_chips_everyone_sees(table: Table, logins: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, observer = await join(table.pk, logins["alice"]), await join(table.pk)
            await sit(alice, 1, 200)
            await drain(observer)
            mine = await ask(alice, {"type": "top_up", "amount": 150})
            theirs = await observer.receive_snapshot()
            for snapshot in (mine, theirs):
                assert snapshot["table"]["seats"][0]["stack"] == 350
            assert mine["you"]["balance"] == GRANT - 350 == await balance_of("alice")

    run(scenario)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "top_up"},
        {"type": "top_up", "amount": "50"},
        {"type": "top_up", "amount": 0},
        {"type": "top_up", "amount": 2.5},
        {"type": "top_up", "amount": True},
        {"type": "top_up", "amount": 50, "seat": 1},
        {"type": "rebuy", "amount": None},
        {"type": "rebuy", "amount": -100},
        {"type": "auto_rebuy"},
        {"type": "auto_rebuy", "amount": "200"},
        {"type": "auto_rebuy", "amount": 200, "extra": 1},
        {"type": "wait", "seat": 1},
        {"type": "unwait", "now": True},
    ],
)
def test_malformed_chip_and_list_messages_are_bad(
    table: Table, logins: dict[str, str], message: dict[str, Any]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            reply = await ask(alice, message)
            assert (reply["type"], reply["code"]) == ("error", "bad_message"), reply
            assert await alice.quiet()
            assert await seats_of(table) == [(1, "alice", 200, "playing")]

    run(scenario)


def test_top_up_above_the_maximum_is_refused(table: Table, logins: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await refused(
                alice, {"type": "top_up", "amount": 400}, "refused", "you can add at most 300 chips"
            )
            assert await stack_of(table, "alice") == 200

    run(scenario)


def test_top_up_during_your_hand_is_refused(table: Table, logins: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = await join(table.pk, logins["alice"]), await join(table.pk, logins["bob"])
            await sit(alice, 1, 200)
            dealt = await sit(bob, 2, 200)
            assert dealt["hand"] is not None
            await refused(alice, {"type": "top_up", "amount": 10}, "refused", "only between hands")

    run(scenario)


# -------------------------------------------------------------------- rebuy


def test_rebuy_after_busting_deals_the_player_back_in(
    table: Table,
    alice: User,
    bob: User,
    logins: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    no_broker: None,
) -> None:
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(BOB_WINS))
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    bust(table, alice)

    async def scenario() -> None:
        async with room() as join:
            alice_socket = await join(table.pk, logins["alice"])
            await refused(
                alice_socket, {"type": "top_up", "amount": 100}, "refused", "rebuy for 50 to 500"
            )
            snapshot = await ask(alice_socket, {"type": "rebuy", "amount": 100})
            assert snapshot["table"]["seats"][0]["stack"] == 99  # dealt in: one chip anted
            assert snapshot["hand_info"]["number"] == 2

    run(scenario)


def test_rebuy_with_chips_left_is_refused(table: Table, logins: dict[str, str]) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await refused(
                alice, {"type": "rebuy", "amount": 100}, "refused", "you still have 200 chips"
            )

    run(scenario)


# --------------------------------------------------------------- auto_rebuy


def test_auto_rebuy_is_set_shown_to_its_player_and_turned_off(
    table: Table, logins: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, carol = (
                await join(table.pk, logins["alice"]),
                await join(table.pk, logins["carol"]),
            )
            await sit(alice, 1, 200)
            await drain(carol)
            snapshot = await ask(alice, {"type": "auto_rebuy", "amount": 300})
            assert snapshot["you"]["auto_rebuy_to"] == 300
            assert snapshot["table"]["seats"][0]["stack"] == 300  # between hands: at once
            theirs = await carol.receive_snapshot()
            assert theirs["table"]["seats"][0]["stack"] == 300
            assert theirs["you"]["auto_rebuy_to"] is None  # her own setting: alice's is not shown
            snapshot = await ask(alice, {"type": "auto_rebuy", "amount": None})
            assert snapshot["you"]["auto_rebuy_to"] is None

    run(scenario)


def test_auto_rebuy_outside_the_buy_in_range_is_refused(
    table: Table, logins: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await refused(
                alice, {"type": "auto_rebuy", "amount": 600}, "refused", "50 to 500 chips"
            )

    run(scenario)


# ----------------------------------------------------------- wait, unwait


def test_wait_puts_you_on_the_list_everyone_sees(
    table: Table, two_seats: None, logins: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = await join(table.pk, logins["alice"]), await join(table.pk, logins["bob"])
            carol, observer = await join(table.pk, logins["carol"]), await join(table.pk)
            await sit(alice, 1, 200)
            await sit(bob, 2, 200)
            await refused(carol, {"type": "sit", "seat": 1, "buy_in": 100}, "refused", "taken")
            snapshot = await ask(carol, {"type": "wait"})
            assert snapshot["table"]["waiting_list"] == ["carol"]
            assert snapshot["table"]["held_seats"] == []
            assert (snapshot["you"]["waiting_position"], snapshot["you"]["offer"]) == (1, None)
            seen = await until(observer, lambda s: s["table"]["waiting_list"] == ["carol"])
            assert seen["you"] is None
            theirs = await until(alice, lambda s: s["table"]["waiting_list"] == ["carol"])
            assert theirs["you"]["waiting_position"] is None

    run(scenario)


def test_a_seat_freed_is_offered_and_taken(
    table: Table, two_seats: None, logins: dict[str, str], no_broker: None
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await database_sync_to_async(_fill_seat_two)(table)
            carol = await join(table.pk, logins["carol"])
            await ask(carol, {"type": "wait"})
            await alice.receive_snapshot()
            await ask(alice, {"type": "leave"})  # no hand is running: she stands at once
            offered = await until(carol, lambda s: s["you"]["offer"] is not None)
            offer = offered["you"]["offer"]
            assert offer["seat"] == 1 and offered["table"]["held_seats"] == [1]
            expires = datetime.fromisoformat(offer["expires_at"])
            assert expires > timezone.now() + timedelta(seconds=25)
            seated = await ask(carol, {"type": "sit", "seat": 1, "buy_in": 100})
            assert seated["you"]["seat"] == 1 and seated["you"]["waiting_position"] is None
            assert seated["table"]["waiting_list"] == [] and seated["table"]["held_seats"] == []

    run(scenario)


def _fill_seat_two(table: Table) -> None:
    """Bob takes seat 2 with his chips on the table but sitting out: no hand is dealt."""
    bob = User.objects.get(username="bob")
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    services.seat_sit_out(table_id=table.pk, player_id=bob.pk)


def test_a_held_seat_is_refused_to_the_next_in_line(
    table: Table, two_seats: None, logins: dict[str, str], no_broker: None
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await database_sync_to_async(_fill_seat_two)(table)
            carol, dave = (
                await join(table.pk, logins["carol"]),
                await join(table.pk, logins["dave"]),
            )
            await ask(carol, {"type": "wait"})
            waiting = await ask(dave, {"type": "wait"})
            assert waiting["you"]["waiting_position"] == 2
            assert waiting["table"]["waiting_list"] == ["carol", "dave"]
            await ask(alice, {"type": "leave"})
            await refused(
                dave,
                {"type": "sit", "seat": 1, "buy_in": 100},
                "refused",
                "seat 1 is held for the next player on the waiting list",
            )

    run(scenario)


def test_an_expired_offer_passes_on_and_the_table_is_told(
    table: Table, two_seats: None, logins: dict[str, str], no_broker: None
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await database_sync_to_async(_fill_seat_two)(table)
            carol, dave = (
                await join(table.pk, logins["carol"]),
                await join(table.pk, logins["dave"]),
            )
            await ask(carol, {"type": "wait"})
            await ask(dave, {"type": "wait"})
            await ask(alice, {"type": "leave"})
            offered = await until(carol, lambda s: s["you"]["offer"] is not None)
            assert offered["you"]["offer"]["seat"] == 1
            await drain(dave)
            await database_sync_to_async(_expire_offers)()
            passed = await dave.receive_snapshot()  # told by the sweep, unasked
            assert passed["you"]["offer"]["seat"] == 1
            assert passed["table"]["waiting_list"] == ["dave"]
            gone = await carol.receive_snapshot()
            assert (gone["you"]["waiting_position"], gone["you"]["offer"]) == (None, None)

    run(scenario)


def _expire_offers() -> None:
    offered = WaitingPlayer.objects.filter(offered_seat__isnull=False)
    offered.update(offer_expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.pass_expired_seat_offers() == 1


def test_wait_with_a_seat_free_and_unwait_off_the_list_are_refused(
    table: Table, logins: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            carol = await join(table.pk, logins["carol"])
            await refused(carol, {"type": "wait"}, "refused", "seat 1 at Table 1 is free")
            await refused(carol, {"type": "unwait"}, "refused", "not on the waiting list")

    run(scenario)


def test_unwait_takes_you_off_the_list(
    table: Table, two_seats: None, logins: dict[str, str], no_broker: None
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice = await join(table.pk, logins["alice"])
            await sit(alice, 1, 200)
            await database_sync_to_async(_fill_seat_two)(table)
            carol = await join(table.pk, logins["carol"])
            await ask(carol, {"type": "wait"})
            await refused(carol, {"type": "wait"}, "refused", "already on the waiting list")
            snapshot = await ask(carol, {"type": "unwait"})
            assert snapshot["table"]["waiting_list"] == []
            assert snapshot["you"]["waiting_position"] is None

    run(scenario)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "top_up", "amount": 10},
        {"type": "rebuy", "amount": 100},
        {"type": "auto_rebuy", "amount": None},
        {"type": "wait"},
        {"type": "unwait"},
    ],
)
def test_an_observer_must_log_in_for_chips_or_the_list(
    table: Table, message: dict[str, Any]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            observer = await join(table.pk)
            await refused(observer, message, "login_required", "log in to")

    run(scenario)
