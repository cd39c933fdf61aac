"""A hand in words: one walk over the engine's events, and the sentences it makes.

The engine writes one kind of event log (:attr:`HandState.events`); everything
that tells a hand reads it here. The table page's live log, the hand history
page and the PHH export's commentary speak Cardroom's words through
:class:`Narrator`. The PokerStars-style text keeps the same books with a
:class:`Ledger` and says the same facts in PokerStars' words
(:mod:`tables.rules.formats.pokerstars`).

A :class:`Ledger` keeps what no single event says: the street, each player's
chips in on it, the bet to match, the pot, who put chips in and where each
player folded. So a call is told with what it cost ("calls 5"), not with the
total it matched.

Only events already filtered for a viewer (:func:`tables.rules.views.events_for`)
are ever told to that viewer. A card they may not see reaches the narrator as
None and is told as "a down card": a down card exchanged away ("Bob
exchanges a down card") as much as one dealt. A choice made at once with
the others (a roll, a declaration) is told only as "Bob has decided" until
the last one is in; then each is told as revealed ("Alice rolls the K♠").

>>> from tables.rules import GameConfig, HandState
>>> from tables.rules.cards import FULL_DECK
>>> from tables.rules.views import events_for
>>> hand = HandState.new(GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10),
...                      [100, 100], list(FULL_DECK))
>>> hand.act(0, "bring_in"); hand.act(1, "complete", 5); hand.act(0, "call")
>>> narrator = Narrator(["alice", "bob"], hand)
>>> for told in narrator.tell(events_for(hand, 1)):
...     for line in told.lines:
...         print(line)
alice antes 1
bob antes 1
alice is dealt 2 down cards and 3♦ up
bob is dealt 2♥ 3♣ down and 3♥ up
alice brings in 2
bob completes to 5
alice calls 3
alice is dealt 4♣
bob is dealt 4♦
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, NamedTuple

from tables.rules.cards import parse_card
from tables.rules.state import PROTECT, HandState

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
# Events that put chips in as a bet; the ledger measures each against the street's bets.
CHIPS_IN = frozenset({"bring_in", "complete", "bet", "raise", "call"})
# The player's own moves, the ones a turn clock can make for them.
BETTING = frozenset({*CHIPS_IN, "check", "fold", PROTECT})
VERBS = {"bring_in": "brings in", "complete": "completes to", "bet": "bets", "raise": "raises to"}
# Decisions that are not bets. Each ends a betting round, so the ledger opens
# a new one even where no card is dealt before it (English stud's last round).
DECISIONS = frozenset({"decided", "roll", "exchange", "stand_pat", "declare"})
DECLARED = {"high": "high", "low": "low", "both": "high and low"}
DealtKey = tuple[int, int]  # a player's cards on one street: (street, player)


# ------------------------------------------------------------------ the books


class Figures(NamedTuple):
    """What the ledger knows at one event."""

    street: int  # the street it happened on; -1 before the first card
    added: int  # chips it put in (negative for chips handed back)
    raised_by: int  # a bring-in, complete, bet or raise: how far it lifted the bet to match
    pot: int  # chips in before it, this street's bets included


class Ledger:
    """Follows a hand's events in order, keeping the books every telling needs."""

    def __init__(self, starting_stacks: Sequence[int], bring_in: int) -> None:
        self.starting = list(starting_stacks)
        self.bring_in = bring_in
        self.street = -1
        self.bets = [0] * len(self.starting)  # each player's chips in on this street
        self.level = 0  # the bet to match on this street
        self.pot = 0
        self.put_in: set[int] = set()  # players who bet chips (antes aside)
        self.folded_on: dict[int, int] = {}  # player -> the street they folded on

    def follow(self, event: dict[str, Any]) -> Figures:
        kind, street = event["type"], event.get("street")
        if street is not None and street != self.street:
            self.street = street
            self._new_round()
        if kind in DECISIONS:
            self._new_round()
        before, added, raised_by = self.pot, 0, 0
        if kind in ("ante", "pay"):
            added = event["amount"]
        elif kind in CHIPS_IN:
            added, raised_by = self._bet(kind, event["player"], event["total"])
        elif kind == "return":
            added = -event["amount"]
            self.bets[event["player"]] += added
        elif kind == "fold":
            self.folded_on[event["player"]] = self.street
        self.pot += added
        return Figures(self.street, added, raised_by, before)

    def _new_round(self) -> None:
        self.bets, self.level = [0] * len(self.starting), 0

    def _bet(self, kind: str, player: int, total: int) -> tuple[int, int]:
        added, raised_by = total - self.bets[player], 0
        self.bets[player] = total
        self.put_in.add(player)
        if kind != "call":
            raised_by = total - self.level
            # A short all-in bring-in still sets the bring-in as the bet to match.
            self.level = self.bring_in if kind == "bring_in" else total
        return added, raised_by


