"""The bot players: their choices are always legal, and bots really play over websockets.

The strategy is checked against the rules engine alone, over many random hands.
The end-to-end test runs a real Daphne server and ``manage.py run_bots`` as two
other processes against the test database, so it needs PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.bots import (
    MAX_RECHOICES,
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
from tables.models import Table, TableGame
from tables.rules import HandState
from tables.rules.cards import card_str, parse_card
from tables.rules.config import GameConfig
from tables.rules.games import Game, games
from tables.rules.views import view
from tests.conftest import start_process, stop_process_group
from tests.rules.strategies import configs, decks, examples

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
    if "cards" in option:  # a roll or an exchange names one of the cards offered
        assert len(move["cards"]) == 1 and move["cards"][0] in option["cards"], (move, option)
    else:
        assert "cards" not in move, move


def mover(state: HandState, rng: random.Random) -> int:
    """The player to act, or one of those still to choose when all choose at once."""
    return state.to_act if state.to_act is not None else rng.choice(state.deciding())


def engine_move(state: HandState, player: int, move: dict[str, Any]) -> None:
    cards = move.get("cards")
    named = None if cards is None else [parse_card(card) for card in cards]
    state.act(player, move["action"], move.get("amount"), named)


@settings(max_examples=examples(150), deadline=None)
@given(
    config=configs(),
    stacks=st.lists(st.integers(1, 400), min_size=2, max_size=8),
    seed=st.integers(0, 2**32),
    deck=decks,
)
def test_the_bot_only_ever_chooses_a_legal_move(
    config: GameConfig, stacks: list[int], seed: int, deck: list[int]
) -> None:
    rng = random.Random(seed)
    state = HandState.new(config, stacks[: config.game.max_players], deck)  # Baseball seats 7
    for _ in range(MAX_MOVES):
        if state.finished:
            return
        player = mover(state, rng)
        seen = view(state, player)
        move = choose_action(seen, rng)
        assert_legal(move, seen["legal_actions"])
        if rng.random() < 0.3:  # wander off the bot's own line, to reach other states
            move = any_legal_move(rng.choice(seen["legal_actions"]), rng)
        engine_move(state, player, move)  # the engine agrees
    raise AssertionError("the hand never ended")


# Stakes per structure for the seeded hands below: ante 1, bring-in 2, and bets
# of 5 and 10 (a 5-10 spread; a minimum bet of 5 at pot and no limit).
def house_config(game: Game, rng: random.Random) -> GameConfig:
    return GameConfig.from_dict(
        {
            **game.example().to_dict(),
            "ante": 1,
            "bring_in": 2,
            "small_bet": 5,
            "big_bet": 10,
            "raise_at_least_last": rng.random() < 0.5,
            "short_all_in": rng.choice(["half", "full"]),
        }
    )


def any_legal_move(option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move off the bot's own line: any amount the option allows."""
    move: dict[str, Any] = {"action": option["kind"]}
    if option["kind"] in WAGERS:
        amounts = option["amounts"] or [rng.randint(option["min"], option["max"])]
        move["amount"] = rng.choice(amounts)
    if "cards" in option:
        move["cards"] = [rng.choice(option["cards"])]
    return move


@pytest.mark.parametrize(
    "game", games(), ids=lambda game: f"{game.variant.code}-{game.structure.code}"
)
def test_the_bot_chooses_a_legal_move_in_every_variant_and_structure(game: Game) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        stacks = [
            rng.choice([rng.randint(1, 60), rng.randint(100, 400)])
            for _ in range(rng.randint(2, 8))
        ][: game.variant.max_players]
        deck = rng.sample(range(52), 52)
        state = HandState.new(house_config(game, rng), stacks, deck)
        for _ in range(MAX_MOVES):
            if state.finished:
                break
            player = mover(state, rng)
            seen = view(state, player)
            move = choose_action(seen, rng)
            assert_legal(move, seen["legal_actions"])
            if rng.random() < 0.3:  # wander off the bot's own line, to reach other states
                move = any_legal_move(rng.choice(seen["legal_actions"]), rng)
            engine_move(state, player, move)  # the engine agrees
        assert state.finished, f"seed {seed}: the hand never ended"


def test_the_bot_refuses_to_choose_out_of_turn() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    observer = view(state, None)
    with pytest.raises(ValueError, match="not this viewer's turn"):
        choose_action(observer, random.Random(1))


def stud_view(up: list[str], down: list[str], variant: str = "stud") -> dict[str, Any]:
    """The viewer's cards in dealing order: two down, the upcards, then any 7th-street card."""
    order = [(card, False) for card in down[:2]] + [(card, True) for card in up]
    order += [(card, False) for card in down[2:]]
    me = {"cards": [{"card": card, "up": face} for card, face in order]}
    return {"variant": variant, "viewer": 0, "players": [me]}


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


