"""Finished hands as PokerStars-style text hand histories, for tracking tools.

:func:`write_text` tells one finished hand the way PokerStars writes its
7 Card Stud, Razz and 7 Card Stud Hi/Lo limit games, as one viewer saw it: that
player's own down cards, everyone's upcards, and other players' down cards
only once they are shown at the showdown. ``everything=True`` (staff) writes
every card. The table, time, names and seats come in a :class:`HandInfo`,
since the engine knows players only by number.

What follows the PokerStars layout:

* the header line (``PokerStars Hand #ID:  7 Card Stud Limit (5/10) - date
  time zone``), the ``Table 'name' 8-max`` line and one ``Seat N: name (chips
  in chips)`` line per player, in seat order. The game is named as PokerStars
  names it, then the betting structure as PokerStars names its structures
  (``Limit``, ``Pot Limit``, ``No Limit``; ``Spread Limit`` for spread limit,
  which PokerStars doesn't deal);
* ``posts the ante``, then ``*** 3rd STREET ***`` to ``*** 6th STREET ***``
  and ``*** RIVER ***``, each with its ``Dealt to`` lines: the viewer's cards
  in full (``Dealt to bob [2h 3c 3h]``, later ``[2h 3c 3h 7d] [Qs]``), others'
  upcards only, and no river line for others, whose river card is face down;
* ``brings in for``, ``completes it to``, ``bets``, ``raises X to Y``,
  ``calls`` (the chips added), ``checks``, ``folds``, with ``and is all-in``;
  ``Uncalled bet (N) returned to name``;
* ``*** SHOW DOWN ***`` with ``shows [cards] (hand)`` or ``mucks hand``, hands
  named as PokerStars names them (``a straight, Ten to Ace``; razz ``Lo:
  8,6,4,3,2``; hi/lo ``HI: ...; LO: ...`` and ``No low hand qualified``);
  ``collected N from pot`` (or ``main pot``, ``side pot``, ``side pot-2``...);
  ``doesn't show hand`` for a winner nobody called;
* ``*** SUMMARY ***`` with ``Total pot N | Rake N`` (``Main pot N. Side pot N.``
  when there are side pots) and one line per seat: ``folded on the 4th
  Street``, ``(didn't bet)`` if only the ante went in, ``showed [...] and won
  (N) with ...``, ``and lost with``, ``mucked``, ``collected (N)``.

Where Cardroom differs:

* Chips are play-money integers: no currency sign, and the table line says
  ``(Play Money)`` as PokerStars' play-money histories do.
* PokerStars deals stud only at fixed limit, where the header's stakes are the
  small and big bet. A spread's are its least and most bet. At pot and no
  limit they are the bring-in and the minimum bet, as PokerStars' pot- and
  no-limit headers give the small and big blind: the forced bet that opens
  the betting and the minimum bet. A table with no bring-in has no forced
  bet; its best door card opens with a bet of at least the minimum, so both
  numbers are the minimum bet (``(5/5)``, as a 5/5 no-limit game is called),
  never a 0 that a tracking tool would read as stakes of nothing.
* PokerStars has no Mississippi stud: its hands are headed ``Mississippi
  Stud``, and its 4th and 5th streets follow each other with no betting
  between them, as the game deals them.
* PokerStars has no London lowball. Its hands are headed ``London Lowball``,
  the game's own name in PokerStars' capitals, and its lows are named in
  ace-to-six words (``Lo: 7-5-4-3-2 low``, ``Lo: 6-4-3-2-A low, flush``):
  PokerStars' list of five ranks reads as an ace-to-five low, which has no
  straights or flushes to count against it.
* PokerStars deals none of the home games with decisions that are not bets,
  and each is headed by its own name. ``Roll Your Own Stud`` has streets
  ``*** 1st ROUND ***`` to ``*** 4th ROUND ***``, and after each deal the
  rolls, ``name: rolls [Kd]``, told once everyone has chosen. ``English
  Stud`` heads each exchange as PokerStars heads a draw, ``*** FIRST
  EXCHANGE ***`` after 5th street's betting and ``*** SECOND EXCHANGE ***``
  after 6th's, with ``name: pays 10 for the exchange`` (its price),
  ``name: exchanges [2c] for [Ac]``, or ``name: exchanges a down card`` where
  the viewer may see neither card, and ``name: stands pat``; later ``Dealt
  to`` lines hold the new card in the old one's place. ``6 Card Stud (Aces,
  Straights and Flushes)`` names the bug in a line after the seats, and a
  hand it plays in ``(with the bug)``. ``7 Card Stud Hi/Lo Declare`` writes
  ``*** DECLARE ***`` and ``name: declares high`` (``low``, ``high and
  low``) before the showdown, names each shown hand only the way it was
  declared (``LO: 5,4,3,2,A``), and never says ``No low hand qualified``.
* The hand number is Cardroom's hand id. The time is the site's time zone with
  its abbreviation, without PokerStars' second time in ET.
* PokerStars stud deals from seat 1; Cardroom deals from the seat after the
  dealer, so antes and ``Dealt to`` lines come in dealing order. The seat
  lines and the summary stay in seat order. No button is named, as in
  PokerStars stud.
* A staff export (``everything``) writes every player's down cards on their
  ``Dealt to`` lines, as if each were the hero.
* PokerStars' summary names the cards of a hand mucked at the showdown. Here a
  mucked hand is never shown to anyone but its owner (and staff), so other
  viewers read ``mucked`` with no cards.
* When the deck runs short, the one shared river card is written
  ``*** RIVER *** [7c]``, and ``Board [7c]`` in the summary, as hold'em
  writes a board.
* Seed 002's timeout protection is written ``name has timed out``; from then
  on that player is all in for what they have put in and bets no more.
* In hi/lo, a player who takes both halves of a pot gets one ``collected``
  line for it. ``Betting is capped``, chat and players joining or leaving
  are not written.

>>> from tables.rules import GameConfig
>>> from tables.rules.cards import FULL_DECK
>>> hand = HandState.new(GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10),
...                      [100, 100], list(FULL_DECK))
>>> hand.act(0, "bring_in"); hand.act(1, "complete", 5); hand.act(0, "fold")
>>> info = HandInfo(hand_id=7, table="Table 1", started=datetime.datetime(2026, 11, 21, 20, 15),
...                 zone="UTC", players=("alice", "bob"), seats=(1, 2), max_seats=8)
>>> print(write_text(hand, info, viewer=1), end="")
PokerStars Hand #7:  7 Card Stud Limit (5/10) - 2026/11/21 20:15:00 UTC
Table 'Table 1' 8-max (Play Money)
Seat 1: alice (100 in chips)
Seat 2: bob (100 in chips)
alice: posts the ante 1
bob: posts the ante 1
*** 3rd STREET ***
Dealt to alice [3d]
Dealt to bob [2h 3c 3h]
alice: brings in for 2
bob: completes it to 5
alice: folds
Uncalled bet (3) returned to bob
bob collected 6 from pot
bob: doesn't show hand
*** SUMMARY ***
Total pot 6 | Rake 0
Seat 1: alice folded on the 3rd Street
Seat 2: bob collected (6)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tables.rules.cards import (
    RANK_CHARS,
    RANK_NAMES,
    RANK_PLURALS,
    card_str,
    low_rank,
    pretty,
    rank,
)
from tables.rules.config import GameConfig
from tables.rules.evaluate import (
    CATEGORY_SHIFT,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    high_ranks,
)
from tables.rules.evaluators import ACE_TO_FIVE, NATURAL_SEVENS, Evaluator
from tables.rules.evaluators.wild import wild_words
from tables.rules.narration import CHIPS_IN, DECISIONS, DECLARED, Figures, Ledger
from tables.rules.state import PROTECT, UNKNOWN, HandState

# Each variant's name in the header, before its structure's words ("Limit").
# PokerStars deals no London lowball or Mississippi stud: each gets its own
# name, capitalised as PokerStars capitalises "Razz".
GAMES = {
    "stud": "7 Card Stud",
    "razz": "Razz",
    "stud8": "7 Card Stud Hi/Lo",
    "london": "London Lowball",
    "mississippi": "Mississippi Stud",
    "deuces": "7 Card Stud (Deuces Wild)",
    "acey_ducey": "7 Card Stud (Acey Ducey)",
    "one_eyed_jacks": "7 Card Stud (One-Eyed Jacks Wild)",
    "suicide_king": "7 Card Stud (Suicide King Wild)",
    "queens": "7 Card Stud (Queens and After)",
    "low_hole": "7 Card Stud (Low Hole)",
    "man_with_the_axe": "7 Card Stud (Man with the Axe)",
    "baseball": "7 Card Stud (Baseball)",
    "high_chicago": "7 Card Stud (High Chicago)",
    "low_chicago": "7 Card Stud (Low Chicago)",
    "roll_your_own": "Roll Your Own Stud",
    "english": "English Stud",
    "aces_straights_flushes": "6 Card Stud (Aces, Straights and Flushes)",
    "declare": "7 Card Stud Hi/Lo Declare",
    "declare8": "7 Card Stud Hi/Lo Declare (8 or Better)",
}
# Structures whose header stakes are the bring-in (or, without one, the bet
# that opens instead) and the minimum bet, as PokerStars' pot- and no-limit
# games give their blinds.
BIG_BET = frozenset({"pot", "no"})
# Events that only move the deck, and choices not yet revealed (a roll or a
# declaration is told when the last player has made theirs); the text doesn't
# tell them.
SILENT = frozenset({"burn", "no_burn", "reuse_burns", "decided"})
# English stud's exchanges, each headed as PokerStars heads a draw.
EXCHANGE_HEADERS = ("FIRST EXCHANGE", "SECOND EXCHANGE", "THIRD EXCHANGE")
BUG_LINE = (
    "The bug: a joker in the centre, every hand's seventh card "
    "(an ace, or to complete a straight or a flush)"
)


class PokerStarsError(ValueError):
    """A hand or its details that can't be written; the message says why."""