# ------------------------------------------------------------------ the words


@dataclass(frozen=True)
class Told:
    """One event, the ledger's figures at it, and its lines in Cardroom's words.

    An event may have no line (a card dealt after the first of a street's, which
    that first card's line tells) or several (a result, one line per pot).
    """

    event: dict[str, Any]
    figures: Figures
    lines: tuple[str, ...]

    @property
    def text(self) -> str | None:
        """The lines as one, for a place with room for one line an event."""
        return "; ".join(self.lines) or None


class Narrator:
    """Tells a hand's events, in order, as lines of Cardroom's words.

    ``names`` are the players in engine order. ``hand`` is the hand as stored
    or as it stands: its stacks, bring-in, game (split or not) and result (the
    hands' names and the pots at the showdown) are what the words need beyond
    the events.
    """

    def __init__(self, names: Sequence[str], hand: HandState) -> None:
        self.names = list(names)
        self.ledger = Ledger(hand.starting_stacks, hand.config.bring_in)
        self.result = hand.result or {}
        self.split = hand.game.split
        # Deal lines mark the cards wild in every hand (deuces wild); where
        # wild cards change (Queens and after) the table is told when they do.
        self.wild = hand.game.wild

    def tell(self, events: Sequence[dict[str, Any]]) -> list[Told]:
        """Each event with its lines. A player's cards on one street are told
        once, at the first of them, from every card of theirs in ``events``."""
        dealt = self._dealt_together(events)
        swaps, replacements = self._swaps(events)
        told = []
        for index, event in enumerate(events):
            figures = self.ledger.follow(event)
            lines: tuple[str, ...]
            if event["type"] == "exchange":
                swap = swaps.get(index)
                lines = (self._exchange(event, None if swap is None else events[swap]),)
            elif event["type"] != "deal":
                lines = tuple(self.say(event, figures))
            elif index in replacements:
                lines = ()  # the card that replaced one exchanged: told with the exchange
            else:
                lines = self._deal(event, dealt)
            told.append(Told(event, figures, lines))
        return told

    def _dealt_together(self, events: Sequence[dict[str, Any]]) -> dict[DealtKey, list[Dealt]]:
        return _dealt_together(events, self.wild)

    def _swaps(self, events: Sequence[dict[str, Any]]) -> tuple[dict[int, int], set[int]]:
        return _swaps(events, {})

    def name(self, player: int) -> str:
        return self.names[player]

    def say(self, event: dict[str, Any], figures: Figures) -> list[str]:
        """The lines for one event other than a dealt card."""
        kind = event["type"]
        if kind in BETTING or kind in DECISIONS:
            text = self._bet(event, figures) if kind in BETTING else self._decision(event)
            return [f"{text} (out of time)" if event.get("timed_out") else text]
        if kind == "ante":
            all_in = event["amount"] == self.ledger.starting[event["player"]]
            return [f"{self.name(event['player'])} antes {event['amount']:,}" + _all_in(all_in)]
        if kind == "return":
            return [f"Uncalled bet of {event['amount']:,} returned to {self.name(event['player'])}"]
        if kind == "pay":
            return [self._pay(event)]
        if kind in ("show", "muck"):
            return [self._showdown(event)]
        if kind == "result":
            return [self._award(i, pot) for i, pot in enumerate(self.result.get("pots", []))]
        if kind == "wild":
            return [f"Wild now: {event['wild']}"]
        return _dealer(event)

    def _deal(self, event: dict[str, Any], dealt: dict[DealtKey, list[Dealt]]) -> tuple[str, ...]:
        if event.get("extra"):
            return (self._extra(event),)
        if event.get("exchange"):  # its exchange was told in an earlier batch of events
            return (f"{self.name(event['player'])} is dealt {_the(event['card'])} in exchange",)
        cards = dealt.pop((event["street"], event["player"]), None)
        return (self._dealt(event["player"], cards),) if cards else ()

    def _dealt(self, player: int, cards: list[Dealt]) -> str:
        return f"{self.name(player)} is dealt {dealt_words(cards)}"

    def _extra(self, event: dict[str, Any]) -> str:
        """Baseball: the card a face-up four earned, face down."""
        card = event["card"]
        what = "a down card" if card is None else f"{card_text(card)} down"
        return f"{self.name(event['player'])} is dealt an extra card for the four: {what}"

    def _pay(self, event: dict[str, Any]) -> str:
        name, amount = self.name(event["player"]), f"{event['amount']:,}"
        if event.get("exchange"):  # English stud's price of an exchange, dead money
            return f"{name} pays {amount} to exchange"
        # Man with the Axe: a card dealt face up costs its owner.
        return f"{name} pays {amount} into the pot for the {card_text(event['card'])}"

    def _decision(self, event: dict[str, Any]) -> str:
        """A roll, a stand pat or a declaration; or that a player has made a
        choice the others may not know yet."""
        name, kind = self.name(event["player"]), event["type"]
        if kind == "decided":
            return f"{name} has decided"
        if kind == "roll":
            return f"{name} rolls {_the(event['card'])}"
        if kind == "declare":
            return f"{name} declares {DECLARED[event['choice']]}"
        if kind == "exchange":  # told alone: without the card that replaced it
            return self._exchange(event, None)
        return f"{name} stands pat"

    def _exchange(self, event: dict[str, Any], swap: dict[str, Any] | None) -> str:
        """An exchange, with the card that replaced it when ``swap`` is known."""
        name, gone = self.name(event["player"]), event["card"]
        if swap is None:
            return f"{name} exchanges {_the(gone)}"
        if gone is None and swap["card"] is None:
            return f"{name} exchanges a down card"
        return f"{name} exchanges {_the(gone)} for {_the(swap['card'])}"

    def _bet(self, event: dict[str, Any], figures: Figures) -> str:
        kind, name = event["type"], self.name(event["player"])
        if kind == PROTECT:
            return (
                f"{name} ran out of time and is protected: all in for the "
                f"{event['put_in']:,} put in so far, keeping {event['stack']:,} behind"
            )
        if kind in ("check", "fold"):
            return f"{name} {kind}s"
        if kind == "call":
            return f"{name} calls {figures.added:,}" + _all_in(event["all_in"])
        return f"{name} {VERBS[kind]} {event['total']:,}" + _all_in(event["all_in"])

    def _showdown(self, event: dict[str, Any]) -> str:
        name = self.name(event["player"])
        if event["type"] == "muck":
            return f"{name} mucks, unshown"
        cards = " ".join(card_text(c) for c in event["cards"])
        words = hand_words(self.result.get("hands", {}).get(str(event["player"])))
        return f"{name} shows {cards}" + (f": {words}" if words else "")

    def _award(self, index: int, pot: dict[str, Any]) -> str:
        count = len(self.result["pots"])
        head = f"{pot_name(index, count)} of {pot['amount']:,}"
        head += f", rake {pot['rake']:,}" if pot["rake"] else ""
        wins = [f"{self.name(p)} wins {chips:,}{self._half(pot, p)}" for p, chips in pot["shares"]]
        tail = ", uncontested" if self.result.get("uncontested") else ""
        return f"{head}: {', '.join(wins) or 'nobody'}{tail}"

    def _half(self, pot: dict[str, Any], player: int) -> str:
        if pot.get("spade_winners") and not self.result.get("uncontested"):
            spade = f"{self.result['spade']} spade"  # Chicago: "high spade"
            hand, held = player in pot["high_winners"], player in pot["spade_winners"]
            if hand and held:
                return f" (best hand and {spade})"
            return f" ({spade})" if held else " (best hand)"
        if not self.split or self.result.get("uncontested"):
            return ""
        high, low = player in pot["high_winners"], player in pot["low_winners"]
        return " (high and low)" if high and low else " (high)" if high else " (low)"


