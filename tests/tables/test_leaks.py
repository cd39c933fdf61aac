"""No websocket frame ever carries a down card its viewer may not see.

Alice, bob and carol play random legal moves (seeded) picked from their own
snapshots while an anonymous observer watches. After every step, every frame
every connection received is checked against the database: for each hand it
mentions, no string in it may be a down card of another seat not yet shown.
The observer, seated nowhere, may see no down card before its owner shows it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from tables import services
from tables.models import Hand, Table
from tables.rules import HandState
from tables.rules.cards import card_str
from tables.selectors.snapshots import build_snapshot, read_table
from tests.tables.conftest import bet_and_call, play_out, session_of
from tests.tables.test_consumers import Socket, room, run
from tests.tables.test_history_access import MUCK_DECK, deal_next

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = 4
WAGERS = ("bet", "raise", "complete")


@database_sync_to_async
def hidden_from(hand_id: int, player_id: int | None) -> set[str]:
    """Down cards of hand ``hand_id`` that ``player_id`` (None: observer) may
    not see now: another seat's unshown down cards (a roll not yet revealed
    among them), and any down card another seat exchanged away."""
    hand = Hand.objects.get(pk=hand_id)
    state = HandState.from_dict(hand.state)
    hidden = set()
    others = set()
    for index, entry in enumerate(hand.seating["players"]):
        if entry["player"] != player_id:
            others.add(index)
            if not state.shown[index]:
                hidden |= {card_str(card) for card in state.downcards(index)}
    for event in state.events:
        if event["type"] == "exchange" and not event["up"] and event["player"] in others:
            hidden.add(card_str(event["card"]))
    return hidden


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(strings_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(strings_in, value)) if value else set()
    return set()


def hand_of(frame: dict[str, Any]) -> int | None:
    if frame["type"] == "event":
        return frame["hand_id"]
    if frame["type"] == "snapshot" and frame["hand_info"] is not None:
        return frame["hand_info"]["id"]
    return None


async def assert_no_leak(socket: Socket, player_id: int | None, frames: list[dict]) -> None:
    for frame in frames:
        hand_id = hand_of(frame)
        if hand_id is not None:
            leaked = strings_in(frame) & await hidden_from(hand_id, player_id)
            assert not leaked, f"player {player_id} was sent {leaked} in {frame}"


def choose(rng: random.Random, snapshot: dict[str, Any]) -> dict[str, Any]:
    options = snapshot["hand"]["legal_actions"]
    # Folding rarely, so that hands often reach the last down card and the showdown.
    stay = [option for option in options if option["kind"] != "fold"]
    option = rng.choice(stay if stay and rng.random() < 0.85 else options)
    message = {"type": "act", "action": option["kind"], "turn": snapshot["hand"]["turn"]}
    if option["kind"] in WAGERS:
        message["amount"] = rng.choice(option["amounts"])
    if "cards" in option:  # a roll or an exchange
        message["cards"] = [rng.choice(option["cards"])]
    return message


@pytest.mark.parametrize("variant", ["stud", "roll_your_own", "english"])
def test_random_hands_never_send_anyone_a_card_they_may_not_see(
    table: Table, alice: User, bob: User, carol: User, settings: Any, variant: str
) -> None:
    """Stud, and the games with decisions: roll your own's rolls, hidden
    until everyone has rolled, and English stud's exchanged down cards."""
    table.stakes.variant = variant
    table.stakes.save(update_fields=["variant"])
    # No Celery worker here: each hand is dealt the moment the last one ends.
    settings.CARDROOM_TURN_TASKS = False
    # Moves come as fast as the server answers, faster than any player's; this
    # test is about what each frame shows, not about the rate limit.
    settings.CARDROOM_WS_MESSAGE_LIMIT = 1000
    players = [alice, bob, carol]
    cookies = [session_of(user) for user in players]
    rng = random.Random(20240611)

    async def scenario() -> None:
        async with room() as join:
            sockets = [await join(table.pk, cookie) for cookie in cookies]
            observer = await join(table.pk)
            viewers = [(s, u.pk) for s, u in zip(sockets, players, strict=True)]
            viewers.append((observer, None))
            seen = {id(s): len(s.frames) for s, _ in viewers}
            for seat, socket in zip((1, 2, 4), sockets, strict=True):
                await socket.send({"type": "sit", "seat": seat, "buy_in": 200})
                for each, _ in viewers:
                    await each.receive_snapshot()
            hands_started = 1
            while hands_started <= HANDS:
                mover = next(s for s in sockets if s.last_snapshot["hand"]["legal_actions"])
                number = mover.last_snapshot["hand_info"]["number"]
                await mover.send(choose(rng, mover.last_snapshot))
                for each, player_id in viewers:
                    await each.receive_snapshot()
                    await assert_no_leak(each, player_id, each.frames[seen[id(each)] :])
                    seen[id(each)] = len(each.frames)
                hands_started = max(hands_started, number + 1)
                if observer.last_snapshot["hand"]["result"] is not None:
                    break  # a hand ended and no new one could start (someone is broke)
            # One hand costs at most 161 of a 200 stack, so at least three are dealt.
            assert hands_started >= 3, "the test should watch several hands"
            for each, _ in viewers:
                assert await each.quiet()
            frames = sum(len(each.frames) for each, _ in viewers)
            assert frames > 100  # the check above really looked at a lot of play

    run(scenario)


def test_a_hand_mucked_at_the_showdown_is_named_to_its_player_alone(
    seated: Table, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On MUCK_DECK bob makes aces full and shows; alice's hand can't win and is
    mucked for her (auto-muck). She is told what it was; bob and an observer
    only that she mucked, from the same rows, as the consumers build them."""
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_out(services.hand_start(table_id=seated.pk), bet_and_call)
    state = HandState.from_dict(hand.state)
    her = [entry["player"] for entry in hand.seating["players"]].index(alice.pk)
    assert state.mucked[her] and not state.shown[her]
    words = state.hand_words(her)
    rows = read_table(seated.pk)
    mine = build_snapshot(rows, alice.pk, None, with_events=True).payload["hand"]
    assert mine["your_hand"] == words
    for viewer in (bob.pk, None):
        snapshot = build_snapshot(rows, viewer, None, with_events=True)
        assert snapshot.payload["hand"]["your_hand"] is None
        assert snapshot.payload["hand"]["players"][her]["mucked"] is True
        assert words["high"] not in json.dumps([snapshot.payload, snapshot.events])