@dataclass(frozen=True)
class HandInfo:
    """What the text names that the engine doesn't know.

    ``players`` and ``seats`` are in engine order (player 0 first). ``started``
    is the local wall-clock time to print, ``zone`` its abbreviation.
    """

    hand_id: int
    table: str
    started: datetime.datetime
    zone: str
    players: Sequence[str]
    seats: Sequence[int]
    max_seats: int


def write_text(
    state: HandState, info: HandInfo, *, viewer: int | None = None, everything: bool = False
) -> str:
    """A finished hand as PokerStars-style text, as ``viewer`` saw it.

    ``viewer`` is a player number, or None for an observer, who sees only
    upcards and shown hands; ``everything`` (staff only) writes every card.
    """
    _check(state, info, viewer)
    open_hands = set(range(state.n)) if everything else ({viewer} if viewer is not None else set())
    return "\n".join(_Narrator(state, info, open_hands).lines()) + "\n"


def _check(state: HandState, info: HandInfo, viewer: int | None) -> None:
    if not state.finished:
        raise PokerStarsError("only a finished hand can be written")
    if state.config.variant not in GAMES:
        raise PokerStarsError(f"PokerStars-style text has no name for {state.game.name}")
    if not len(info.players) == len(info.seats) == state.n:
        raise PokerStarsError(f"the hand has {state.n} players; name and seat each of them")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < state.n):
        raise PokerStarsError(f"viewer must be a player from 0 to {state.n - 1} or None")