class LiveNarrator(Narrator):
    """Tells a hand while it is played, the events new since the last call at a time.

    Each batch gets the lines that telling the whole hand so far at once
    (:meth:`Narrator.tell`) gives its events, so the table's live log tells
    each event once instead of the whole hand again at every move. Across
    batches it remembers what that one telling would know from the events
    before: the players' cards on each street already told (the first card's
    line tells them all), and the exchanges still waiting for their card.

    ``names`` and the hand's result may change as the hand goes on (a player
    leaves, the showdown comes): :meth:`tell_new` takes them afresh each time,
    as a fresh telling of the whole hand would.

    >>> from tables.rules import GameConfig
    >>> from tables.rules.cards import FULL_DECK
    >>> from tables.rules.views import events_for
    >>> hand = HandState.new(GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10),
    ...                      [100, 100], list(FULL_DECK))
    >>> live, names = LiveNarrator(["alice", "bob"], hand), ["alice", "bob"]
    >>> told = live.tell_new(events_for(hand), names, hand)  # the antes and 3rd street
    >>> hand.act(0, "bring_in"); hand.act(1, "complete", 5)
    >>> for told in live.tell_new(events_for(hand, since=live.events_told), names, hand):
    ...     print(told.text)
    alice brings in 2
    bob completes to 5
    """

    def __init__(self, names: Sequence[str], hand: HandState) -> None:
        super().__init__(names, hand)
        self.events_told = 0
        self.dealt_keys: set[DealtKey] = set()  # (street, player) whose cards were told
        self.exchanging: set[int] = set()  # players whose exchange awaits its card

    def tell_new(
        self, events: Sequence[dict[str, Any]], names: Sequence[str], hand: HandState
    ) -> list[Told]:
        """The lines of ``events``: the hand's events from number :attr:`events_told` on."""
        self.names, self.result = list(names), hand.result or {}
        told = self.tell(events)
        self.events_told += len(events)
        return told

    def _dealt_together(self, events: Sequence[dict[str, Any]]) -> dict[DealtKey, list[Dealt]]:
        dealt = super()._dealt_together(events)
        fresh = {key: cards for key, cards in dealt.items() if key not in self.dealt_keys}
        self.dealt_keys.update(dealt)
        return fresh

    def _swaps(self, events: Sequence[dict[str, Any]]) -> tuple[dict[int, int], set[int]]:
        waiting: dict[int, int | None] = dict.fromkeys(self.exchanging)
        found = _swaps(events, waiting)
        self.exchanging = set(waiting)
        return found