@pytest.mark.parametrize("variant", ["razz", "london"])
def test_the_bot_judges_a_made_low_by_the_variants_evaluator(variant: str) -> None:
    eight_low = stud_view(["8d", "6c", "Kh", "Kd"], ["As", "3c", "2h"], variant)
    assert hand_strength(eight_low) == STRONG
    ten_low = stud_view(["Td", "9c", "Kh", "Kd"], ["As", "3c", "2h"], variant)
    assert hand_strength(ten_low) == MEDIUM


def test_the_bot_knows_a_wheel_is_no_low_in_london_lowball() -> None:
    # Ace-to-five: 5-4-3-2-A is the best low. Ace-to-six: it is a straight, and
    # the best low left is king high (K-5-4-3-2), no better than a draw.
    wheel = (["5d", "4c", "Kh", "Kd"], ["As", "3c", "2h"])
    assert hand_strength(stud_view(*wheel, "razz")) == STRONG
    assert hand_strength(stud_view(*wheel, "london")) == MEDIUM  # four low ranks: a draw


def test_the_bot_counts_a_qualifying_low_as_strong_in_hi_lo() -> None:
    no_pair_eight_low = stud_view(["8d", "6c", "Kh", "Qd"], ["As", "3c", "2h"], "stud8")
    assert hand_strength(no_pair_eight_low) == STRONG
    assert hand_strength(stud_view(["8d", "6c", "Kh", "Qd"], ["As", "3c", "2h"])) == MEDIUM


def test_the_bot_counts_the_community_card_as_its_own() -> None:
    six_cards = stud_view(["6d", "9c", "Th", "Kd"], ["2s", "4c"])
    assert hand_strength(six_cards) == MEDIUM  # king high
    assert hand_strength({**six_cards, "community": ["Ks"]}) == STRONG  # a pair of kings


def pot_limit_state(stacks: list[int]) -> HandState:
    """Razz, pot limit, minimum bet 5, ante 1, bring-in 2: the bring-in has been posted."""
    config = GameConfig(variant="razz", structure="pot", ante=1, bring_in=2, small_bet=5, big_bet=5)
    state = HandState.new(config, stacks, list(range(52)))
    state.act(state.to_act, "bring_in")
    return state


def test_a_strong_bot_sizes_its_pot_limit_wager_within_the_bounds() -> None:
    state = pot_limit_state([500, 500, 500])
    seen = view(state, state.to_act)
    (complete,) = [o for o in seen["legal_actions"] if o["kind"] == "complete"]
    assert complete["amounts"] is None and complete["min"] < complete["max"]
    strong = {**seen, "players": [*seen["players"]]}
    wheel_draw = stud_view(["2d"], ["As", "3c"])["players"][0]["cards"]
    strong["players"][state.to_act] = {**seen["players"][state.to_act], "cards": wheel_draw}
    rng = random.Random(3)
    sizes = {choose_action(strong, rng).get("amount") for _ in range(200)}
    sizes.discard(None)  # the odd bluff that calls
    assert sizes and all(complete["min"] <= size <= complete["max"] for size in sizes)
    assert len(sizes) > 1  # a share of the pot, not always the same total


def test_a_short_stack_bets_no_more_than_it_has_at_no_limit() -> None:
    config = GameConfig(variant="stud", structure="no", ante=1, bring_in=2, small_bet=5, big_bet=5)
    state = HandState.new(config, [9, 400], list(range(52)))
    rng = random.Random(5)
    while not state.finished:
        seen = view(state, state.to_act)
        move = choose_action(seen, rng)
        assert_legal(move, seen["legal_actions"])
        state.act(state.to_act, move["action"], move.get("amount"))


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


def decision_view(variant: str, cards: str, ups: str, options: list[dict[str, Any]]) -> dict:
    """The bot's view in a decision: its cards (``ups`` the face-up ones) and the options."""
    held = [parse_card(cards[i : i + 2]) for i in range(0, len(cards), 2)]
    up = {parse_card(ups[i : i + 2]) for i in range(0, len(ups), 2)}
    seat = {"cards": [{"card": card_str(c), "up": c in up} for c in held]}
    return {
        "variant": variant,
        "viewer": 0,
        "players": [seat],
        "community": [],
        "decision": "roll" if options[0]["kind"] == "roll" else "other",
        "legal_actions": options,
    }