class _Narrator:
    """Walks the hand's events once, keeping what each line needs to know."""

    def __init__(self, state: HandState, info: HandInfo, open_hands: set[int]) -> None:
        self.state, self.info, self.open = state, info, open_hands
        self.names = list(info.players)
        # The books every telling keeps (the street's bets, the bet to match, who
        # put chips in, where each folded), kept as the hand page's are.
        self.ledger = Ledger(state.starting_stacks, state.config.bring_in)
        self.headed = -1  # the last street whose header is written
        self.held: list[list[tuple[int, bool]]] = [[] for _ in range(state.n)]  # (card, face up)
        self.dealt = _dealt_by_street(state)
        self.streets = [_street_words(name) for name in state.game.streets]
        self.section = ""  # the last header written for a decision ("DECLARE"...)
        self.exchanges = 0  # exchange headers written
        self.swapping: dict[int, int] = {}  # player -> where the card they exchanged was
        self.at_showdown = False

    def lines(self) -> list[str]:
        out = self._header()
        for event in self.state.events:
            out.extend(self._event(event, self.ledger.follow(event)))
        return out

    # ------------------------------------------------------------- the header

    def _header(self) -> list[str]:
        info, config = self.info, self.state.config
        when = f"{info.started:%Y/%m/%d} {info.started.hour}:{info.started:%M:%S}"
        return [
            f"PokerStars Hand #{info.hand_id}:  {game_title(config)} ({_stakes(config)})"
            f" - {when} {info.zone}",
            f"Table '{info.table}' {info.max_seats}-max (Play Money)",
            *(
                f"Seat {self.info.seats[p]}: {self.names[p]} "
                f"({self.state.starting_stacks[p]} in chips)"
                for p in self._by_seat()
            ),
            *([BUG_LINE] if self.state.game.evaluator.bug else []),
        ]

    def _by_seat(self) -> list[int]:
        return sorted(range(self.state.n), key=lambda p: self.info.seats[p])

    # ------------------------------------------------------------- the events

    def _event(self, event: dict[str, Any], figures: Figures) -> list[str]:
        kind = event["type"]
        if kind in SILENT:
            return []
        if kind == "deal" and event.get("exchange"):
            return self._replacement(event)
        if kind in ("deal", "board"):
            return self._deal(event)
        if kind in DECISIONS or (kind == "pay" and event.get("exchange")):
            return self._decision(kind, event)
        if kind in CHIPS_IN or kind in ("check", "fold"):
            return [self._bet(kind, event, figures)]
        if kind in ("show", "muck"):
            return self._showdown(kind, event["player"])
        if kind == "result":
            return self._collected() + self._summary()
        if kind == "wild":  # Queens and after: the wild cards changed with the deal
            return [f"Wild cards now: {event['wild']}"]
        return [self._aside(kind, event)]

    def _aside(self, kind: str, event: dict[str, Any]) -> str:
        """Antes, uncalled bets, payments and timeout protections."""
        name = self.names[event["player"]]
        if kind == "ante":
            all_in = event["amount"] == self.state.starting_stacks[event["player"]]
            return f"{name}: posts the ante {event['amount']}{_all_in(all_in)}"
        if kind == "return":
            return f"Uncalled bet ({event['amount']}) returned to {name}"
        if kind == "pay":  # Man with the Axe: a card dealt face up costs its owner
            return f"{name}: pays {event['amount']} for the {pretty(event['card'])}"
        if kind == PROTECT:
            return f"{name} has timed out"
        raise PokerStarsError(f"no text for a {kind!r} event")

    # ---------------------------------------------------------------- dealing

    def _deal(self, event: dict[str, Any]) -> list[str]:
        """A street's header and its ``Dealt to`` lines, at its first card."""
        if event["street"] == self.headed:
            return []
        self.headed = event["street"]
        header = f"*** {self.streets[self.headed][0]} ***"
        if event["type"] == "board":  # the deck ran short: one shared river card
            return [f"{header} [{card_str(event['card'])}]"]
        return [header, *self._dealt_lines(self.dealt.get(self.headed, {}))]

    def _dealt_lines(self, dealt: dict[int, list[tuple[int, bool]]]) -> list[str]:
        lines = []
        for player, cards in dealt.items():
            before = self._visible(player, self.held[player])
            new = self._visible(player, cards)
            self.held[player].extend(cards)
            if new:
                old = f"[{_cards(before)}] " if before else ""
                lines.append(f"Dealt to {self.names[player]} {old}[{_cards(new)}]")
        return lines

    def _visible(self, player: int, cards: Iterable[tuple[int, bool]]) -> list[int]:
        mine = player in self.open
        return [card for card, up in cards if up or (mine and card != UNKNOWN)]

    # -------------------------------------------------------------- decisions

    def _decision(self, kind: str, event: dict[str, Any]) -> list[str]:
        """A roll, an exchange (its price, the card given up), a stand pat or a
        declaration. Exchanges and declarations come under a header of their own."""
        name, player = self.names[event["player"]], event["player"]
        if kind == "roll":
            card = event["card"]
            self.held[player][self._place_of(player, card, face_down=True)] = (card, True)
            return [f"{name}: rolls [{card_str(card)}]"]
        if kind == "declare":
            return [*self._head("DECLARE"), f"{name}: declares {DECLARED[event['choice']]}"]
        head = self._head_exchange(event["street"])
        if kind == "pay":
            return [*head, f"{name}: pays {event['amount']} for the exchange"]
        if kind == "stand_pat":
            return [*head, f"{name}: stands pat"]
        self.swapping[player] = self._place_of(player, event["card"])
        return head  # told with the card that replaces it, dealt next

    def _replacement(self, event: dict[str, Any]) -> list[str]:
        """The card that replaced one exchanged, in its place: the exchange's line."""
        player = event["player"]
        where = self.swapping.pop(player)
        gone = self.held[player][where]
        self.held[player][where] = (event["card"], event["up"])
        shown = self._visible(player, [gone]), self._visible(player, [self.held[player][where]])
        if not any(shown):
            return [f"{self.names[player]}: exchanges a down card"]
        old, new = (f"[{_cards(cards)}]" if cards else "a down card" for cards in shown)
        return [f"{self.names[player]}: exchanges {old} for {new}"]

    def _place_of(self, player: int, card: int, *, face_down: bool = False) -> int:
        """Where a card rolled or exchanged is in the player's hand; in a
        replayed hand that didn't know it, the first unknown card, as the
        engine takes it."""
        hand = self.held[player]
        for wanted in (card, UNKNOWN):
            for index, (held, up) in enumerate(hand):
                if held == wanted and not (face_down and up):
                    return index
        raise PokerStarsError(f"{self.names[player]} has no {card_str(card)} to roll or exchange")

    def _head(self, section: str) -> list[str]:
        if self.section == section:
            return []
        self.section = section
        return [f"*** {section} ***"]

    def _head_exchange(self, street: int) -> list[str]:
        """One header for each exchange: after 5th street's betting, then after 6th's."""
        if self.section == f"exchange {street}":
            return []
        self.section = f"exchange {street}"
        self.exchanges += 1
        return [f"*** {EXCHANGE_HEADERS[self.exchanges - 1]} ***"]

    # ---------------------------------------------------------------- betting

    def _bet(self, kind: str, event: dict[str, Any], figures: Figures) -> str:
        name, total = self.names[event["player"]], event.get("total", 0)
        if kind in ("fold", "check"):
            return f"{name}: {kind}s"
        words = {
            "bring_in": f"brings in for {total}",
            "complete": f"completes it to {total}",
            "bet": f"bets {total}",
            "raise": f"raises {figures.raised_by} to {total}",
            "call": f"calls {figures.added}",
        }[kind]
        return f"{name}: {words}{_all_in(event['all_in'])}"

    # --------------------------------------------------------------- showdown

    def _showdown(self, kind: str, player: int) -> list[str]:
        lines = [] if self.at_showdown else ["*** SHOW DOWN ***"]
        self.at_showdown = True
        name = self.names[player]
        if kind == "muck":
            return [*lines, f"{name}: mucks hand"]
        shown = _cards(self._own_cards(player))
        return [*lines, f"{name}: shows [{shown}] ({self._hand_name(player)})"]

    def _hand_name(self, player: int) -> str:
        cards = self.state.cards_of(player)
        evaluator, wild = self.state.game.evaluator, self.state.wild_for(player)
        low_wild = self.state.wild_for(player, low=True)
        low = _low_name(evaluator, cards, low_wild) if evaluator.low else None
        if not evaluator.high:
            return f"Lo: {low or 'no low hand'}"
        high = _high_name(evaluator, cards, wild)
        if not evaluator.low:
            return high
        declared = self.state.declared[player]  # hi-lo declare: the hand plays one way, or both
        if declared == "low":
            return f"LO: {low or 'no low hand'}"
        if declared == "both":
            return f"HI: {high}; LO: {low or 'no low hand'}"
        return f"HI: {high}" + (f"; LO: {low}" if low and declared is None else "")

    def _collected(self) -> list[str]:
        """Who took what from each pot, the last side pot first as PokerStars does."""
        result = self._finished_result()
        lines: list[str] = []
        pots = result["pots"]
        for index in reversed(range(len(pots))):
            pot, shares = pots[index], dict(pots[index]["shares"])
            winners = dict.fromkeys([*pot["high_winners"], *pot["low_winners"], *shares])
            lines.extend(
                f"{self.names[p]} collected {shares[p]} from {_pot_name(index, len(pots))}"
                for p in winners
                if shares.get(p)
            )
        if result["uncontested"]:
            winner = next(p for p in range(self.state.n) if not self.state.folded[p])
            lines.append(f"{self.names[winner]}: doesn't show hand")
        elif (
            self.state.game.split
            and not self.state.game.declares  # there, a pot may have no low declared
            and any(not pot["low_winners"] for pot in pots)
        ):
            lines.append("No low hand qualified")
        return lines

    def _finished_result(self) -> dict[str, Any]:
        result = self.state.result
        if result is None:
            raise PokerStarsError("only a finished hand can be written")
        return result

    # ---------------------------------------------------------------- summary

    def _summary(self) -> list[str]:
        lines = ["*** SUMMARY ***", self._pot_line()]
        if self.state.community:
            lines.append(f"Board [{_cards(self.state.community)}]")
        return lines + [self._seat_line(p) for p in self._by_seat()]

    def _pot_line(self) -> str:
        result = self._finished_result()
        pots, rake = result["pots"], result["rake"]
        total = sum(pot["amount"] for pot in pots)
        if len(pots) == 1:
            return f"Total pot {total} | Rake {rake}"
        parts = " ".join(
            f"{_pot_name(i, len(pots)).capitalize()} {pot['amount'] - pot['rake']}."
            for i, pot in enumerate(pots)
        )
        return f"Total pot {total} {parts} | Rake {rake}"

    def _seat_line(self, player: int) -> str:
        state, won = self.state, self._finished_result()["payouts"][player]
        start = f"Seat {self.info.seats[player]}: {self.names[player]}"
        if state.folded[player]:
            bet = "" if player in self.ledger.put_in else " (didn't bet)"
            street = self.streets[self.ledger.folded_on[player]][1]
            return f"{start} folded on the {street}{bet}"
        if state.shown[player]:
            outcome = f"won ({won})" if won else "lost"
            shown = _cards(self._own_cards(player))
            return f"{start} showed [{shown}] and {outcome} with {self._hand_name(player)}"
        if state.mucked[player] and player in self.open:
            return f"{start} mucked [{_cards(self._visible(player, self.held[player]))}]"
        if state.mucked[player]:
            return f"{start} mucked"
        return f"{start} collected ({won})"

    def _own_cards(self, player: int) -> list[int]:
        """A shown hand in dealing order, without any shared river card."""
        return [held.card for held in self.state.cards[player]]


