"""Bot players: a simple strategy, and a websocket client that plays it at a table.

:func:`choose_action` is pure: it reads one snapshot's ``hand`` (the view
:func:`tables.rules.views.view` gives the bot) and picks one of its
``legal_actions``, valuing its own cards with the variant's evaluator, in any
variant and betting structure. :class:`Bot` is the client: it connects to the table's
websocket like a browser does (``docs/protocol.md``), sits down, and answers
every snapshot in which it is to act. It never touches the database, so a bot
can play against any server it can reach. ``manage.py run_bots`` starts them.

:class:`BotHooks` decides how long a bot thinks before each move (or whether it
lets its turn clock run out) and hears every message it sends and receives;
``bench/load.py`` measures the server through them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from tables.rules.cards import low_rank, parse_card, rank, suit
from tables.rules.evaluators import STRAIGHT, Evaluator
from tables.rules.evaluators.wild import wild_mask
from tables.rules.variants import Variant, get_variant

logger = logging.getLogger(__name__)

WEAK, MEDIUM, STRONG = 0, 1, 2
AGGRESSIVE = ("raise", "bet", "complete")
PASSIVE = ("check", "call", "bring_in")
WAGERS = frozenset(AGGRESSIVE)
# Chance of playing against the hand's strength, so bots are not an open book.
BLUFF = 0.1
FOLD_WEAK = 0.75
# Where any total from min to max is allowed (spread, pot and no limit), a
# bot's wager is this share of the pot after its call, at random between the
# two, clamped to what is allowed.
POT_SHARE = (0.5, 1.0)
# The evaluator's rough strength of five or more cards that a bot calls
# strong: a pair for high (and hi-lo, where a qualifying low is stronger
# still), an eight low for a low-only game; and middling: a ten low.
STRONG_HIGH, STRONG_LOW, MEDIUM_LOW = 1 / 8, 5 / 8, 3 / 8
# After a lost connection a bot waits this long, doubled for each failure in a
# row up to the maximum and jittered, so a struggling server is not stormed.
RECONNECT_SECONDS = 1.0
MAX_RECONNECT_SECONDS = 30.0
# Enough doublings of RECONNECT_SECONDS to pass MAX_RECONNECT_SECONDS.
MAX_RECONNECT_DOUBLINGS = 8
MAX_SIT_REFUSALS = 8
# After the server says a bot sends too much, it waits about this long before
# asking again, so that its asking doesn't keep it over the limit.
RATE_LIMITED_SECONDS = 1.0
# The errors after which a bot's view may be behind (a move beaten to it, a
# seat taken meanwhile) or its message was not acted on: a snapshot helps.
# After "illegal" the view was current (the move named its turn), so the bot
# chooses again from it; no snapshot mends a "bad_message" or "login_required".
RESYNC_ERRORS = frozenset({"stale", "refused", "rate_limited"})
# A move the rules refuse is chosen again at most this many times in a row,
# and then left to the turn clock, so a strategy's bug can't loop.
MAX_RECHOICES = 3


# ---------------------------------------------------------------- strategy


def choose_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of the view's legal actions: ``{"action": kind}``, plus ``"amount"`` for wagers.

    Strong hands bet and raise, middling ones call, weak ones check or fold to
    a bet; now and then a bot does otherwise. Raises ValueError if the view
    offers nothing to do (it is not the viewer's turn).
    """
    options = {option["kind"]: option for option in view["legal_actions"]}
    if not options:
        raise ValueError("no legal actions: it is not this viewer's turn")
    if view.get("decision") is not None:
        return choose_decision(view, options)
    strength = hand_strength(view)
    if rng.random() < BLUFF:
        strength = rng.choice((WEAK, MEDIUM, STRONG))
    kind = _pick_kind(options, strength, rng)
    return _move(options[kind], view, rng)


def choose_game(call: dict[str, Any], rng: random.Random) -> int:
    """At dealer's choice, the game a bot calls: any of those offered, at random,
    so that a table of bots plays its whole list. ``call`` is the snapshot's
    ``table.call``; its position in the table's list is what the bot sends.

    >>> call = {"games": [{"position": 0, "name": "Razz"}, {"position": 2, "name": "Baseball"}]}
    >>> choose_game(call, random.Random(3)) in (0, 2)
    True
    """
    options = call["games"]
    if not options:
        raise ValueError("no game to call")
    position: int = rng.choice(options)["position"]
    return position