def test_a_bot_rolls_the_card_that_shows_least() -> None:
    # K♥ 2♦ 2♠ down: rolling a deuce would show the pair, so the king goes up.
    roll = {"kind": "roll", "cards": ["Kh", "2d", "2s"]}
    seen = decision_view("roll_your_own", "Kh2d2s", "", [roll])
    assert choose_action(seen, random.Random(1)) == {"action": "roll", "cards": ["Kh"]}
    # Nothing paired: the lowest card goes up, keeping the high ones hidden.
    roll = {"kind": "roll", "cards": ["Kh", "5d", "9s"]}
    seen = decision_view("roll_your_own", "Kh5d9s", "", [roll])
    assert choose_action(seen, random.Random(1)) == {"action": "roll", "cards": ["5d"]}


def test_a_bot_stands_pat_on_a_strong_hand_and_swaps_its_least_card_otherwise() -> None:
    pat = {"kind": "stand_pat"}
    trips = "AhAdAc9h4c"
    exchange = {"kind": "exchange", "cards": ["Ah", "Ad", "Ac", "9h", "4c"], "min": None}
    seen = decision_view("english", trips, "Ac9h4c", [exchange, pat])
    assert choose_action(seen, random.Random(1)) == {"action": "stand_pat"}
    nothing = ["Kh", "Qd", "7c", "3h", "2s"]
    exchange = {"kind": "exchange", "cards": nothing, "min": None}
    seen = decision_view("english", "".join(nothing), "7c3h2s", [exchange, pat])
    assert choose_action(seen, random.Random(1)) == {"action": "exchange", "cards": ["2s"]}


@pytest.mark.parametrize(
    ("cards", "declaration"),
    [
        ("Ac2d3h4s6dKd9c", "declare_low"),  # a six low and no pair
        ("Ac2d3h4s5cKd9c", "declare_both"),  # a wheel: a straight and the best low
        ("KcKh7d9dJs6cTh", "declare_high"),  # kings, no low
        ("Ac2d3h4s6dAd9c", "declare_low"),  # a pair of aces, but a six low
        ("AcAdAh4s6d2d9c", "declare_high"),  # three aces and only a nine low
    ],
)
def test_a_bot_declares_the_way_its_hand_wins(cards: str, declaration: str) -> None:
    options = [{"kind": kind} for kind in ("declare_high", "declare_low", "declare_both")]
    seen = decision_view("declare", cards, "", options)
    assert choose_action(seen, random.Random(1)) == {"action": declaration}


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


def test_a_dealer_bot_calls_a_game_offered_once_per_call() -> None:
    me = bot()
    message = snapshot(1)
    games = [{"position": 0, "name": "Razz"}, {"position": 3, "name": "Baseball"}]
    message["table"]["call"] = {"number": 4, "seat": 1, "games": games}
    reply = me.answer(message)
    assert reply is not None and reply["type"] == "call_game" and reply["game"] in (0, 3)
    assert me.answer(message) is None  # the same call again: already answered
    message["table"]["call"] = {"number": 5, "seat": 3, "games": games}
    assert me.answer(message) is None  # bob's call, not the bot's


def test_a_busted_bot_stands_up_to_buy_in_again() -> None:
    assert bot().answer(snapshot(1, stack=0)) == {"type": "leave"}


@pytest.mark.parametrize("code", ["stale", "refused", "rate_limited"])
def test_a_bot_asks_for_a_snapshot_without_the_replay_after_an_error_one_can_mend(
    code: str,
) -> None:
    error = {"type": "error", "code": code, "message": "moved on"}
    assert bot().answer(error) == {"type": "snapshot", "replay": False}


@pytest.mark.parametrize("code", ["bad_message", "login_required"])
def test_a_bot_asks_for_nothing_after_an_error_no_snapshot_can_mend(code: str) -> None:
    me = bot()
    me.answer(snapshot(None))
    assert me.answer({"type": "error", "code": code, "message": "no"}) is None


def test_a_bot_chooses_again_from_its_snapshot_when_the_rules_refuse_its_move() -> None:
    state = HandState.new(GameConfig(ante=1, bring_in=1), [100, 100])
    me = bot()
    first = me.answer(snapshot(1, hand=view(state, state.to_act)))
    illegal = {"type": "error", "code": "illegal", "message": "no such raise"}
    for _ in range(MAX_RECHOICES):
        again = me.answer(illegal)
        assert again is not None and first is not None
        assert (again["type"], again["turn"], again["hand"]) == ("act", first["turn"], 17)
    assert me.answer(illegal) is None  # refused too often: left to the turn clock


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
    # Hours of failures in a row: still the cap, not an overflow.
    assert MAX_RECONNECT_SECONDS / 2 <= me.reconnect_delay(5000) <= MAX_RECONNECT_SECONDS