# ----------------------------------------------------------------- helpers


def _dealt_by_street(state: HandState) -> dict[int, dict[int, list[tuple[int, bool]]]]:
    """Street -> player -> the cards dealt them then, players in dealing order."""
    dealt: dict[int, dict[int, list[tuple[int, bool]]]] = {}
    for event in state.events:
        if event["type"] == "deal" and not event.get("exchange"):
            cards = dealt.setdefault(event["street"], {}).setdefault(event["player"], [])
            cards.append((event["card"], event["up"]))
    return dealt


# ------------------------------------------------------------------- words


def _street_words(street: str) -> tuple[str, str]:
    """A street's header and its name in the summary: ``("4th STREET", "4th
    Street")``, ``("1st ROUND", "1st Round")``; the 7th street is the river.

    >>> _street_words("7th street"), _street_words("1st round")
    (('RIVER', 'River'), ('1st ROUND', '1st Round'))
    """
    if street == "7th street":
        return "RIVER", "River"
    ordinal, word = street.split()
    return f"{ordinal} {word.upper()}", f"{ordinal} {word.capitalize()}"


def game_title(config: GameConfig) -> str:
    """The game as the header names it: ``7 Card Stud Limit``, ``Razz Pot Limit``.

    >>> game_title(GameConfig(variant="razz", structure="no"))
    'Razz No Limit'
    >>> game_title(GameConfig(variant="deuces", high_low_declare=True))
    '7 Card Stud Hi/Lo Declare (Deuces Wild) Limit'
    """
    name = GAMES[config.variant]
    if config.high_low_declare:  # a wild-card game played high-low
        name = name.replace("7 Card Stud", "7 Card Stud Hi/Lo Declare", 1)
    return f"{name} {config.betting.words}"


