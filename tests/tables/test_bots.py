"""The bot players: their choices are always legal, and bots really play over websockets.

The strategy is checked against the rules engine alone, over many random hands.
The end-to-end test runs a real Daphne server and ``manage.py run_bots`` as two
other processes against the test database, so it needs PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.runner import free_port
from tables.bots import (
    MAX_RECONNECT_SECONDS,
    MEDIUM,
    RECONNECT_SECONDS,
    STRONG,
    WAGERS,
    WEAK,
    Bot,
    BotHooks,
    choose_action,
    hand_strength,
)
from tables.models import Table
from tables.rules import HandState
from tables.rules.config import GameConfig
from tables.rules.views import view
from tests.conftest import live_database_url, stop_process_group
from tests.rules.strategies import configs, examples

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MAX_MOVES = 200


# ------------------------------------------------------------------ strategy


def assert_legal(move: dict[str, Any], options: list[dict[str, Any]]) -> None:
    by_kind = {option["kind"]: option for option in options}
    assert move["action"] in by_kind, (move, options)
    option = by_kind[move["action"]]
    if move["action"] in WAGERS:
        allowed = option["amounts"] or range(option["min"], option["max"] + 1)
        assert move["amount"] in allowed, (move, option)
    else:
        assert "amount" not in move, move


@settings(max_examples=examples(150), deadline=None)
@given(
    config=configs(),
    stacks=st.lists(st.integers(1, 400), min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
)
def test_the_bot_only_ever_chooses_a_legal_move(
    config: GameConfig, stacks: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    state = HandState.new(config, stacks)
    for _ in range(MAX_MOVES):
        if state.finished:
            return
        seen = view(state, state.to_act)
        move = choose_action(seen, rng)
        assert_legal(move, seen["legal_actions"])
        if rng.random() < 0.3:  # wander off the bot's own line, to reach other states
            option = rng.choice(seen["legal_actions"])
            move = {"action": option["kind"], "amount": option["min"]}
        state.act(state.to_act, move["action"], move.get("amount"))  # the engine agrees
    raise AssertionError("the hand never ended")


def test_the_bot_refuses_to_choose_out_of_turn() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    observer = view(state, None)
    with pytest.raises(ValueError, match="not this viewer's turn"):
        choose_action(observer, random.Random(1))


def stud_view(up: list[str], down: list[str], variant: str = "stud") -> dict[str, Any]:
    return {"variant": variant, "viewer": 0, "players": [{"up": up, "down": down}]}


@pytest.mark.parametrize(
    ("up", "down", "strength"),
    [
        (["Kd"], ["Ks", "4c"], STRONG),  # a pair
        (["Kd", "9h", "2c", "7s"], ["3s", "4c", "Jd"], MEDIUM),  # king high
        (["6d"], ["2s", "9c"], WEAK),  # nothing
        (["6d", "6c"], ["2s", "9c", "Ts"], STRONG),  # five cards: the evaluator says a pair
    ],
)
def test_the_bot_judges_high_hands_from_its_own_cards(
    up: list[str], down: list[str], strength: int
) -> None:
    assert hand_strength(stud_view(up, down)) == strength


def test_the_bot_judges_razz_hands_by_their_low_cards() -> None:
    assert hand_strength(stud_view(["3d"], ["As", "5c"], "razz")) == STRONG
    assert hand_strength(stud_view(["Kd"], ["Qs", "5c"], "razz")) == WEAK


def test_a_strong_bot_raises_and_a_weak_one_folds_to_a_bet() -> None:
    options = [
        {"kind": "fold", "min": None, "max": None, "amounts": None},
        {"kind": "call", "min": 3, "max": 3, "amounts": [3]},
        {"kind": "raise", "min": 10, "max": 10, "amounts": [10]},
    ]
    strong = {**stud_view(["Ad"], ["As", "7c"]), "legal_actions": options}
    weak = {**stud_view(["6d"], ["2s", "9c"]), "legal_actions": options}
    rng = random.Random(7)
    moves = [choose_action(strong, rng)["action"] for _ in range(100)]
    assert moves.count("raise") > 80
    moves = [choose_action(weak, rng)["action"] for _ in range(100)]
    assert moves.count("fold") > 50


# -------------------------------------------------------------- the client


def snapshot(seat: int | None, *, stack: int = 200, hand: dict | None = None) -> dict[str, Any]:
    seats = [{"number": 3, "player": "bob", "stack": 200, "state": "playing"}]
    if seat is not None:
        seats.append({"number": seat, "player": "bot-1", "stack": stack, "state": "playing"})
    info = None if hand is None else {"id": 17, "seats": [seat, 3], "finished": False}
    return {
        "type": "snapshot",
        "table": {"seats": seats},
        "hand": hand,
        "hand_info": info,
        "you": {"player": 1, "seat": seat},
    }


def bot() -> Bot:
    return Bot(name="bot-1", cookie="", url="ws://x", table_id=1, buy_in=100, seats=3)


def test_a_standing_bot_sits_in_a_free_seat() -> None:
    reply = bot().answer(snapshot(None))
    assert reply is not None
    assert reply["type"] == "sit" and reply["seat"] in (1, 2) and reply["buy_in"] == 100


def test_a_bot_answers_its_turn_once_naming_the_turn_and_the_hand() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    me = bot()
    message = snapshot(1, hand=view(state, state.to_act))
    reply = me.answer(message)
    assert reply is not None
    assert (reply["type"], reply["turn"], reply["hand"]) == ("act", state.turn, 17)
    assert me.answer(message) is None  # the same snapshot again: already answered


def test_a_busted_bot_stands_up_to_buy_in_again() -> None:
    assert bot().answer(snapshot(1, stack=0)) == {"type": "leave"}


def test_a_bot_asks_for_a_snapshot_after_an_error() -> None:
    error = {"type": "error", "code": "stale", "message": "moved on"}
    assert bot().answer(error) == {"type": "snapshot"}


def test_a_bot_asks_for_a_seat_once_until_the_server_answers() -> None:
    me = bot()
    assert (me.answer(snapshot(None)) or {}).get("type") == "sit"
    # Snapshots sent before the server saw the request still show it standing.
    assert me.answer(snapshot(None)) is None
    me.answer({"type": "error", "code": "refused", "message": "seat 1 is taken"})
    assert (me.answer(snapshot(None)) or {}).get("type") == "sit"


def test_a_bot_waits_longer_after_each_failed_reconnect_up_to_a_cap() -> None:
    me = bot()
    assert RECONNECT_SECONDS / 2 <= me.reconnect_delay(0) <= RECONNECT_SECONDS
    assert me.reconnect_delay(3) >= 4 * RECONNECT_SECONDS
    assert me.reconnect_delay(50) <= MAX_RECONNECT_SECONDS


class FakeSocket:
    """Plays the server: hands the bot ``messages``, then stays open for ``linger`` seconds."""

    def __init__(self, messages: list[dict[str, Any]], linger: float = 0.1) -> None:
        self.messages = [json.dumps(message) for message in messages]
        self.linger = linger
        self.sent: list[dict[str, Any]] = []

    async def __aiter__(self) -> AsyncIterator[str]:
        for message in self.messages:
            yield message
        await asyncio.sleep(self.linger)

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


@dataclass
class Recorder(BotHooks):
    """Thinks for ``delay`` seconds (None: never moves) and keeps what the bot hears and says."""

    delay: float | None
    received_types: list[str] = field(default_factory=list)
    sent_types: list[str] = field(default_factory=list)

    def think(self, bot: Bot, snapshot: dict[str, Any]) -> float | None:
        return self.delay

    def received(self, bot: Bot, message: dict[str, Any]) -> None:
        self.received_types.append(message["type"])

    def sent(self, bot: Bot, message: dict[str, Any]) -> None:
        self.sent_types.append(message["type"])


def turn_snapshot(state: HandState) -> dict[str, Any]:
    return snapshot(1, hand=view(state, state.to_act))


def play(me: Bot, messages: list[dict[str, Any]]) -> FakeSocket:
    server = FakeSocket(messages)
    asyncio.run(me.play(server))
    return server


def test_a_bot_moves_after_its_think_time_and_its_hooks_hear_everything() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    hooks = Recorder(delay=0.02)
    me = Bot(name="bot-1", cookie="", url="ws://x", table_id=1, buy_in=100, seats=3, hooks=hooks)
    server = play(me, [turn_snapshot(state)])
    assert [message["type"] for message in server.sent] == ["act"]
    assert (hooks.received_types, hooks.sent_types) == (["snapshot"], ["act"])


def test_a_bot_told_not_to_think_of_a_move_leaves_its_turn_to_the_clock() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    me = Bot(name="bot-1", cookie="", url="ws://x", table_id=1, buy_in=100, hooks=Recorder(None))
    message = turn_snapshot(state)
    server = play(me, [message, message])
    assert server.sent == []


def test_a_move_still_being_thought_about_is_dropped_once_its_turn_has_passed() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    me = Bot(name="bot-1", cookie="", url="ws://x", table_id=1, buy_in=100, hooks=Recorder(0.05))
    later = snapshot(1, hand=view(state, None))  # the clock moved the hand on; not our turn
    later["hand"]["turn"] = state.turn + 1
    server = play(me, [turn_snapshot(state), later])
    assert server.sent == []


@pytest.mark.django_db
def test_run_bots_refuses_a_negative_think_time(table: Table) -> None:
    with pytest.raises(CommandError, match="--think"):
        call_command("run_bots", "--table", str(table.pk), "--think", "-1")


# -------------------------------------------------- bots over real websockets


@pytest.fixture
def server_env(require_services: bool) -> dict[str, str]:
    """The environment for a server and bots on the test database (PostgreSQL only)."""
    if connection.vendor == "sqlite":
        assert not require_services, "REQUIRE_SERVICES=1 but the database is SQLite"
        pytest.skip("Daphne is another process: it needs PostgreSQL (DATABASE_URL)")
    env = {**os.environ, "DATABASE_URL": live_database_url()}
    # No worker runs here, so hands follow one another at once.
    env["CARDROOM_TURN_TASKS"] = "false"
    if django_settings.REDIS_URL:
        env["REDIS_URL"] = django_settings.REDIS_URL
    return env


@pytest.fixture
def daphne(server_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """A real Daphne server on a free port; its websocket URL."""
    port = free_port()
    argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    log = tmp_path / "daphne.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [*argv, "cardroom.asgi:application"],
            cwd=PROJECT_ROOT,
            env=server_env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_port(port, server)
        yield f"ws://127.0.0.1:{port}"
    finally:
        stop_process_group(server)
        print(log.read_text())  # shown by pytest only when the test fails


def wait_for_port(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert server.poll() is None, "Daphne exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("Daphne did not start listening")


@pytest.mark.django_db(transaction=True)
def test_three_bots_play_hands_over_real_websockets_and_every_chip_is_accounted_for(
    daphne: str, server_env: dict[str, str], table: Table, tmp_path: Path
) -> None:
    argv = [sys.executable, "manage.py", "run_bots", "--table", str(table.pk), "--count", "3"]
    argv += ["--url", daphne, "--seed", "1"]
    log = tmp_path / "bots.log"
    with log.open("wb") as output:
        bots = subprocess.Popen(
            argv,
            cwd=PROJECT_ROOT,
            env=server_env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while table.hands.filter(ended_at__isnull=False).count() < 2:
            assert bots.poll() is None, "the bots stopped"
            assert time.monotonic() < deadline, "the bots finished no hands"
            time.sleep(0.2)
        bots.send_signal(signal.SIGINT)  # Ctrl-C
        assert bots.wait(timeout=15) == 0
    finally:
        stop_process_group(bots)
        print(log.read_text())
    assert "Bots disconnected." in log.read_text()
    assert table.seat_set.filter(player__username__startswith="bot-").count() == 3
    call_command("audit_chips")  # raises CommandError on any difference
