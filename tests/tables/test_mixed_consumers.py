"""The dealer's call over the table's websocket: everyone sees the dealer
choosing, with the clock; only the dealer's call of a game on the list that
fits is taken, and it deals the hand at once. Every refusal changes nothing.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tables.models import Hand, Stakes, Table, TableGame
from tests.tables.test_consumers import room, run, sit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def choice(stakes: Stakes) -> Table:
    """Dealer's choice of stud, Baseball and roll your own at the stakes' sizes."""
    table = Table.objects.create(name="Home", stakes=stakes, policy="dealers_choice")
    for position, variant in enumerate(["stud", "baseball", "roll_your_own"]):
        TableGame.objects.create(table=table, position=position, variant=variant)
    return table


@database_sync_to_async
def hands_at(table: Table) -> list[tuple[str, dict[str, str] | None]]:
    return [(hand.variant, hand.call) for hand in Hand.objects.filter(table=table)]


def test_the_dealer_calls_the_game_and_everyone_sees_it(
    choice: Table, cookies: dict[str, str]
) -> None:
    async def scenario() -> None:
        async with room() as join:
            alice, bob = (
                await join(choice.pk, cookies["alice"]),
                await join(choice.pk, cookies["bob"]),
            )
            await sit(alice, 1)
            await bob.receive_snapshot()
            await sit(bob, 2)
            waiting = await alice.receive_snapshot()
            # No hand yet: alice, the first dealer, is calling, with her clock.
            call = waiting["table"]["call"]
            assert waiting["hand"] is None and waiting["table"]["waiting"] == "call"
            assert (call["seat"], call["player"]) == (1, "alice")
            assert [game["name"] for game in call["games"]] == [
                "Seven-card stud",
                "Baseball",
                "Roll your own",
            ]
            assert call["games"][1]["game"].startswith("Baseball, 5/10")
            timer = await alice.receive_any()  # the dealer's clock follows the snapshot
            assert (timer["type"], timer["seat"]) == ("timer", 1)
            assert timer["expires_at"] == call["timer"]["expires_at"]
            assert (
                waiting["table"]["mix"]["words"]
                == "Dealer’s choice · the dealer is calling the game"
            )
            # The rules of the game shown (the list's first) came on connecting.
            assert "rules" in alice.frames[0]["table"] and "rules" not in waiting["table"]

            # A viewer who joins during the call sees it.
            observer = await join(choice.pk)
            assert observer.last_snapshot["table"]["call"]["player"] == "alice"

            await observer.send({"type": "call_game", "game": 1})
            assert (await observer.receive())["code"] == "login_required"
            await bob.send({"type": "call_game", "game": 1})
            error = await bob.receive()
            assert (error["code"], error["message"]) == ("refused", "it is alice's call, not yours")
            await alice.send({"type": "call_game", "game": 9})
            error = await alice.receive()
            assert error["message"] == "there is no game 9 on this table's list"
            for bad in (
                {"type": "call_game", "game": "Baseball"},
                {"type": "call_game"},
                {"type": "call_game", "game": 1, "hand": 3},
            ):
                await alice.send(bad)
                assert (await alice.receive())["code"] == "bad_message"
            assert await hands_at(choice) == []

            await alice.send({"type": "call_game", "game": 1})
            dealt = await observer.receive_snapshot()
            info = dealt["hand_info"]
            assert (info["variant"], info["call"]) == ("baseball", {"by": "alice", "how": "called"})
            assert dealt["table"]["call"] is None
            assert dealt["table"]["stakes"].startswith("Baseball, 5/10")
            assert dealt["table"]["mix"]["words"] == "Dealer’s choice · Baseball"
            assert any(
                "nine" in words.lower() or "wild" in words.lower()
                for words in dealt["table"]["rules"]
            )

            await alice.receive_snapshot()
            await alice.send({"type": "call_game", "game": 2})
            error = await alice.receive()
            assert (
                error["message"]
                == f"hand #{info['number']} is already dealt; there is no game to call"
            )
            assert await hands_at(choice) == [("baseball", {"by": "alice", "how": "called"})]

    run(scenario)