def _stakes(config: GameConfig) -> str:
    """The header's stakes: the two bet sizes (a spread's least and most), or
    at pot and no limit the bring-in and the minimum bet. With no bring-in the
    betting opens with a bet, so the minimum bet stands for both.

    >>> _stakes(GameConfig(bring_in=2, small_bet=5, structure="no"))
    '2/5'
    >>> _stakes(GameConfig(bring_in=0, small_bet=5, structure="pot"))
    '5/5'
    >>> _stakes(GameConfig(bring_in=0, small_bet=5, big_bet=10))
    '5/10'
    """
    if config.structure in BIG_BET:
        return f"{config.bring_in or config.small_bet}/{config.small_bet}"
    return f"{config.small_bet}/{config.big_bet}"


def _cards(cards: Iterable[int]) -> str:
    return " ".join(card_str(card) for card in cards)


def _all_in(all_in: bool) -> str:
    return " and is all-in" if all_in else ""


def _pot_name(index: int, count: int) -> str:
    """``pot`` alone; else ``main pot``, then ``side pot`` or ``side pot-1``, ``-2``..."""
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _one(r: int) -> str:
    return RANK_NAMES[r].capitalize()  # "Deuce", "Ten", "Ace"


def _many(r: int) -> str:
    return RANK_PLURALS[r].capitalize()  # "Deuces", "Sixes"