def _dealer(event: dict[str, Any]) -> list[str]:
    """What the dealer does with the deck, when it is worth a line."""
    kind = event["type"]
    if kind == "reuse_burns":
        return [f"Too few cards left: the {event['count']} burned cards go under the deck"]
    if kind == "burn":
        # Only staff get burns' faces; events_for hides them from everyone else.
        return [f"Burned: {card_text(event['card'])}"] if event["card"] is not None else []
    if kind == "no_burn":
        return ["No burn card: too few cards left"]
    if kind == "board":
        card = card_text(event["card"])
        return [f"Too few cards to deal each player one: a community card, {card}"]
    return []


def _dealt_together(events: Iterable[dict[str, Any]], wild: int) -> dict[DealtKey, list[Dealt]]:
    """(street, player) -> the cards dealt them on that street, in dealing
    order, each marked when it is one of the game's fixed ``wild`` cards.

    Keyed by street too: one move may deal several streets (an all-in runout).
    """
    dealt: dict[DealtKey, list[Dealt]] = {}
    for event in events:
        if event["type"] == "deal" and not event.get("extra") and not event.get("exchange"):
            player, card = event["player"], event["card"]
            marked = card is not None and bool(wild >> parse_card(card) & 1)
            key = (event["street"], player)
            dealt.setdefault(key, []).append(Dealt(card, event["up"], marked))
    return dealt