def choose_decision(view: dict[str, Any], options: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A roll, an exchange or a declaration, judged from the bot's own cards.

    - **Roll**: show the least: the card that pairs nothing the bot holds,
      lowest first in a high game and highest first in a low one.
    - **Exchange**: a strong hand stands pat; otherwise the card that helps
      least goes, by the same measure.
    - **Declare**: low with a made eight or better low and no straight or
      better for high; both with a six low and a straight or better; else high.
    """
    game = game_of(view)
    me = view["players"][view["viewer"]]
    mine = [parse_card(held["card"]) for held in me["cards"] if held["card"] is not None]
    if "roll" in options:
        return {"action": "roll", "cards": [_least_card(options["roll"]["cards"], mine, game)]}
    if "exchange" in options:
        if hand_strength(view) == STRONG:
            return {"action": "stand_pat"}
        card = _least_card(options["exchange"]["cards"], mine, game)
        return {"action": "exchange", "cards": [card]}
    if "stand_pat" in options:
        return {"action": "stand_pat"}
    # The view marks the cards wild in the bot's hand (a wild game played high-low).
    wild = wild_mask(parse_card(held["card"]) for held in me["cards"] if held.get("wild"))
    return {"action": _declaration(mine, game.evaluator, wild)}


def game_of(view: dict[str, Any]) -> Variant:
    """The game the view's hand is dealt: its variant, played high-low with
    declare where the table says so."""
    game = get_variant(view["variant"])
    return game.high_low_declare() if view.get("high_low_declare") else game


def _least_card(choices: list[str], mine: list[int], game: Variant) -> str:
    """Of ``choices``, the card that pairs nothing in ``mine`` and is lowest
    (highest in a low-only game); a paired card only if all are paired."""
    counts = Counter(map(rank, mine))
    low_game = not game.high

    def value(card: str) -> tuple[int, int]:
        held = parse_card(card)
        order = -low_rank(held) if low_game else rank(held)
        return (counts[rank(held)], order)

    return min(choices, key=value)


def _declaration(cards: list[int], evaluator: Evaluator, wild: int) -> str:
    low = evaluator.low_key(cards, wild)
    top = low >> 16 if low is not None and low >> 20 == 0 else None  # an unpaired low's top card
    made_high = evaluator.high_category(cards, wild) >= STRAIGHT
    if top is not None and top <= 6 and made_high:
        return "declare_both"
    if top is not None and top <= 8 and not made_high:
        return "declare_low"
    return "declare_high"


def _pick_kind(options: dict[str, dict[str, Any]], strength: int, rng: random.Random) -> str:
    aggressive = [kind for kind in AGGRESSIVE if kind in options]
    passive = [kind for kind in PASSIVE if kind in options]
    if strength == STRONG and aggressive:
        return aggressive[0]
    facing_a_bet = "fold" in options and "check" not in options
    if strength == WEAK and facing_a_bet and rng.random() < FOLD_WEAK:
        return "fold"
    if passive:
        return passive[0]
    return next(iter(options))  # show or muck, or a wager that is the only move


def _move(option: dict[str, Any], view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    move: dict[str, Any] = {"action": option["kind"]}
    if option["kind"] in WAGERS:
        if option["amounts"] is not None:  # fixed limit: one of a few exact totals
            move["amount"] = rng.choice(option["amounts"])
        else:
            move["amount"] = wager_size(option, view, rng)
    return move


def wager_size(option: dict[str, Any], view: dict[str, Any], rng: random.Random) -> int:
    """A street total for a wager that may be any amount from ``min`` to ``max``:
    a share of the pot after the bot's call, on top of the bet it faces.

    >>> option = {"kind": "raise", "min": 20, "max": 70, "amounts": None}
    >>> me = {"bet": 10}
    >>> view = {"viewer": 0, "current_bet": 20, "pots": [{"amount": 30}], "players": [me]}
    >>> 20 + 20 <= wager_size(option, view, random.Random(1)) <= 20 + 40
    True
    """
    me = view["players"][view["viewer"]]
    collected = sum(each["amount"] for each in view["pots"])
    pot = collected + sum(player["bet"] for player in view["players"])
    to_call = view["current_bet"] - me["bet"]
    total: int = view["current_bet"] + round(rng.uniform(*POT_SHARE) * (pot + to_call))
    low: int = option["min"]
    high: int = option["max"]
    return max(low, min(high, total))


def hand_strength(view: dict[str, Any]) -> int:
    """WEAK, MEDIUM or STRONG, judged from the viewer's own cards only, valued
    by the variant's evaluator for the halves the game plays (high, low or both).

    >>> me = {"cards": [{"card": "Ks", "up": False}, {"card": "4c", "up": False},
    ...                 {"card": "Kd", "up": True}]}
    >>> hand_strength({"variant": "stud", "viewer": 0, "players": [me]}) == STRONG
    True
    """
    me = view["players"][view["viewer"]]
    shown = [held["card"] for held in me["cards"]] + view.get("community", [])
    cards = [parse_card(card) for card in shown if card is not None]
    # The view marks the cards wild in the bot's hand.
    wild = wild_mask(parse_card(held["card"]) for held in me["cards"] if held.get("wild"))
    evaluator = game_of(view).evaluator
    made = evaluator.strength(cards, wild) if len(cards) >= 5 else None
    levels = []
    if evaluator.high:
        levels.append(STRONG if wild and made is None else _high_strength(cards, made))
    if evaluator.low is not None:
        levels.append(_low_strength(cards, made, evaluator))
    return max(levels, default=WEAK)


def _high_strength(cards: list[int], made: float | None) -> int:
    if made is not None:
        if made >= STRONG_HIGH:
            return STRONG
    elif max(Counter(map(rank, cards)).values(), default=0) >= 2:
        return STRONG
    flush_draw = max(Counter(map(suit, cards)).values(), default=0) >= 3
    return MEDIUM if flush_draw or any(rank(card) >= 11 for card in cards) else WEAK


def _low_strength(cards: list[int], made: float | None, evaluator: Evaluator) -> int:
    """A made low by the evaluator (an eight or better is strong; in hi-lo that is
    the qualifier), or before five cards, how many different ranks of eight or lower."""
    if made is not None and made >= STRONG_LOW:
        return STRONG
    if made is not None and not evaluator.high and made >= MEDIUM_LOW:
        return MEDIUM
    lows = len({low_rank(card) for card in cards if low_rank(card) <= 8})
    needed = min(len(cards), 5)
    if made is None and lows >= needed:
        return STRONG
    return MEDIUM if lows >= needed - 1 else WEAK


# ------------------------------------------------------------------ client


class BotHooks:
    """Pacing and observation for bots; this default moves at once and records nothing.

    Every method is called on the bot's event loop, so it must not block.
    """

    def think(self, bot: Bot, snapshot: dict[str, Any]) -> float | None:
        """Seconds to wait before sending the move ``snapshot`` asks for; None: never send it.

        A bot that never sends its move leaves the server's turn clock to act for it.
        """
        return 0.0

    def connected(self, bot: Bot) -> None:
        """The bot's websocket is open (again)."""

    def disconnected(self, bot: Bot) -> None:
        """The bot's websocket has closed."""

    def received(self, bot: Bot, message: dict[str, Any]) -> None:
        """A message has just arrived, before the bot answers it."""

    def sent(self, bot: Bot, message: dict[str, Any]) -> None:
        """A message has just been handed to the socket."""


@dataclass
class ThinkTime(BotHooks):
    """Wait ``seconds`` before every move, as a person at the table would."""

    seconds: float

    def think(self, bot: Bot, snapshot: dict[str, Any]) -> float | None:
        return self.seconds


@dataclass
class Bot:
    """One bot at one table, logged in by its session cookie.

    It sits in a free seat with ``buy_in`` chips, acts whenever a snapshot
    says it is its turn, buys in again when it has lost its stack, and sits
    in again if the table sat it out. It asks for a snapshot (without the
    hand's events again) only when one can help: after a gap in ``seq`` or
    one of the RESYNC_ERRORS.
    """

    name: str
    cookie: str  # "sessionid=..." header value
    url: str  # ws://host:port
    table_id: int
    buy_in: int
    seats: int = 8
    rng: random.Random = field(default_factory=random.Random)
    refusals: int = 0
    last_move: tuple[int, int] | None = None  # (hand id, turn) already answered
    # A decision made at once (hand id, street, decision) already sent: the
    # others' choices move the turn on while the bot's is on its way.
    last_decision: tuple[int, str, str] | None = None
    last_call: int | None = None  # the number of the dealer's call the bot has answered
    asked: str | None = None  # a seat request ("sit", "leave", "sit_in") awaiting its effect
    done: bool = False
    held: set[int] = field(default_factory=set)  # free seats held for the waiting list
    hooks: BotHooks = field(default_factory=BotHooks)
    # A move waiting out its think time, and the (hand id, turn) it answers.
    pending: tuple[tuple[int, int], asyncio.Task[None]] | None = field(default=None, repr=False)
    latest: dict[str, Any] | None = field(default=None, repr=False)  # the last snapshot
    rechoices: int = 0  # moves chosen again since the last snapshot, after "illegal"
    seq: int = 0  # the last message's seq on this connection

    async def run(self) -> None:
        """Play until cancelled or out of chips, reconnecting after a dropped connection."""
        endpoint = f"{self.url.rstrip('/')}/ws/tables/{self.table_id}/"
        origin = _origin_of(self.url)
        failures = 0
        while not self.done:
            try:
                async with connect(
                    endpoint, origin=origin, additional_headers={"Cookie": self.cookie}
                ) as socket:
                    failures = 0
                    await self.play(socket)
            except (OSError, WebSocketException) as exc:
                logger.warning("%s: connection lost (%s); reconnecting", self.name, exc)
                await asyncio.sleep(self.reconnect_delay(failures))
                failures += 1

    def reconnect_delay(self, failures: int) -> float:
        """Seconds to wait before reconnecting after ``failures`` failed attempts in a row."""
        # The doubling stops at the cap, so a bot left failing for hours never
        # works out a power of two too big for a float.
        doublings = min(failures, MAX_RECONNECT_DOUBLINGS)
        delay = min(MAX_RECONNECT_SECONDS, RECONNECT_SECONDS * 2.0**doublings)
        return delay * self.rng.uniform(0.5, 1.0)

    async def play(self, socket: Any) -> None:
        self.hooks.connected(self)
        self.seq = 0
        try:
            async for text in socket:
                # orjson reads a snapshot in less than half json's time, and
                # reading is a quarter of what a benchmark's bots do.
                frame = messages_of(orjson.loads(text))
                if self.missed_snapshot(frame):
                    await self.send(socket, snapshot_request())
                for message in frame:
                    self.hooks.received(self, message)
                    self.drop_stale_move(message)
                    reply = self.answer(message)
                    if message["type"] == "error" and message["code"] == "rate_limited":
                        await asyncio.sleep(RATE_LIMITED_SECONDS * self.rng.uniform(1.0, 1.5))
                    if reply is not None:
                        await self.reply(socket, reply, message)
                    if self.done:
                        return
        finally:
            self.drop_stale_move(None)
            self.hooks.disconnected(self)

    async def reply(self, socket: Any, reply: dict[str, Any], snapshot: dict[str, Any]) -> None:
        """Send ``reply`` now, or a move after the hooks' think time (or never)."""
        if reply["type"] != "act":
            await self.send(socket, reply)
            return
        delay = self.hooks.think(self, snapshot)
        if delay is None:
            return  # ``last_move`` is set, so this turn is left to the clock
        if delay <= 0:
            await self.send(socket, reply)
            return
        task = asyncio.create_task(self.send_later(socket, reply, delay))
        self.pending = ((reply["hand"], reply["turn"]), task)

    async def send_later(self, socket: Any, reply: dict[str, Any], delay: float) -> None:
        await asyncio.sleep(delay)
        self.pending = None
        with contextlib.suppress(WebSocketException):  # the reading loop sees the close
            await self.send(socket, reply)

    async def send(self, socket: Any, message: dict[str, Any]) -> None:
        await socket.send(json.dumps(message))
        self.hooks.sent(self, message)

    def missed_snapshot(self, frame: list[dict[str, Any]]) -> bool:
        """Whether messages were skipped before ``frame`` (a gap in ``seq``) and
        it brings no snapshot to make up for them; a bot keeps no log of events."""
        skipped = frame[0]["seq"] != self.seq + 1
        self.seq = frame[-1]["seq"]
        return skipped and all(message["type"] != "snapshot" for message in frame)

    def drop_stale_move(self, message: dict[str, Any] | None) -> None:
        """Cancel a move still thinking once a snapshot shows its turn has passed."""
        if self.pending is None:
            return
        if message is not None:
            if message["type"] != "snapshot" or message["hand_info"] is None:
                return
            if (message["hand_info"]["id"], message["hand"]["turn"]) == self.pending[0]:
                return
        self.pending[1].cancel()
        self.pending = None

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The message to send in reply to one server message, if any."""
        if message["type"] == "error":
            return self.on_error(message)
        if message["type"] == "snapshot":
            self.latest, self.rechoices = message, 0
            return self.on_snapshot(message)
        return None

    def on_error(self, error: dict[str, Any]) -> dict[str, Any] | None:
        """Ask for a snapshot only where one helps (RESYNC_ERRORS)."""
        code = error["code"]
        logger.info("%s: %s: %s", self.name, code, error["message"])
        if code == "illegal":
            return self.choose_again()
        if code not in RESYNC_ERRORS:
            return None
        self.last_move = self.asked = self.last_decision = self.last_call = None
        if code == "refused":
            self.refusals += 1
            self.done = self.refusals >= MAX_SIT_REFUSALS
        return snapshot_request()

    def choose_again(self) -> dict[str, Any] | None:
        """A move chosen anew from the latest snapshot, the rules having refused
        the last; None once MAX_RECHOICES are refused, leaving the turn to the clock."""
        if self.latest is None or self.rechoices >= MAX_RECHOICES:
            return None
        self.rechoices += 1
        self.last_move = self.last_decision = None
        return self.on_snapshot(self.latest)

    def on_snapshot(self, snapshot: dict[str, Any]) -> dict[str, Any] | None:
        you = snapshot["you"]
        if you is None:
            raise RuntimeError(f"{self.name} is not logged in: check its session cookie")
        seats = {seat["number"]: seat for seat in snapshot["table"]["seats"]}
        # A free seat held for a player on the waiting list is not the bot's to take.
        self.held = set(snapshot["table"].get("held_seats", []))
        mine = seats.get(you["seat"])
        in_hand = mine is not None and self.dealt_in(snapshot, you["seat"])
        request = self.seat_request(seats, mine, in_hand)
        if request is None:
            self.asked = None
            if in_hand:
                return self.act(snapshot)
            return self.call_game(snapshot["table"].get("call"), you["seat"])
        # Snapshots sent before the server saw the request still call for it:
        # ask once, and again only after an error.
        if request["type"] == self.asked:
            return None
        self.asked = request["type"]
        return request

    def seat_request(
        self, seats: dict[int, dict[str, Any]], mine: dict[str, Any] | None, in_hand: bool
    ) -> dict[str, Any] | None:
        """What the bot must ask of its seat before it can play, if anything."""
        if mine is None:
            return self.sit(seats)
        if mine["stack"] == 0 and not in_hand:
            return {"type": "leave"}  # busted: stand up, and sit again with a new buy-in
        if mine["state"] == "sitting_out":
            return {"type": "sit_in"}
        return None

    def sit(self, seats: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
        taken = set(seats) | self.held
        free = [number for number in range(1, self.seats + 1) if number not in taken]
        if not free:
            self.done = True
            logger.warning("%s: the table is full", self.name)
            return None
        return {"type": "sit", "seat": self.rng.choice(free), "buy_in": self.buy_in}

    def call_game(self, call: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
        """At dealer's choice, the bot's call when it is the dealer calling, once per call."""
        if call is None or call["seat"] != seat or self.last_call == call["number"]:
            return None
        if not call["games"]:
            return None
        self.last_call = call["number"]
        return {"type": "call_game", "game": choose_game(call, self.rng)}

    @staticmethod
    def dealt_in(snapshot: dict[str, Any], seat: int) -> bool:
        info = snapshot["hand_info"]
        return info is not None and not info["finished"] and seat in info["seats"]

    def act(self, snapshot: dict[str, Any]) -> dict[str, Any] | None:
        hand, hand_id = snapshot["hand"], snapshot["hand_info"]["id"]
        if not hand["legal_actions"] or self.last_move == (hand_id, hand["turn"]):
            return None
        decision = hand.get("decision")
        if decision is not None:
            if self.last_decision == (hand_id, hand["street"], decision):
                return None  # sent already; the others' choices moved the turn on
            self.last_decision = (hand_id, hand["street"], decision)
        self.last_move = (hand_id, hand["turn"])
        self.refusals = 0
        move = choose_action(hand, self.rng)
        return {"type": "act", **move, "turn": hand["turn"], "hand": hand_id}


def snapshot_request() -> dict[str, Any]:
    """A bot keeps no hand log, so it asks for a snapshot without the events' replay."""
    return {"type": "snapshot", "replay": False}


def messages_of(data: Any) -> list[dict[str, Any]]:
    """A frame's messages: one change's are sent as an array, in order."""
    return data if isinstance(data, list) else [data]


def _origin_of(url: str) -> Origin:
    """The page origin a browser would send: the same host, over http(s)."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return Origin(f"{scheme}://{parts.netloc}")


async def run_bots(bots: list[Bot], *, seconds: float | None = None) -> None:
    """Run every bot until all stop, ``seconds`` pass, or this coroutine is cancelled."""
    tasks = [asyncio.create_task(bot.run(), name=bot.name) for bot in bots]
    try:
        await asyncio.wait(tasks, timeout=seconds)
    finally:
        for task in tasks:
            task.cancel()  # leaving each ``async with connect`` closes its socket cleanly
        await asyncio.gather(*tasks, return_exceptions=True)