def _high_name(evaluator: Evaluator, cards: Sequence[int], wild: int = 0) -> str:
    """The best high hand in PokerStars' words, such as ``two pair, Kings and
    Nines``, with the wild cards it plays counted as the site counts them.

    >>> from tables.rules.cards import parse_cards
    >>> stud = Evaluator(high=True)
    >>> _high_name(stud, parse_cards("9h5d9cKhKc3s5s"))
    'two pair, Kings and Nines'
    >>> _high_name(stud, parse_cards("Ac2d3h4s5cKdQh"))
    'a straight, Ace to Five'
    >>> from tables.rules.evaluators.wild import wild_mask
    >>> _high_name(stud, parse_cards("9h9c2d2sKc3s5s"), wild_mask(parse_cards("2c2d2h2s")))
    'four of a kind, Nines (two wild)'
    """
    key = evaluator.high_key(cards, wild)
    assert key is not None  # asked only of a game with a high half
    if key & NATURAL_SEVENS:  # Man with the Axe's best hand
        return "a natural pair of Sevens"
    category = key >> CATEGORY_SHIFT
    r = high_ranks(key)  # most important first
    played = evaluator.high_cards(cards, wild)
    wilds = wild_words(played, wild)
    if evaluator.bug and len(played) < 5:  # the joker plays as the fifth card
        wilds = " (with the bug)"
    if category == STRAIGHT_FLUSH and r[0] == 14:
        return "a Royal Flush" + wilds
    return {
        HIGH_CARD: f"high card {_one(r[0])}",
        PAIR: f"a pair of {_many(r[0])}",
        TWO_PAIR: f"two pair, {_many(r[0])} and {_many(r[2])}",
        THREE_OF_A_KIND: f"three of a kind, {_many(r[0])}",
        STRAIGHT: f"a straight, {_one(r[4])} to {_one(r[0])}",
        FLUSH: f"a flush, {_one(r[0])} high",
        FULL_HOUSE: f"a full house, {_many(r[0])} full of {_many(r[3])}",
        FOUR_OF_A_KIND: f"four of a kind, {_many(r[0])}",
        STRAIGHT_FLUSH: f"a straight flush, {_one(r[4])} to {_one(r[0])}",
        FIVE_OF_A_KIND: f"five of a kind, {_many(r[0])}",
    }[category] + wilds