def _swaps(
    events: Sequence[dict[str, Any]], waiting: dict[int, int | None]
) -> tuple[dict[int, int], set[int]]:
    """Each exchange's index -> the index of the card dealt to replace it,
    where ``events`` hold both (a move's events do); and the indexes of every
    card dealt to replace an exchanged one, whose exchange came before it.

    ``waiting``: player -> the index of their exchange still waiting for its
    card, None for one before ``events``; updated as they are read.
    """
    swaps, replacements = {}, set()
    for index, event in enumerate(events):
        if event["type"] == "exchange":
            waiting[event["player"]] = index
        elif event["type"] == "deal" and event.get("exchange") and event["player"] in waiting:
            exchange = waiting.pop(event["player"])
            replacements.add(index)
            if exchange is not None:
                swaps[exchange] = index
    return swaps, replacements


def _the(code: str | None) -> str:
    """``"the K♦"``, or ``"a down card"`` for one the viewer may not see."""
    return "a down card" if code is None else f"the {card_text(code)}"


def _all_in(all_in: bool) -> str:
    return ", all in" if all_in else ""


# ------------------------------------------------------------------ cards and hands


def card_text(code: str | None) -> str:
    """``"K♦"`` for ``"Kd"``, ``"10♥"`` for ``"Th"``, ``"??"`` for a card not seen.

    >>> card_text("Th"), card_text(None)
    ('10♥', '??')
    """
    if code is None:
        return "??"
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def hand_words(words: dict[str, Any] | None) -> str:
    """A shown hand's name: ``"two pair, kings and nines"``; hi-lo adds the
    low. A declared hand is named only the way(s) it was declared.

    >>> hand_words({"high": "pair of kings", "low": "8-6-4-2-A low", "declared": "low"})
    '8-6-4-2-A low'
    """
    if not words:
        return ""
    declared = words.get("declared")
    high = declared in (None, "high", "both")
    low = declared in (None, "low", "both")
    parts = [words["high"]] if high and words.get("high") else []
    if low and "low" in words:
        parts.append(words["low"] or "no low")
    return "; ".join(parts)


def pot_name(index: int, count: int) -> str:
    """``Pot`` alone; else ``Main pot``, then ``Side pot 1``, ``Side pot 2``..."""
    if count == 1:
        return "Pot"
    return "Main pot" if index == 0 else f"Side pot {index}"


class Dealt(NamedTuple):
    """One card of a deal as the viewer saw it: None for a down card they may
    not see. ``wild``: a card the viewer sees that is wild for its holder."""

    card: str | None
    up: bool
    wild: bool = False


def dealt_words(cards: Sequence[Dealt]) -> str:
    """The cards one player is dealt on a street, in dealing order.

    >>> dealt_words([Dealt("As", False), Dealt("Kd", False), Dealt("7c", True)])
    'A♠ K♦ down and 7♣ up'
    >>> dealt_words([Dealt(None, False), Dealt(None, False), Dealt("7c", True)])
    '2 down cards and 7♣ up'
    >>> dealt_words([Dealt("7c", True)])
    '7♣'
    >>> dealt_words([Dealt("2s", False, True), Dealt("Kd", False), Dealt("2c", True, True)])
    '2♠ (wild) K♦ down and 2♣ (wild) up'
    """
    if all(held.up for held in cards):
        return " ".join(map(_dealt_text, cards))
    runs = [list(run) for _, run in groupby(cards, key=lambda held: held.up)]
    return " and ".join(_run_words(run, up=run[0].up) for run in runs)


def _run_words(cards: list[Dealt], *, up: bool) -> str:
    """Cards dealt one after another with the same face."""
    if up:
        return " ".join(map(_dealt_text, cards)) + " up"
    if any(held.card is None for held in cards):
        return "a down card" if len(cards) == 1 else f"{len(cards)} down cards"
    return " ".join(map(_dealt_text, cards)) + " down"


def _dealt_text(held: Dealt) -> str:
    return card_text(held.card) + (" (wild)" if held.wild else "")