class FakeSocket:
    """Plays the server: hands the bot ``messages``, one a frame numbered 1, 2, 3…
    unless it has a ``seq``, then stays open for ``linger`` seconds."""

    def __init__(self, messages: list[dict[str, Any]], linger: float = 0.1) -> None:
        numbered = [{"seq": seq, **message} for seq, message in enumerate(messages, start=1)]
        self.messages = [json.dumps(message) for message in numbered]
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
    heard: list[dict[str, Any]] = field(default_factory=list)
    said: list[dict[str, Any]] = field(default_factory=list)

    def think(self, bot: Bot, snapshot: dict[str, Any]) -> float | None:
        return self.delay

    def received(self, bot: Bot, message: dict[str, Any]) -> None:
        self.heard.append(message)

    def sent(self, bot: Bot, message: dict[str, Any]) -> None:
        self.said.append(message)

    @property
    def received_types(self) -> list[str]:
        return [message["type"] for message in self.heard]

    @property
    def sent_types(self) -> list[str]:
        return [message["type"] for message in self.said]


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


def test_a_bot_asks_for_a_snapshot_after_a_gap_in_seq_only_if_the_frame_brings_none() -> None:
    chat = {"type": "chat", "id": 1, "from": "bob", "text": "hi", "at": "2026-01-01T00:00:00Z"}
    seated = snapshot(1)
    me = bot()
    server = play(me, [seated, {**chat, "seq": 3}, {**seated, "seq": 5}, {**chat, "seq": 6}])
    assert server.sent == [{"type": "snapshot", "replay": False}]


@pytest.mark.django_db
def test_run_bots_refuses_a_negative_think_time(table: Table) -> None:
    with pytest.raises(CommandError, match="--think"):
        call_command("run_bots", "--table", str(table.pk), "--think", "-1")


# -------------------------------------------------- bots over real websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "variant",
    [
        "stud",
        "mississippi",
        "deuces",
        "queens",
        "man_with_the_axe",
        "baseball",
        "roll_your_own",
        "english",
        "declare",
    ],
)
def test_three_bots_play_hands_over_real_websockets_and_every_chip_is_accounted_for(
    daphne: str, server_env: dict[str, str], table: Table, tmp_path: Path, variant: str
) -> None:
    table.stakes.variant = variant  # Mississippi: a script with two deals in a row
    table.stakes.save(update_fields=["variant"])
    log = three_bots_play(table, daphne, server_env, tmp_path, hands=2, seed=1)
    assert "Bots disconnected." in log
    assert table.seat_set.filter(player__username__startswith="bot-").count() == 3
    call_command("audit_chips")  # raises CommandError on any difference


def three_bots_play(
    table: Table, daphne: str, env: dict[str, str], tmp_path: Path, *, hands: int, seed: int
) -> str:
    """``manage.py run_bots`` with three bots at ``table`` until ``hands`` hands
    have ended (in 30 seconds), then Ctrl-C; its output."""
    argv = [sys.executable, "manage.py", "run_bots", "--table", str(table.pk), "--count", "3"]
    argv += ["--url", daphne, "--seed", str(seed)]
    log = tmp_path / "bots.log"
    bots = start_process(argv, env, log)
    try:
        deadline = time.monotonic() + 30
        while table.hands.filter(ended_at__isnull=False).count() < hands:
            assert bots.poll() is None, "the bots stopped"
            assert time.monotonic() < deadline, "the bots finished too few hands"
            time.sleep(0.2)
        bots.send_signal(signal.SIGINT)  # Ctrl-C
        assert bots.wait(timeout=15) == 0
    finally:
        stop_process_group(bots)
        print(log.read_text())
    return log.read_text()


@pytest.mark.django_db(transaction=True)
def test_bots_call_the_games_at_dealers_choice(
    daphne: str, server_env: dict[str, str], table: Table, tmp_path: Path
) -> None:
    """Each hand's dealer, a bot, calls a game from the list, and the bots play it."""
    Table.objects.filter(pk=table.pk).update(policy="dealers_choice")
    for position, variant in enumerate(["razz", "baseball", "english", "stud8"]):
        TableGame.objects.create(table=table, position=position, variant=variant)
    three_bots_play(table, daphne, server_env, tmp_path, hands=4, seed=2)
    hands = list(table.hands.order_by("number"))
    # Every hand was called by its dealer, a bot, in time.
    for hand in hands[:4]:
        assert hand.call is not None and hand.call["how"] == "called", hand.call
        names = dict(zip(hand.seat_numbers(), hand.player_names(), strict=True))
        assert hand.call["by"] == names[hand.dealer_seat]
    assert len({hand.variant for hand in hands}) >= 2
    assert {hand.variant for hand in hands} <= {"razz", "baseball", "english", "stud8"}
    call_command("audit_chips")