def _low_name(evaluator: Evaluator, cards: Sequence[int], wild: int = 0) -> str | None:
    """The best low, or None when it doesn't qualify. An ace-to-five low as
    PokerStars lists it, highest card first (``8,6,4,3,2``, ``K,8,6,3,A``);
    any other low in the evaluator's words (``7-5-4-3-2 low``).

    >>> from tables.rules.cards import parse_cards
    >>> from tables.rules.evaluators import ACE_TO_SIX
    >>> _low_name(Evaluator(high=False, low=ACE_TO_FIVE), parse_cards("Ac2d3h4s5cKdQh"))
    '5,4,3,2,A'
    >>> _low_name(Evaluator(high=False, low=ACE_TO_SIX), parse_cards("Ac2d3h4s5cKdQh"))
    'Q-4-3-2-A low'

    (Ace-to-six counts the wheel as a straight, so the queen plays for the five.)
    """
    key = evaluator.low_key(cards, wild)
    if key is None:
        return None
    if evaluator.low != ACE_TO_FIVE or wild:
        return evaluator.low_name(cards, key, wild)
    return ",".join(_low_char(card) for card in evaluator.low_cards(cards))


def _low_char(card: int) -> str:
    return "A" if low_rank(card) == 1 else RANK_CHARS[rank(card) - 2]
