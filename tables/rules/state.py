"""The state of one stud hand, and the only way to change it: ``act``.

The hand walks its variant's script (:mod:`tables.rules.variants`): deal
steps start streets, bet steps open betting rounds whose sizes the table's
betting structure answers (:mod:`tables.rules.betting`), and the showdown
step asks the variant's evaluator who won. Each player's cards are one list
in dealing order, each card face up or down (:class:`Held`).

Players are numbered 0..n-1 in dealing order, 0 being the first seat clockwise
from the dealer (PHH's ``p1``); "position" in every tie-break means the lower
number. The tables app maps its seat numbers onto this order each hand.

A hand runs in one of two modes:

* **deck** (``HandState.new``): the engine deals from a 52-card deck, shuffled
  with a CSPRNG or given for a replay, and plays showdowns itself.
* **scripted** (``HandState.from_script``): the dealer's cards arrive through
  ``deal`` and the showdown through ``show``/``muck`` actions, as a PHH file
  records them. Down cards may be unknown (:data:`UNKNOWN`) until shown.

A hand may also stop for a decision that is not a bet (the ``deciding``
phase): rolling a down card face up, exchanging a card, or declaring high,
low or both. Rolls are made at once by everyone still in, and so are
declarations unless the table declares in turn: each player's choice stays
hidden (:meth:`HandState.deciding` says who has yet to choose) until the
last one is made. Exchanges go in turn from the dealer's left.

A player's own moves go through ``act``. The one move nobody chooses, seed
002's disconnect protection for a player whose time ran out, has its own door:
``can_protect`` asks and ``protect`` does (the turn clock calls them).

Every public method validates first and changes nothing on refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, NoReturn

from tables.rules.betting import STRUCTURES, Structure
from tables.rules.cards import (
    CARD_NAMES,
    DECK_SIZE,
    card_str,
    check_deck,
    rank,
    shuffled_deck,
    suit,
)
from tables.rules.config import GameConfig
from tables.rules.errors import HandOver, IllegalAction, NotYourTurn
from tables.rules.evaluators import PAIR
from tables.rules.evaluators.wild import natural
from tables.rules.pots import Contender, Pot, PotAward, allocate_rake, award_pot, build_pots
from tables.rules.variants import Bet, Deal, Showdown, Step, Variant
from tables.rules.variants.openings import shows_pair
from tables.rules.variants.steps import Decision, Declare, Exchange, Roll
from tables.rules.variants.wilds import FixedWilds, Payments

UNKNOWN = -1
SPADES = 3
BOARD = -1  # deal target for a community card

BETTING, DEALING, SHOWDOWN, OVER = "betting", "dealing", "showdown", "over"
DECIDING = "deciding"  # a roll, an exchange or a declaration is awaited
BET_KINDS = ("fold", "check", "call", "bring_in", "complete", "bet", "raise")
WAGERS = ("complete", "bet", "raise")
SHOWDOWN_KINDS = ("show", "muck")
ROLL, EXCHANGE, STAND_PAT = "roll", "exchange", "stand_pat"
DECLARATIONS = {"declare_high": "high", "declare_low": "low", "declare_both": "both"}
DECISION_KINDS = (ROLL, EXCHANGE, STAND_PAT, *DECLARATIONS)
# A scripted hand's pending deal of one card: Baseball's extra card, or the
# card that replaces one exchanged (the third element of the entry).
EXTRA, REPLACEMENT = 1, 2
# Not a choice (never in legal_actions, refused by act): only a timeout protects.
PROTECT = "protect"
# Scripted hands only: the hand history names who acts first (HandState.open_with).
OPEN_WITH = "open_with"
MAX_PLAYERS = 8


class Held(NamedTuple):
    """One card in a player's hand: the card (or :data:`UNKNOWN`) and whether
    it is face up. A player's hand is a list of these in dealing order."""

    card: int
    up: bool


class LegalAction(NamedTuple):
    """One thing the player to act may do.

    ``min``/``max`` bound the amount. ``amounts`` lists the exact amounts
    allowed where the structure has them (fixed limit allows a few exact
    sizes); ``None`` for a complete, bet or raise means any whole number
    from ``min`` to ``max`` (spread, pot and no limit). Amounts are totals for
    the street ("raise to 16"), or the chips a call or bring-in puts in.
    A decision (roll, exchange, stand pat, declare) has no amount, except
    an exchange's price (``min`` = ``max``, paid into the pot); a roll or
    an exchange lists the ``cards`` it may name.
    (A NamedTuple because the engine builds a few of these every move.)
    """

    kind: str
    min: int | None = None
    max: int | None = None
    amounts: tuple[int, ...] | None = None
    # A roll or an exchange: the cards it may name, one of them.
    cards: tuple[int, ...] | None = None

    @classmethod
    def exact(cls, kind: str, *amounts: int) -> LegalAction:
        if len(amounts) == 1:
            return cls(kind, amounts[0], amounts[0], amounts)
        ordered = tuple(sorted(set(amounts)))
        return cls(kind, ordered[0], ordered[-1], ordered)

    def allows(self, amount: object) -> bool:
        """Whether a complete, bet or raise to ``amount`` is one of these."""
        if type(amount) is not int:
            return False
        if self.amounts is not None:
            return amount in self.amounts
        return self.min is not None and self.max is not None and self.min <= amount <= self.max

    def to_dict(self) -> dict[str, Any]:
        amounts = list(self.amounts) if self.amounts is not None else None
        data: dict[str, Any] = {
            "kind": self.kind,
            "min": self.min,
            "max": self.max,
            "amounts": amounts,
        }
        if self.cards is not None:  # a scripted hand's unknown card is None
            data["cards"] = [None if c == UNKNOWN else card_str(c) for c in self.cards]
        return data

    def describe(self) -> str:
        if self.kind == "bring_in":
            return f"bring in {self.min}"
        if self.kind == "call":
            return f"call {self.min}"
        if self.kind in WAGERS:
            if self.amounts is not None:
                sizes = " or ".join(str(a) for a in self.amounts)
            else:
                sizes = f"{self.min}" if self.min == self.max else f"{self.min} to {self.max}"
            return f"{self.kind} {'to ' if self.kind != 'bet' else ''}{sizes}"
        if self.cards is not None:
            named = " or ".join("?" if c == UNKNOWN else card_str(c) for c in self.cards)
            price = f" for {self.min}" if self.min else ""
            return f"{self.kind} {named}{price}"
        return self.kind.replace("_", " ")


FOLD, CHECK = LegalAction("fold"), LegalAction("check")
# LegalAction(...) without NamedTuple's Python-level __new__: the engine
# offers a call and a wager at most moves this way.
_new = tuple.__new__
# Every card a hand can hold, made once, by face: HELD[up][card]. A Held is
# immutable, so all hands share them.
HELD = tuple({card: Held(card, up) for card in range(UNKNOWN, DECK_SIZE)} for up in (False, True))

# Every field that makes up a hand, in to_dict order. Derived values
# (the Variant, the betting structure) are recomputed, not stored.
FIELDS = (
    "config", "scripted", "starting_stacks", "deck", "stub", "stub_count", "burns",
    "stacks", "bets", "committed", "folded", "protected", "cards", "community",
    "step", "street", "phase", "to_act", "needs", "acted_level", "acted_bet", "current_bet",
    "full_level",
    "raise_size", "wagers", "big_made", "open_pair", "bring_in_due", "round_players",
    "first_actor", "last_aggressor", "pending_deals", "showdown_order", "shown", "mucked",
    "deciders", "choices", "declared", "discards",
    "actions", "events", "turn", "result",
)  # fmt: skip
# Fields added after hands were first stored, with what a saved hand without
# one loads as. (Hands saved before the one card list are upgraded whole.)
LATER_FIELDS = ("protected", "deciders", "choices", "declared", "discards")
REQUIRED_FIELDS = frozenset(FIELDS) - frozenset(LATER_FIELDS)


@dataclass(slots=True, eq=False, repr=False, init=False)
class HandState:
    """One hand. Build it with :meth:`new`, :meth:`from_script` or
    :meth:`from_dict`; change it only with :meth:`act` (and the dealer's and
    the clock's doors). Every field below is saved by :meth:`to_dict`."""

    config: GameConfig
    scripted: bool
    starting_stacks: list[int]
    deck: list[int] | None  # the whole shuffled deck (deck mode only)
    stub: list[int] | None  # the undealt cards; pop() deals the next (deck mode only)
    stub_count: int
    burns: list[int]
    stacks: list[int]
    bets: list[int]  # chips in on this street
    committed: list[int]  # chips in this hand, antes included
    folded: list[bool]
    protected: list[bool]
    cards: list[list[Held]]  # each player's cards in dealing order, face up or down
    community: list[int]
    step: int  # where the hand is in its variant's script
    street: int  # which deal step (street) the hand has reached, from 0
    phase: str
    to_act: int | None
    needs: list[bool]  # still to act in this round
    acted_level: list[int]  # the full level each player last acted at
    acted_bet: list[int]  # the street total each player last chose to match (-1: not yet)
    current_bet: int  # the street total to call
    full_level: int  # the street total of the last full wager
    raise_size: int  # the largest full bet or raise of the round
    wagers: int  # full completes, bets and raises this round
    big_made: bool
    open_pair: bool
    bring_in_due: bool
    round_players: int
    first_actor: int | None
    last_aggressor: int | None
    pending_deals: list[list[int]]
    showdown_order: list[int]
    shown: list[bool]
    mucked: list[bool]
    deciders: list[int]  # who has yet to make the decision under way, in turn order
    choices: list[int | str | None]  # a roll's card or a declaration, hidden till all have chosen
    declared: list[str | None]  # hi-lo declare: "high", "low" or "both", once revealed
    discards: list[int]  # cards exchanged away (dead; a down one known to its owner only)
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    turn: int
    result: dict[str, Any] | None
    # Not saved: the Variant and betting structure come from the config, the
    # caches (options, the cards a scripted hand knows) from the state.
    game: Variant
    betting: Structure
    n: int
    _options: tuple[int, tuple[LegalAction, ...]] | None
    _seen: set[int] | None
    _up: list[list[int]] | None  # each player's upcards, kept as cards are placed

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(
        cls, config: GameConfig, stacks: Sequence[int], deck: Sequence[int] | None = None
    ) -> HandState:
        """Start a hand dealt from ``deck`` (a fresh CSPRNG shuffle when omitted)."""
        cards = shuffled_deck() if deck is None else check_deck(deck)
        state = cls._blank(config, stacks, scripted=False)
        state.deck = cards
        state.stub = cards[::-1]  # pop() deals the next card
        state._post_antes()
        state._run()
        return state

    @classmethod
    def from_script(cls, config: GameConfig, stacks: Sequence[int]) -> HandState:
        """Start a hand whose cards arrive through :meth:`deal` (PHH replays)."""
        state = cls._blank(config, stacks, scripted=True)
        state._post_antes()
        state._run()
        return state

    @classmethod
    def _blank(cls, config: GameConfig, stacks: Sequence[int], *, scripted: bool) -> HandState:
        if not isinstance(config, GameConfig):
            raise IllegalAction("a hand needs a GameConfig")
        stacks = _check_stacks(stacks, config.game)
        n = len(stacks)
        state = cls.__new__(cls)
        state.config, state.game, state.n, state.scripted = config, config.game, n, scripted
        state.betting = STRUCTURES[config.structure]
        state.starting_stacks, state.stacks = list(stacks), list(stacks)
        state.deck, state.stub, state.stub_count, state.burns = None, None, DECK_SIZE, []
        state.bets, state.committed = [0] * n, [0] * n
        state.folded, state.shown, state.mucked = [False] * n, [False] * n, [False] * n
        state.protected = [False] * n
        state.deciders, state.choices, state.declared = [], [None] * n, [None] * n
        state.discards = []
        state.cards, state.community = [[] for _ in stacks], []
        state.step, state.street, state.phase, state.to_act = 0, -1, DEALING, None
        state._reset_round()
        state.first_actor = state.last_aggressor = None
        state.pending_deals, state.showdown_order = [], []
        state.actions, state.events, state.turn, state.result = [], [], 0, None
        state._options = state._seen = None
        state._up = [[] for _ in stacks]
        return state

    def _reset_round(self) -> None:
        self.needs, self.acted_level = [False] * self.n, [-1] * self.n
        self.acted_bet = [-1] * self.n
        self.current_bet = self.full_level = self.raise_size = 0
        self.wagers = self.round_players = 0
        self.big_made = self.open_pair = self.bring_in_due = False
        self.last_aggressor = None

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    @property
    def street_name(self) -> str:
        return self.game.streets[max(self.street, 0)]

    @property
    def round_is_big(self) -> bool:
        """Whether the betting round under way is one of the script's big-bet rounds."""
        return self.game.big_steps[self.step]  # the script ends in its showdown step

    @property
    def live(self) -> list[int]:
        """Players still in the hand (not folded), in seat order."""
        return [i for i, folded in enumerate(self.folded) if not folded]

    def is_all_in(self, player: int) -> bool:
        """In the hand but betting no more: out of chips, or protected."""
        return not self.folded[player] and (self.stacks[player] == 0 or self.protected[player])

    def _can_bet(self, player: int) -> bool:
        return self.stacks[player] > 0 and not self.folded[player] and not self.protected[player]

    @property
    def pot_total(self) -> int:
        return sum(self.committed)

    def upcards(self, player: int) -> list[int]:
        """A player's face-up cards in dealing order."""
        return list(self._upcards()[player])

    def _upcards(self) -> list[list[int]]:
        """Every player's upcards (the engine's own copy: the rounds' openers
        read them every street). Kept as cards are placed, rebuilt after a load."""
        if self._up is None:
            self._up = [[card for card, up in hand if up] for hand in self.cards]
        return self._up

    def downcards(self, player: int) -> list[int]:
        """A player's face-down cards in dealing order."""
        return [card for card, up in self.cards[player] if not up]

    def hidden_discards(self, player: int) -> list[int]:
        """The down cards ``player`` exchanged away (English stud): theirs
        alone to know, even once their hand is shown."""
        return [
            e["card"]
            for e in self.events
            if e["type"] == EXCHANGE and e["player"] == player and not e["up"]
        ]

    def cards_of(self, player: int) -> list[int]:
        """All of a player's cards in dealing order, plus any community card."""
        return [card for card, _ in self.cards[player]] + self.community

    def legal_actions(self, player: int | None = None) -> list[LegalAction]:
        """What ``player`` (default: the player to act) may do now; empty
        when it isn't theirs to do anything. In a decision everyone makes at
        once (:attr:`simultaneous`) there is no player to act: name one."""
        if player is None:
            player = self.to_act
        if player is None or (player != self.to_act and player not in self.deciding()):
            return []
        if self.phase == BETTING:
            cached = self._options  # the options of this turn, if worked out already
            if cached is None or cached[0] != self.turn:
                cached = self._work_out_options()
            return list(cached[1])
        if self.phase == SHOWDOWN:
            return [LegalAction("show"), LegalAction("muck")]
        if self.phase == DECIDING:
            return self._decision_options(player)
        return []

    @property
    def decision(self) -> Decision | None:
        """The decision under way (a script step), or None."""
        if self.phase != DECIDING:
            return None
        step = self.game.script[self.step]
        assert isinstance(step, (Roll, Exchange, Declare))
        return step

    @property
    def decision_name(self) -> str | None:
        """The decision under way in a word: "roll", "exchange" or "declare"."""
        step = self.decision
        if step is None:
            return None
        if isinstance(step, Roll):
            return ROLL
        return EXCHANGE if isinstance(step, Exchange) else "declare"

    @property
    def simultaneous(self) -> bool:
        """Whether everyone still to decide does it at once, unseen (a roll,
        and a declaration unless the table declares in turn)."""
        step = self.decision
        return isinstance(step, Roll) or (
            isinstance(step, Declare) and not self.config.declare_in_turn
        )

    def deciding(self) -> list[int]:
        """Who has yet to make the decision under way: everyone still to
        choose when all choose at once, else the player whose turn it is."""
        if self.phase != DECIDING:
            return []
        return list(self.deciders) if self.simultaneous else self.deciders[:1]

    @property
    def pending_deal(self) -> tuple[int, int] | None:
        """Scripted mode: (player or BOARD, number of cards) the dealer must deal next."""
        if not self.pending_deals:
            return None
        target, count = self.pending_deals[0][:2]
        return (target, count)

    # ------------------------------------------------------------------ actions

    def act(
        self,
        player: int,
        kind: str,
        amount: int | None = None,
        cards: Sequence[int] | None = None,
        *,
        timed_out: bool = False,
        at: str | None = None,
    ) -> None:
        """Apply one player action after checking it against the rules.

        Raises :class:`IllegalAction` (and changes nothing) if it isn't legal.
        ``timed_out`` says the turn clock made the move for the player: its
        action and its event are marked so (for the log), and a replay of the
        action list marks them again. ``at``, when the move was made (any text:
        the rules don't read it), is kept in its action, so the action list is
        the whole record of the hand's moves.
        """
        if self.phase != BETTING or player != self.to_act or type(player) is not int:
            self._check_actor(player)  # raises, unless it is a showdown's or a decision's turn
        _check_time(at)
        if kind == PROTECT:
            raise IllegalAction(
                f"player {player} can't choose {PROTECT!r}; only a timeout protects a player"
            )
        first_action, first_event = len(self.actions), len(self.events)
        if self.phase == SHOWDOWN:
            self._showdown_act(player, kind, cards)
        elif self.phase == DECIDING:
            self._decide(player, kind, amount, cards)
        else:
            if cards is not None:
                raise IllegalAction(f"{kind!r} takes no cards")
            self._bet_act(player, kind, amount)
        if timed_out:
            self.actions[first_action] = {**self.actions[first_action], "timed_out": True}
            self.events[first_event] = {**self.events[first_event], "timed_out": True}
        if at is not None:
            self._stamp(first_action, at)

    def _stamp(self, action: int, at: str) -> None:
        self.actions[action] = {**self.actions[action], "at": at}

    def can_protect(self) -> bool:
        """Whether the player to act, if their time runs out, is protected (seed 002).

        Only a player betting now who has put chips in beyond their ante this
        hand qualifies; anyone else's timeout checks or folds.
        """
        if self.phase != BETTING or self.to_act is None:
            return False
        player = self.to_act
        return self.committed[player] > min(self.config.ante, self.starting_stacks[player])

    def protect(self, player: int, *, timed_out: bool = False, at: str | None = None) -> None:
        """Seed 002's disconnect protection for ``player``, whose time ran out
        (``timed_out`` and ``at`` mark its action as for :meth:`act`; the
        turn clock always makes it, but a hand history may not say so).

        The player is all in for what they have put in so far: they stay in the
        hand, may win only the pots built up to that, put in nothing more and
        are never asked to bet again. Their chips behind stay theirs. The
        others bet on into side pots.
        """
        self._check_actor(player)
        _check_time(at)
        if not self.can_protect():
            raise IllegalAction(
                f"player {player} can't be protected now: only a player betting who has "
                "put in more than the ante is; a timeout otherwise checks or folds"
            )
        marks = {"timed_out": True} if timed_out else {}
        self.actions.append({"player": player, "kind": PROTECT, "amount": None, **marks})
        if at is not None:
            self._stamp(len(self.actions) - 1, at)
        self.turn += 1
        self.protected[player] = True
        self.needs[player] = False
        self.events.append(
            {
                "type": PROTECT,
                "player": player,
                "put_in": self.committed[player],
                "stack": self.stacks[player],
                **marks,
            }
        )
        if self._nobody_to_decide():
            self._close_round()
        else:
            self._pass_turn(player)

    def _nobody_to_decide(self) -> bool:
        """After a protection: is at most one player left who can bet, owing
        nothing? Their only move would be a check, so the round ends at once."""
        able = [p for p in self.live if self._can_bet(p)]
        return len(able) < 2 and all(self.bets[p] >= self.current_bet for p in able)

    def deal(self, target: int, cards: Sequence[int]) -> None:
        """Scripted mode: deal ``cards`` to player ``target`` or the board (:data:`BOARD`)."""
        if not self.scripted:
            raise IllegalAction("this hand deals from its own deck; cards can't be dealt by hand")
        if self.phase != DEALING or not self.pending_deals:
            raise IllegalAction(f"nothing is to be dealt now; the hand is {self._where()}")
        want_target, want_count, *extra = self.pending_deals[0]
        if target != want_target:
            raise IllegalAction(f"the next cards go to {_who(want_target)}, not {_who(target)}")
        dealt = self._check_dealt_cards(target, cards, want_count)
        self.pending_deals.pop(0)
        self.stub_count -= want_count
        self.actions.append({"player": None, "kind": "deal", "target": target, "cards": dealt})
        self.turn += 1
        step = self.game.script[self.step]
        if extra == [REPLACEMENT]:
            self._place_replacement(target, dealt[0])
            self.phase = DECIDING
            self._next_decider()
            return
        if extra:
            self._place_extra(target, dealt[0])
        else:
            self._place(target, dealt, step.faces if isinstance(step, Deal) else ())
            regular = sum(deal[1] for deal in self.pending_deals if len(deal) == 2)
            if self._earns_extra(dealt, step, regular):
                self.pending_deals.insert(0, [target, 1, EXTRA])  # dealt to them at once
        if not self.pending_deals:
            self._after_street_dealt()  # once the street is dealt, as from a deck
            self.step += 1
            self._run()

    def _check_actor(self, player: int) -> None:
        if self.phase == OVER:
            raise HandOver("the hand is over; no more actions are allowed")
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction(f"player must be a number from 0 to {self.n - 1}, not {player!r}")
        if self.phase == DEALING:
            raise IllegalAction(f"the dealer is dealing {self.street_name}; no player may act yet")
        if self.phase == SHOWDOWN and player in self.showdown_order:
            return
        if self.phase == DECIDING:
            if player in self.deciding():
                return
            if player in self.deciders:
                raise NotYourTurn(
                    f"it is player {self.deciders[0]}'s turn to {self.decision_name}, "
                    f"not player {player}'s"
                )
            raise IllegalAction(f"player {player} has nothing to decide now")
        if self.phase == BETTING and self.to_act is None:
            raise IllegalAction(
                f"unknown upcards leave open who acts first on {self.street_name}; "
                "the hand history must name them"
            )
        if player != self.to_act:
            raise NotYourTurn(f"it is player {self.to_act}'s turn to act, not player {player}'s")

    # ------------------------------------------------------------------ betting

    def _bet_act(self, player: int, kind: str, amount: int | None) -> None:
        cached = self._options  # the options of this turn, if worked out already
        if cached is None or cached[0] != self.turn:
            cached = self._work_out_options()
        options = cached[1]
        for option in options:
            if option.kind == kind:
                break
        else:
            self._refuse(f"player {player} can't {kind!r} now", options)
        if kind in WAGERS:
            if not option.allows(amount):
                self._refuse(f"player {player} can't {kind} to {amount!r}", options)
        elif amount is not None and (type(amount) is not int or amount != option.min):
            self._refuse(f"player {player} can't {kind} {amount!r}", options)
        self.actions.append({"player": player, "kind": kind, "amount": amount})
        self.turn += 1
        self._apply_bet(player, kind, amount)

    @staticmethod
    def _refuse(problem: str, options: Sequence[LegalAction]) -> NoReturn:
        allowed = "; ".join(o.describe() for o in options)
        raise IllegalAction(f"{problem}; allowed: {allowed}")

    def _work_out_options(self) -> tuple[int, tuple[LegalAction, ...]]:
        """The betting options of the player to act, worked out once per turn
        and kept with the turn they are for in ``_options``, the cache that
        every move reads first."""
        assert self.to_act is not None
        self._options = (self.turn, self._betting_options(self.to_act))
        return self._options

    def _betting_options(self, player: int) -> tuple[LegalAction, ...]:
        """The bring-in, fold and call, or check, then any complete, bet or raise."""
        stack = self.stacks[player]
        if self.bring_in_due:
            paying = min(self.config.bring_in, stack)
            forced = _new(LegalAction, ("bring_in", paying, paying, (paying,), None))
            if stack > paying:
                return (forced, self._wager_option(player))
            return (forced,)
        owed = self.current_bet - self.bets[player]
        paying = stack if owed > stack else owed if owed > 0 else 0  # what a call puts in
        may_raise = stack > paying and self._may_raise(player)
        if paying:
            call = _new(LegalAction, ("call", paying, paying, (paying,), None))
            return (FOLD, call, self._wager_option(player)) if may_raise else (FOLD, call)
        return (CHECK, self._wager_option(player)) if may_raise else (CHECK,)

    def _may_raise(self, player: int) -> bool:
        """Whether the betting is open to ``player``: a full wager since they
        last acted, the round not capped, and someone else able to call (no
        raising when every other live player is all in or protected)."""
        betting = self.betting
        if not betting.reopened(self, player) or betting.capped(self):
            return False
        stacks, folded, protected = self.stacks, self.folded, self.protected
        for other in range(self.n):
            if other != player and stacks[other] and not folded[other] and not protected[other]:
                return True
        return False

    def _wager_option(self, player: int) -> LegalAction:
        reach = self.bets[player] + self.stacks[player]
        low, high, exact = self.betting.targets(self, player)
        if self.bring_in_due or (self.current_bet and not self.wagers):
            kind = "complete"  # the bring-in, or a short all-in, is not yet a full bet
        else:
            kind = "raise" if self.current_bet else "bet"
        if exact is not None:
            if reach >= high:
                return _new(LegalAction, (kind, low, high, exact, None))
            amounts = [t for t in exact if t <= reach]
            if reach < exact[-1] and reach not in amounts:
                amounts.append(reach)  # all in for less than a full wager
            return LegalAction(kind, amounts[0], amounts[-1], tuple(amounts))  # ascending
        if reach <= low:
            return LegalAction(kind, reach, reach)  # all in for a full wager or less
        return LegalAction(kind, low, min(high, reach))

    def _apply_bet(self, player: int, kind: str, amount: int | None) -> None:
        if kind == "call":  # _put's and _log_action's, written out: the commonest move
            stacks, bets = self.stacks, self.bets
            chips = min(self.current_bet - bets[player], stacks[player])
            stacks[player] -= chips
            bets[player] += chips
            self.committed[player] += chips
            total, all_in = bets[player], not stacks[player]
            self.events.append({"type": kind, "player": player, "total": total, "all_in": all_in})
        elif kind == "check":
            self._log_action(player, kind, 0)
        elif kind == "fold":
            self.folded[player] = True
            self.events.append({"type": "fold", "player": player})
        elif kind == "bring_in":
            self._put(player, min(self.config.bring_in, self.stacks[player]))
            self.current_bet = self.config.bring_in  # a short all-in bring-in is called in full
            self.bring_in_due = False
            self._log_action(player, kind, self.bets[player])
        else:
            assert amount is not None  # a complete, bet or raise, checked by _bet_act
            self._apply_wager(player, kind, amount)
        self.needs[player] = False
        self.acted_level[player] = self.full_level
        if kind != "bring_in":  # a forced bet is no choice: the bring-in may still raise
            self.acted_bet[player] = self.current_bet
        if kind == "fold" and self.folded.count(False) == 1:
            self._close_round()
        else:
            self._pass_turn(player)

    def _apply_wager(self, player: int, kind: str, total: int) -> None:
        full = self.betting.is_full(self, total)
        if self.open_pair and total - self.full_level >= self.config.big_bet:
            self.big_made = True
        self._put(player, total - self.bets[player])
        if full:
            # The raise is measured from the bet it tops (seed 003: the next one is
            # at least as large); a complete from nothing, since a bring-in is no bet.
            raised_from = self.current_bet if self.wagers else 0
            self.wagers += 1
            self.raise_size = max(self.raise_size, total - raised_from)
            self.full_level = total
        self.current_bet = total
        self.bring_in_due = False
        self.last_aggressor = player
        needs, stacks, folded, protected = self.needs, self.stacks, self.folded, self.protected
        for other in range(self.n):  # everyone else still betting must act again
            needs[other] = (
                other != player and stacks[other] > 0 and not folded[other] and not protected[other]
            )
        self._log_action(player, kind, total)

    def _put(self, player: int, chips: int) -> None:
        self.stacks[player] -= chips
        self.bets[player] += chips
        self.committed[player] += chips

    def _log_action(self, player: int, kind: str, total: int) -> None:
        self.events.append(
            {"type": kind, "player": player, "total": total, "all_in": self.stacks[player] == 0}
        )

    def _pass_turn(self, player: int) -> None:
        needs, n = self.needs, self.n
        for step in range(1, n):
            nxt = (player + step) % n
            if needs[nxt]:
                self.to_act = nxt
                return
        self._close_round()

    # ---------------------------------------------------------- the script

    def _run(self) -> None:
        """Walk the variant's script from the current step until a player, or
        (in a scripted hand) the dealer, must act, or the hand is over."""
        script = self.game.script
        while self.phase != OVER:
            step = script[self.step]
            if isinstance(step, Deal):
                if not self._deal_step(step):
                    return  # the dealer's cards come through deal()
            elif isinstance(step, Bet):
                if self._open_round(step):
                    return
            elif isinstance(step, (Roll, Exchange, Declare)):
                if self._open_decision():
                    return
            elif isinstance(step, Showdown):
                self._start_showdown()
                return
            self.step += 1

    def _post_antes(self) -> None:
        for player in range(self.n):
            chips = min(self.config.ante, self.stacks[player])
            if chips:
                self.stacks[player] -= chips
                self.committed[player] += chips
                self.events.append({"type": "ante", "player": player, "amount": chips})

    def _deal_step(self, step: Deal) -> bool:
        """Start a street: burn, then deal. False while a scripted hand waits for cards."""
        if not step.dealt_to(self.n):
            return True  # a street this many players are not dealt (English stud's 7th)
        self.street += 1
        self.phase, self.to_act = DEALING, None
        self._reset_round()
        plan = self._deal_plan(step)
        self._burn(len(plan) * plan[0][1])  # every target gets as many cards
        if self.scripted:
            self.pending_deals = plan
            return False
        if self.game.extra_card is not None and plan[0][0] != BOARD:
            self._deal_with_extras(plan, step)
        else:
            self._deal_from_deck(plan, step)
        self._after_street_dealt()
        return True

    def _deal_plan(self, step: Deal) -> list[list[int]]:
        """Who gets how many cards this street, reusing burns or going to a
        community card when the deck runs short (seeds 000, 001, 003)."""
        per, live = len(step.faces), self.live
        need = len(live) * per
        if self.stub_count < need + 1 and self.burns:
            self._reuse_burns()
        if self.stub_count >= need:
            return [[player, per] for player in live]
        if per != 1 or self.stub_count < 1:
            raise IllegalAction("the deck can't complete this deal")  # unreachable with 8 seats
        return [[BOARD, 1]]

    def _reuse_burns(self) -> None:
        self.stub_count += len(self.burns)
        if self.stub is not None:
            self.stub[:0] = self.burns[::-1]  # under the stub: dealt after what is left
        self.events.append({"type": "reuse_burns", "count": len(self.burns)})
        self.burns = []

    def _burn(self, need: int) -> None:
        """Burn before the street unless that would leave too few cards to deal.
        In a scripted hand the burn is a card nobody knows; it is only counted."""
        if self.stub_count < need + 1:
            self.events.append({"type": "no_burn", "street": self.street})
            return
        card = self.stub.pop() if self.stub is not None else UNKNOWN
        self.burns.append(card)
        self.stub_count -= 1
        self.events.append({"type": "burn", "card": card, "street": self.street})

    def _deal_from_deck(self, plan: list[list[int]], step: Deal) -> None:
        stub = self.stub
        assert stub is not None  # deck mode
        if plan[0][0] == BOARD:
            self._place(BOARD, [stub.pop()])
            self.stub_count -= 1
            return
        # One card at a time around the table, each off the top of the stub
        # (its end): player i of k gets the cards i, i + k, i + 2k... from the top.
        faces, street, hands, events = step.faces, self.street, self.cards, self.events
        upcards = self._upcards()
        players, total = len(plan), len(plan) * len(faces)
        top = stub[: -total - 1 : -1]
        del stub[-total:]
        self.stub_count -= total
        deal = events.append
        for i, (player, _) in enumerate(plan):
            hand, up_cards, at = hands[player], upcards[player], i
            for up in faces:
                card = top[at]
                at += players
                hand.append(HELD[up][card])
                deal(  # _deal_event's, written out: it runs for every card dealt
                    {"type": "deal", "player": player, "card": card, "up": up, "street": street}
                )
                if up:
                    up_cards.append(card)

    def _deal_with_extras(self, plan: list[list[int]], step: Deal) -> None:
        """Deal a street one card at a time around the table, as
        :meth:`_deal_from_deck` does, where a card dealt face up may earn its
        owner an extra card at once (Baseball's fours). The events come a
        player at a time, each extra card after the player's street."""
        stub = self.stub
        assert stub is not None  # deck mode
        faces = step.faces
        dealt: dict[int, list[int]] = {player: [] for player, _ in plan}
        extras: dict[int, int] = {}
        remaining = len(plan) * len(faces)
        for up in faces:
            for player, _ in plan:
                card = stub.pop()
                self.stub_count -= 1
                remaining -= 1
                dealt[player].append(card)
                if up and self._extra_due(card, remaining):
                    extras[player] = stub.pop()
                    self.stub_count -= 1
        for player, _ in plan:
            self._place(player, dealt[player], faces)
            if player in extras:
                self._place_extra(player, extras[player])

    def _earns_extra(self, cards: Sequence[int], step: Step, remaining: int) -> bool:
        """Scripted mode: whether these cards, just placed, earn an extra card."""
        if self.game.extra_card is None or not isinstance(step, Deal):
            return False
        ups = [card for card, up in zip(cards, step.faces, strict=True) if up]
        return any(self._extra_due(card, remaining) for card in ups)

    def _extra_due(self, card: int, remaining: int) -> bool:
        """Baseball: a card of the variant's extra-card rank, dealt face up,
        earns its owner one more card, face down, when the deck still holds
        one beyond the ``remaining`` cards this street's deal needs."""
        rule = self.game.extra_card
        return (
            rule is not None
            and card >= 0
            and rank(card) == rule
            and (self.stub_count - remaining >= 1)
        )

    def _place_extra(self, player: int, card: int) -> None:
        """Give a player the extra card a face-up card earned them: face down."""
        if self._seen is not None:
            self._seen.add(card)
            self._seen.discard(UNKNOWN)
        self.cards[player].append(HELD[False][card])
        self.events.append({**_deal_event(player, card, False, self.street), "extra": True})

    def _check_dealt_cards(self, target: int, cards: Sequence[int], count: int) -> list[int]:
        if not isinstance(cards, (list, tuple)) or len(cards) != count:
            raise IllegalAction(f"{_who(target)} must be dealt {count} card(s) now")
        seen, fresh = self._known_cards(), set()
        for card in cards:
            if type(card) is not int or not UNKNOWN <= card < DECK_SIZE:
                raise IllegalAction("dealt cards must be cards (or unknown)")
            if card == UNKNOWN:
                if target == BOARD:
                    raise IllegalAction("a community card can't be unknown: every hand plays it")
            elif card in seen or card in fresh:
                raise IllegalAction(f"a card was dealt twice: {card_str(card)}")
            else:
                fresh.add(card)
        return list(cards)

    def _known_cards(self) -> set[int]:
        """Every card the hand has placed that isn't unknown: a scripted hand
        checks each card dealt or shown against them. Kept as cards are placed."""
        if self._seen is None:
            seen = {held.card for hand in self.cards for held in hand}
            seen.update(self.community)
            seen.discard(UNKNOWN)
            self._seen = seen
        return self._seen

    def _place(self, target: int, cards: list[int], faces: tuple[bool, ...] = ()) -> None:
        """Give ``target`` the ``cards`` with the ``faces`` of the deal under way
        (or put the one community card on the board)."""
        if self._seen is not None:  # built by a scripted hand's first check
            self._seen.update(cards)
            self._seen.discard(UNKNOWN)
        if target == BOARD:
            self.community.extend(cards)
            self.events.append({"type": "board", "card": cards[0], "street": self.street})
            return
        street, dealt = self.street, list(zip(cards, faces, strict=True))
        upcards = self._upcards()  # before the cards go in: a rebuilt list would hold them
        self.cards[target] += [HELD[up][card] for card, up in dealt]
        upcards[target] += [card for card, up in dealt if up]
        self.events += [_deal_event(target, card, up, street) for card, up in dealt]

    # ---------------------------------------------------------- opening a round

    def _open_round(self, step: Bet) -> bool:
        """Open a betting round; False when fewer than two players can bet."""
        if not self._street_just_dealt():  # dealing one resets the round
            self._reset_round()  # after a decision, or a street not dealt
        able = self._able()
        self.phase = BETTING
        self.round_players = len(able)
        if len(able) < 2:
            # Nobody left to bet against: deal on. Who would have opened still
            # counts, for the order of the showdown.
            self.first_actor = self._openers(self.live)[0]
            return False
        self.open_pair = step.open_pair and self.config.open_pair and self._any_open_pair()
        for player in able:
            self.needs[player] = True
        self.bring_in_due = step.bring_in and bool(self.config.bring_in)
        choices = self._first_to_act(able)
        if len(choices) == 1:
            self.to_act, self.first_actor = next(iter(choices.items()))
        else:
            self.to_act = self.first_actor = None  # a scripted hand names them: open_with()
        return True

    def _street_just_dealt(self) -> bool:
        """Whether the step before this one dealt a street (it may be one that
        this many players are not dealt: English stud's 7th)."""
        before = self.game.script[self.step - 1] if self.step else None
        return isinstance(before, Deal) and before.dealt_to(self.n)

    def open_with(self, player: int) -> None:
        """Scripted mode: ``player`` acts first in a round whose opener depends
        on upcards nobody knows, as the hand history says.

        Only a player the known cards allow (:meth:`opening_choices`) may open.
        """
        choices = self.opening_choices()
        if not choices:
            raise IllegalAction(f"nobody needs naming to act first; the hand is {self._where()}")
        if type(player) is not int or player not in choices:
            allowed = ", ".join(f"player {p}" for p in choices)
            raise IllegalAction(
                f"player {player} can't act first on {self.street_name}: by the cards "
                f"known it is one of {allowed}"
            )
        self.actions.append({"player": player, "kind": OPEN_WITH, "amount": None})
        self.turn += 1
        self.to_act, self.first_actor = player, self._first_to_act(self._able())[player]

    def opening_choices(self) -> list[int]:
        """Who may act first when unknown upcards leave it open; empty otherwise."""
        if self.phase != BETTING or self.to_act is not None:
            return []
        return sorted(self._first_to_act(self._able()))

    def _able(self) -> list[int]:
        """Players still in the hand who can still bet, in seat order."""
        stacks, folded, protected = self.stacks, self.folded, self.protected
        return [p for p in range(self.n) if stacks[p] and not folded[p] and not protected[p]]

    def _first_to_act(self, able: list[int]) -> dict[int, int]:
        """Who acts first this round, mapped to the opener the cards picked.

        The cards pick the lowest door card to bring in (or the best door card,
        with no bring-in), then the best showing hand. If that player is all in,
        the WSOP rule has the next seat clockwise act, as if the opener had
        checked; the other rule picks among those still betting. One entry,
        unless unknown upcards leave several possible.
        """
        if self.config.all_in_opener != "next_seat":
            return {p: p for p in self._openers(able)}
        first: dict[int, int] = {}
        for opener in self._openers(self.live):
            first.setdefault(self._next_able(opener), opener)
        return first

    def _next_able(self, player: int) -> int:
        """``player``, or the first seat clockwise after them who can still bet."""
        for step in range(self.n):
            seat = (player + step) % self.n
            if self._can_bet(seat):
                return seat
        raise AssertionError("a betting round opened with nobody able to bet")

    def _openers(self, pool: list[int]) -> list[int]:
        """The player in ``pool`` whose cards open the round, ties to position:
        on the bring-in round the door card that brings in (or with no
        bring-in, the best door card), later the best showing hand.

        In a scripted hand a player whose upcards are unknown might be the one:
        every such player is returned too, with the best of the known hands.
        """
        opening, config, community = self.game.opening, self.config, self.community
        door, bring_in = self._door_round, config.bring_in > 0
        suit_tie = config.tie_break == "suit"
        best, best_key = -1, 0
        unknown: list[int] = []
        upcards, wild_game = self._upcards(), self.game.wild_game
        scripted = self.scripted  # only a scripted hand holds unknown cards
        for player in pool:  # in seat order: the first of equal keys has position
            up = upcards[player]
            if scripted and UNKNOWN in up:
                unknown.append(player)
                continue
            wild = self.known_wild(player) if wild_game else 0
            if door:
                key = opening.door_key(up[0], bring_in, suit_tie, wild)
            else:
                showing = up + community if community else up
                key = opening.showing_order(showing, suit_tie, wild)
            if best < 0 or key < best_key:
                best, best_key = player, key
        if best < 0:
            return unknown
        return sorted([best, *unknown]) if unknown else [best]

    @property
    def _door_round(self) -> bool:
        """Whether the round under way is opened by the door cards (the bring-in round)."""
        step = self.game.script[self.step]
        return isinstance(step, Bet) and step.bring_in

    def _any_open_pair(self) -> bool:
        """A pair showing on 4th street, or in a scripted hand, unknown upcards
        that might make one: then the big bet is allowed, as the file may show."""
        upcards = self._upcards()
        for player in self.live:
            up = upcards[player]
            if UNKNOWN in up or shows_pair(up):
                return True
        return False

    # ---------------------------------------------------------- closing a round

    def _close_round(self) -> None:
        self._return_uncalled()
        self.bets = [0] * self.n
        self.to_act = None
        if self.folded.count(False) == 1:
            self._award_uncontested(self.folded.index(False))
            return
        self.step += 1
        self._run()

    def _return_uncalled(self) -> None:
        bets = self.bets
        highest = max(bets)
        if not highest:
            return
        top = bets.index(highest)  # the first seat, should two bet the most
        excess = highest - sorted(bets)[-2]
        if excess > 0:
            self.stacks[top] += excess
            self.bets[top] -= excess
            self.committed[top] -= excess
            self.events.append({"type": "return", "player": top, "amount": excess})

    # ---------------------------------------------------------------- decisions

    def _open_decision(self) -> bool:
        """Ask everyone still in for the step's decision; False (nothing to
        ask) when one player is left. Players decide from the dealer's left."""
        live = self.live
        if len(live) < 2:
            return False
        self.phase, self.to_act = DECIDING, None
        self.deciders, self.choices = list(live), [None] * self.n
        if not self.simultaneous:
            self.to_act = self.deciders[0]
        return True

    def _decision_options(self, player: int) -> list[LegalAction]:
        step = self.decision
        hand = self.cards[player]
        if isinstance(step, Roll):
            return [LegalAction(ROLL, cards=tuple(held.card for held in hand if not held.up))]
        if isinstance(step, Exchange):
            price = self._exchange_price()
            can_pay = not price or (self.stacks[player] >= price and not self.protected[player])
            if not can_pay or self.stub_count + len(self.burns) == 0:
                return [LegalAction(STAND_PAT)]
            cards = tuple(held.card for held in hand)
            fee = price or None
            return [LegalAction(EXCHANGE, fee, fee, cards=cards), LegalAction(STAND_PAT)]
        return [LegalAction(kind) for kind in DECLARATIONS]

    def _exchange_price(self) -> int:
        """What an exchange now costs (GameConfig.exchange_cost), or 0."""
        return self.config.exchange_cost(self.step)

    def default_decision(self, player: int) -> tuple[str, list[int] | None]:
        """The decision the turn clock makes for a player whose time ran out
        (docs/rules.md): roll the down card dealt last, stand pat, or declare
        high with a pair or better and low without one."""
        step = self.decision
        if step is None or player not in self.deciding():
            raise IllegalAction(f"player {player} has nothing to decide now")
        if isinstance(step, Roll):
            return ROLL, [self._decision_options(player)[0].cards[-1]]  # type: ignore[index]
        if isinstance(step, Exchange):
            return STAND_PAT, None
        cards = self.cards_of(player)
        if UNKNOWN in cards:
            return "declare_high", None
        paired = self.game.evaluator.high_category(cards, self.wild_for(player)) >= PAIR
        return ("declare_high" if paired else "declare_low"), None

    def _decide(
        self, player: int, kind: str, amount: int | None, cards: Sequence[int] | None
    ) -> None:
        options = self._decision_options(player)
        option = next((o for o in options if o.kind == kind), None)
        if option is None:
            self._refuse(f"player {player} can't {kind!r} now", options)
        if amount is not None and (type(amount) is not int or amount != option.min):
            self._refuse(f"player {player} can't {kind} for {amount!r}", options)
        card = self._named_card(player, option, cards, options)
        named = None if card is None else [card]
        self.actions.append({"player": player, "kind": kind, "amount": None, "cards": named})
        self.turn += 1
        if kind == ROLL:
            self._choose(player, card)
        elif kind == EXCHANGE:
            assert card is not None
            self._exchange(player, card)
        elif kind == STAND_PAT:
            self.events.append({"type": STAND_PAT, "player": player, "street": self.street})
            self.deciders.remove(player)
            self._next_decider()
        elif self.simultaneous:
            self._choose(player, DECLARATIONS[kind])
        else:
            self.deciders.remove(player)
            self._declare(player, DECLARATIONS[kind])
            self._next_decider()

    def _named_card(
        self,
        player: int,
        option: LegalAction,
        cards: Sequence[int] | None,
        options: Sequence[LegalAction],
    ) -> int | None:
        """The one card a roll or an exchange names. A scripted hand's unknown
        down card may be named by what it turns out to be (a roll), or as
        unknown (an exchange of a card the hand history never saw)."""
        if option.cards is None:
            if cards is not None:
                raise IllegalAction(f"{option.kind!r} takes no cards")
            return None
        named = list(cards) if isinstance(cards, (list, tuple)) else []
        card = named[0] if len(named) == 1 else None
        if type(card) is int and card in option.cards and card != UNKNOWN:
            return card
        if type(card) is int and UNKNOWN in option.cards:
            known = self._known_cards()
            fresh = 0 <= card < DECK_SIZE and card not in known and card not in self.choices
            if card == UNKNOWN and option.kind == EXCHANGE or fresh and option.kind == ROLL:
                return card
        self._refuse(f"player {player} must name one card to {option.kind}", options)

    def _choose(self, player: int, choice: int | str | None) -> None:
        """A choice made at once with everyone else: kept hidden (the table
        learns only that this player has chosen) until the last one is in."""
        self.choices[player] = choice
        self.deciders.remove(player)
        self.events.append({"type": "decided", "player": player})
        if self.deciders:
            return
        for who in self.live:  # revealed from the dealer's left
            made = self.choices[who]
            if isinstance(made, str):
                self._declare(who, made)
            elif isinstance(made, int):
                self._roll(who, made)
        self._end_decision()

    def _roll(self, player: int, card: int) -> None:
        hand = self.cards[player]
        where = next(
            (i for i, held in enumerate(hand) if held.card == card and not held.up),
            None,
        )
        if where is None:  # a scripted hand's unknown down card, shown by its roll
            where = next(i for i, held in enumerate(hand) if held.card == UNKNOWN)
            if self._seen is not None:
                self._seen.add(card)
        hand[where] = HELD[True][card]
        self._up = None  # rebuilt with the rolled card in its place
        self.events.append({"type": ROLL, "player": player, "card": card, "street": self.street})

    def _declare(self, player: int, choice: str) -> None:
        self.declared[player] = choice
        self.events.append({"type": "declare", "player": player, "choice": choice})

    def _exchange(self, player: int, card: int) -> None:
        hand = self.cards[player]
        where = next(i for i, held in enumerate(hand) if held.card == card)
        up = hand[where].up
        price = self._exchange_price()
        if price:  # paid to the pot, not bet: nobody matches it
            self.stacks[player] -= price
            self.committed[player] += price
            self.events.append(
                {"type": "pay", "player": player, "amount": price, "street": self.street,
                 "exchange": True}
            )  # fmt: skip
        if card != UNKNOWN:
            self.discards.append(card)
        self.events.append(
            {"type": EXCHANGE, "player": player, "card": card, "up": up, "street": self.street}
        )
        self.deciders.remove(player)
        self.choices[player] = where  # the place the new card goes
        if self.stub_count == 0:
            self._reuse_burns()
        if self.scripted:
            self.pending_deals = [[player, 1, REPLACEMENT]]
            self.phase, self.to_act = DEALING, None
            return
        assert self.stub is not None
        self.stub_count -= 1
        self._place_replacement(player, self.stub.pop())
        self._next_decider()

    def _place_replacement(self, player: int, card: int) -> None:
        """Give a player the card that replaces the one they exchanged: in its
        place, face up or down as that one was."""
        where = self.choices[player]
        assert isinstance(where, int)
        self.choices[player] = None
        up = self.cards[player][where].up
        if self._seen is not None:
            self._seen.add(card)
            self._seen.discard(UNKNOWN)
        self.cards[player][where] = HELD[up][card]
        self._up = None
        self.events.append({**_deal_event(player, card, up, self.street), "exchange": True})

    def _next_decider(self) -> None:
        """Pass an in-turn decision on, or end it when everyone has decided."""
        if self.deciders:
            self.to_act = self.deciders[0]
        else:
            self._end_decision()

    def _end_decision(self) -> None:
        self.deciders, self.choices = [], [None] * self.n
        self.phase, self.to_act = DEALING, None
        self.step += 1
        self._run()

    # ----------------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        live = self.live
        first = self.last_aggressor if self.last_aggressor is not None else self.first_actor
        start = live.index(first) if first in live else 0
        self.showdown_order = live[start:] + live[:start]
        self.phase = SHOWDOWN
        if self.scripted:
            self.to_act = self.showdown_order[0]
            return
        everyone_shows = (
            not self.config.auto_muck
            or self.game.declares  # a declaration is shown to be held to
            or any(self.is_all_in(p) for p in live)
        )
        hands = {p: self._contender(p) for p in live}
        pots = self.pots_of(self.committed, [not f for f in self.folded])
        for player in self.showdown_order:
            if everyone_shows or self._could_win(player, hands, pots):
                self._reveal(player)
            else:
                self.mucked[player] = True
                self.events.append({"type": "muck", "player": player})
        self.showdown_order = []
        self._award({p: hands[p] for p in live if self.shown[p]})

    def _could_win(self, player: int, hands: dict[int, Contender], pots: list[Pot]) -> bool:
        """Auto-muck: does this hand tie or beat every shown hand for some pot?"""
        mine = hands[player]
        for pot in pots:
            if player not in pot.eligible:
                continue
            rivals = [hands[p] for p in pot.eligible if self.shown[p]]
            if not rivals:
                return True
            highs = [r.high_key for r in rivals if r.high_key is not None]
            if mine.high_key is not None and (not highs or mine.high_key >= max(highs)):
                return True
            lows = [r.low_key for r in rivals if r.low_key is not None]
            if mine.low_key is not None and (not lows or mine.low_key <= min(lows)):
                return True
            if mine.spade and mine.spade > max(r.spade for r in rivals):
                return True
        return False

    def _reveal(self, player: int) -> None:
        self.shown[player] = True
        self.events.append({"type": "show", "player": player, "cards": self._dealt(player)})

    def _showdown_act(self, player: int, kind: str, cards: Sequence[int] | None) -> None:
        if kind not in SHOWDOWN_KINDS:
            raise IllegalAction(f"at the showdown player {player} may show or muck, not {kind!r}")
        filled: list[int] = []
        if kind == "show":
            filled = self._check_shown_cards(player, cards)
        elif cards is not None:
            raise IllegalAction("a muck takes no cards")
        self.actions.append({"player": player, "kind": kind, "cards": cards and list(cards)})
        self.turn += 1
        self.showdown_order.remove(player)
        if kind == "show":
            self._fill(player, filled)
            self._reveal(player)
        else:
            self.mucked[player] = True
            self.events.append({"type": "muck", "player": player})
        if self.showdown_order:
            self.to_act = self.showdown_order[0]
        else:
            self.to_act = None
            self._award({p: self._contender(p) for p in self.live if self.shown[p]})

    def shown_cards(self, player: int, cards: Sequence[int] | None) -> list[int]:
        """What ``player`` showing ``cards`` now would reveal: all their cards
        in dealing order, unknown ones filled in. It only checks; the hand is
        unchanged. (Hand histories may show a hand at an all-in, before the
        showdown.)"""
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction(f"player must be a number from 0 to {self.n - 1}, not {player!r}")
        if self.folded[player]:
            raise IllegalAction(f"player {player} has folded; there is no hand to show")
        return self._check_shown_cards(player, cards)

    def _check_shown_cards(self, player: int, cards: Sequence[int] | None) -> list[int]:
        """A shown hand as all the player's cards in dealing order.

        The file may name them all in dealing order, or just the down cards;
        ``None`` shows them as dealt. Named cards fill in any the hand history
        didn't know, and must match every card it did.
        """
        hand = self.cards[player]
        mine = [held.card for held in hand]
        if cards is None:
            if UNKNOWN in mine:
                raise IllegalAction(f"player {player}'s cards are unknown; show them by name")
            return mine
        named = list(cards) if isinstance(cards, (list, tuple)) else []
        if any(type(c) is not int or not 0 <= c < DECK_SIZE for c in named):
            raise IllegalAction("shown cards must be real cards")
        down = [i for i, held in enumerate(hand) if not held.up]
        if len(named) == len(down) and all(h.card != UNKNOWN for h in hand if h.up):
            whole = list(mine)  # the down cards named: put them where they were dealt
            for index, card in zip(down, named, strict=True):
                whole[index] = card
            named = whole
        if len(named) != len(mine):
            raise IllegalAction(
                f"player {player} must show their {len(mine)} cards, "
                f"or their {len(down)} down cards"
            )
        if any(old not in (UNKNOWN, new) for old, new in zip(mine, named, strict=True)):
            raise IllegalAction(f"player {player} can't show cards they weren't dealt")
        fresh = [new for old, new in zip(mine, named, strict=True) if old == UNKNOWN]
        if len(set(fresh)) != len(fresh) or self._known_cards().intersection(fresh):
            raise IllegalAction(f"player {player} shows a card that is elsewhere in the hand")
        return named

    def _fill(self, player: int, cards: list[int]) -> None:
        """Take a shown hand, in dealing order, as the player's cards."""
        self.cards[player] = [
            Held(card, held.up) for card, held in zip(cards, self.cards[player], strict=True)
        ]
        self._seen = self._up = None  # rebuilt with the cards shown

    def _dealt(self, player: int) -> list[int]:
        """A player's cards in the order they were dealt (no community card)."""
        return [held.card for held in self.cards[player]]

    # ------------------------------------------------------------------- awards

    def _contender(self, player: int) -> Contender:
        cards = tuple(self.cards_of(player))
        if UNKNOWN in cards:
            raise IllegalAction(f"player {player}'s cards are unknown, so the hand can't be read")
        evaluator, wild = self.game.evaluator, self.wild_for(player)
        low_wild = self.wild_for(player, low=True) if evaluator.low else wild
        high, low = evaluator.high_key(cards, wild), evaluator.low_key(cards, low_wild)
        spade = self._hole_spade(player) if self.game.spade_half else 0
        declared = self.declared[player]
        apart = None if low_wild == wild else low_wild
        if not ((wild or low_wild) and self.config.natural_beats_wild):
            return Contender(cards, high, low, wild, spade=spade, declared=declared, low_wild=apart)
        # A hand the natural cards alone make beats the same hand made with wild ones.
        naturals, low_naturals = natural(cards, wild), natural(cards, low_wild)
        return Contender(
            cards,
            high,
            low,
            wild,
            high_natural=len(naturals) >= 5
            and high is not None
            and evaluator.high_key(naturals) == high,
            low_natural=len(low_naturals) >= 5
            and low is not None
            and evaluator.low_key(low_naturals) == low,
            spade=spade,
            declared=declared,
            low_wild=apart,
        )

    def _hole_spade(self, player: int) -> int:
        """Chicago: the player's spade in the hole that plays for the spade
        half, higher being better (0: none). Aces are high, so the ace of
        spades is the high spade and the deuce the low one."""
        card = self._hole_spade_card(player)
        if card is None:
            return 0
        return rank(card) if self.game.spade_half == "high" else 15 - rank(card)

    def _hole_spade_card(self, player: int) -> int | None:
        """Chicago: the player's spade in the hole that plays for the spade half."""
        spades = [c for c in self.downcards(player) if c >= 0 and suit(c) == SPADES]
        if not spades:
            return None
        return (max if self.game.spade_half == "high" else min)(spades, key=rank)

    def wild_for(self, player: int, *, low: bool = False) -> int:
        """The cards wild in this player's hand as it stands, as a mask (0:
        none); with ``low``, those wild in their low hand (Low Hole played
        high-low counts an ace in the hole)."""
        rule = self.game.wilds
        if isinstance(rule, FixedWilds):
            return rule.mask
        up_order = self.up_order() if rule.changing else ()
        if low:
            return rule.low_wild(up_order, self.cards[player])
        return rule.wild(up_order, self.cards[player])

    def marked_wild(self, player: int) -> int:
        """The cards wild in this player's hand either way, high or low: what
        their felt and their history mark."""
        wild = self.wild_for(player)
        return wild | self.wild_for(player, low=True) if self.game.low else wild

    def known_wild(self, player: int) -> int:
        """The cards everyone knows are wild in this player's hand: all of
        them, unless the game's wild cards are each player's secret."""
        return self.wild_for(player) if self.game.wilds.public else 0

    def wild_words(self) -> str | None:
        """What is wild now, as everyone may know it: "deuces", "queens and fives"."""
        rule = self.game.wilds
        if not self.game.wild_game:
            return None
        return rule.words(self.up_order() if rule.changing else ())

    def up_order(self) -> list[int]:
        """Every card dealt face up (the community card too), in the order dealt."""
        return [
            event["card"]
            for event in self.events
            if event["type"] == "deal" and event["up"] or event["type"] == "board"
        ]

    def pots_of(self, chips_in: Sequence[int], live: Sequence[bool]) -> list[Pot]:
        """The main and side pots of the chips each player has in (all of
        them, or those collected from past streets): payments (Man with the
        Axe, an English stud exchange's price) are nobody's to match, so they
        go to the main pot whole."""
        if self.game.payments is None and not self.config.exchange_price:
            return build_pots(chips_in, live)
        paid = [0] * self.n
        for event in self.events:
            if event["type"] == "pay":
                paid[event["player"]] += event["amount"]
        matched = [chips - pay for chips, pay in zip(chips_in, paid, strict=True)]
        return build_pots(matched, live, dead=sum(paid))

    def _after_street_dealt(self) -> None:
        """What the game does once a street is dealt: pay for the cards
        dealt face up (Man with the Axe), and say what is wild now."""
        if self.game.payments is not None:
            self._pay_for_upcards(self.game.payments)
        self._note_wilds()

    def _pay_for_upcards(self, payments: Payments) -> None:
        """Each player pays the pot for the costly cards just dealt them face
        up, in dealing order: antes, or chips with no ante at the table. A
        player short of a payment pays what they have and is all in, as with
        a short ante; a protected player (timed out) pays nothing more."""
        unit = self.config.payment_unit
        street = self.street
        for event in [e for e in self.events if e["type"] == "deal" and e["street"] == street]:
            if not event["up"] or event["card"] < 0:
                continue
            player, card = event["player"], event["card"]
            if self.protected[player]:  # their chips behind are not at risk (seed 002)
                continue
            chips = min(payments.antes_for(card) * unit, self.stacks[player])
            if chips:
                self.stacks[player] -= chips
                self.committed[player] += chips
                self.events.append(
                    {
                        "type": "pay",
                        "player": player,
                        "amount": chips,
                        "card": card,
                        "street": street,
                    }
                )

    def _note_wilds(self) -> None:
        """Where the wild cards change with the cards dealt (Queens and after),
        tell the table when they do: a ``wild`` event naming them."""
        rule = self.game.wilds
        if not rule.changing:
            return
        words = rule.words(self.up_order())
        told = next((e["wild"] for e in reversed(self.events) if e["type"] == "wild"), None)
        if words != told:
            self.events.append({"type": "wild", "wild": words, "street": self.street})

    def _award(self, hands: dict[int, Contender]) -> None:
        """Rake the pots, then award each one between the shown ``hands``."""
        pots = self.pots_of(self.committed, [p in hands for p in range(self.n)])
        rake = self._rake(self.pot_total)
        rakes = allocate_rake([pot.amount for pot in pots], rake)
        evaluator, spade_half = self.game.evaluator, self.game.spade_half is not None
        declare = self.game.declares
        awards = [
            award_pot(pot, r, hands, evaluator, spade_half=spade_half, declare=declare)
            for pot, r in zip(pots, rakes, strict=True)
        ]
        if any(not a.shares for a in awards if a.amount > a.rake):
            raise IllegalAction("a pot has no shown hand to award it to")
        self._pay_out(awards, rake, hands, uncontested=False)

    def _award_uncontested(self, winner: int) -> None:
        """Everyone else folded: every chip in makes one pot, and the hand left
        takes it, less the rake, with no cards read (most hands end so)."""
        total = self.pot_total
        rake = self._rake(total)
        net = {winner: total - rake}
        awards = [PotAward(total, rake, (winner,), (winner,), (), net)] if total else []
        self._pay_out(awards, rake, {}, uncontested=True)

    def _rake(self, pot: int) -> int:
        return self.config.rake.amount(pot, reached_fourth_street=self.street >= 1)

    def _pay_out(
        self, awards: list[PotAward], rake: int, hands: dict[int, Contender], *, uncontested: bool
    ) -> None:
        """Pay each pot's shares into the stacks and end the hand with its result."""
        payouts = [0] * self.n
        for award in awards:
            for player, chips in award.shares.items():
                payouts[player] += chips
        stacks = self.stacks
        for player, chips in enumerate(payouts):
            stacks[player] += chips
        self.committed = [0] * self.n
        self.phase, self.to_act = OVER, None
        self.result = self._result(awards, payouts, rake, hands, uncontested)
        self.events.append({"type": "result", "payouts": payouts, "rake": rake})

    def _result(
        self,
        awards: list[PotAward],
        payouts: list[int],
        rake: int,
        hands: dict[int, Contender],
        uncontested: bool,
    ) -> dict[str, Any]:
        shown = {str(p): self._hand_words(hand) for p, hand in hands.items() if self.shown[p]}
        chicago = self.game.spade_half
        if chicago:
            # The spade that won a spade half, in its shown hand, for pages to mark.
            for player in {p for a in awards for p in a.spade_winners}:
                card = self._hole_spade_card(player)
                if card is not None and str(player) in shown:
                    shown[str(player)]["spade"] = CARD_NAMES[card]
        return {
            "uncontested": uncontested,
            "rake": rake,
            "payouts": payouts,
            "pots": [
                {
                    "amount": a.amount,
                    "rake": a.rake,
                    "eligible": list(a.eligible),
                    "high_winners": list(a.high_winners),
                    "low_winners": list(a.low_winners),
                    "shares": sorted([p, c] for p, c in a.shares.items()),
                    # Chicago: who took the spade half, if a spade was in the hole.
                    **({"spade_winners": list(a.spade_winners)} if chicago else {}),
                }
                for a in awards
            ],
            "hands": shown,
            # Chicago: "high" or "low", the spade that takes half the pot.
            **({"spade": chicago} if chicago else {}),
        }

    def hand_words(self, player: int) -> dict[str, Any]:
        """What ``player``'s hand is, shown or not, in the shape of a shown hand
        in ``result["hands"]``: for the player's own eyes only (``views``)."""
        return self._hand_words(self._contender(player))

    def _hand_words(self, hand: Contender) -> dict[str, Any]:
        words: dict[str, Any] = {"cards": list(map(CARD_NAMES.__getitem__, hand.cards))}
        evaluator, cards, wild = self.game.evaluator, hand.cards, hand.wild
        low_wild = wild if hand.low_wild is None else hand.low_wild
        if wild | low_wild:  # the shown cards wild in this hand either way, for pages to mark
            words["wild"] = [CARD_NAMES[card] for card in cards if (wild | low_wild) >> card & 1]
        if hand.declared is not None:
            words["declared"] = hand.declared
        if self.game.high and hand.high_key is not None:
            words["high"] = evaluator.high_name(cards, hand.high_key, wild)
        if self.game.low:
            low = hand.low_key
            words["low"] = None if low is None else evaluator.low_name(cards, low, low_wild)
        return words

    def _where(self) -> str:
        return "over" if self.phase == OVER else f"{self.phase} on {self.street_name}"

    # ---------------------------------------------------------- data & replays

    def to_dict(self) -> dict[str, Any]:
        """Everything about the hand as JSON-ready data (server-only: it holds the deck)."""
        data = {name: _plain(getattr(self, name)) for name in FIELDS}
        data["config"] = self.config.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, adopt: bool = False) -> HandState:
        """The hand saved by :meth:`to_dict`.

        The state copies what it takes from ``data``, unless the caller
        ``adopt``s: then ``data``'s lists become the state's own, which saves
        the copy when ``data`` was just decoded and nothing else will use it.
        Hands saved before each player's cards were one list are rebuilt
        by replaying them.
        """
        if isinstance(data, dict) and "hole" in data and "cards" not in data:
            # Saved before each player's cards were one list: its start and its
            # action list rebuild it exactly, fields added since included.
            return cls._replay_saved(data)
        if not isinstance(data, dict) or not REQUIRED_FIELDS <= set(data) <= set(FIELDS):
            raise IllegalAction("not a saved hand: its fields don't match")
        state = cls.__new__(cls)
        take: Callable[[Any], Any] = _same if adopt else _copy
        for name in FIELDS:
            if name in data:
                setattr(state, name, take(data[name]))
        n = len(data["stacks"])
        later: dict[str, Any] = {
            "protected": [False] * n,
            "deciders": [],
            "choices": [None] * n,
            "declared": [None] * n,
            "discards": [],
        }
        for name, blank in later.items():
            if name not in data:
                setattr(state, name, blank)
        try:
            state.cards = [[_saved_held(card, up) for card, up in hand] for hand in data["cards"]]
        except (KeyError, TypeError, ValueError):
            raise IllegalAction("not a saved hand: its cards aren't cards") from None
        state.config = GameConfig.from_dict(data["config"])
        state.game, state.n = state.config.game, len(state.stacks)
        state._options = state._seen = state._up = None
        state.betting = STRUCTURES[state.config.structure]
        return state

    @classmethod
    def _replay_saved(cls, data: dict[str, Any]) -> HandState:
        try:
            return cls.replay(data)
        except (KeyError, TypeError):
            raise IllegalAction("not a saved hand: its fields don't match") from None

    @classmethod
    def replay(cls, data: dict[str, Any]) -> HandState:
        """Rebuild a hand from its start (config, stacks, deck) and its action list."""
        config = GameConfig.from_dict(data["config"])
        if data["scripted"]:
            state = cls.from_script(config, data["starting_stacks"])
        else:
            state = cls.new(config, data["starting_stacks"], data["deck"])
        for action in data["actions"]:
            state.apply(action)
        return state

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one entry of an action list (as stored in ``actions``).

        For replaying stored hands only: it also applies ``protect`` entries,
        which a player must never be able to send.
        """
        if not isinstance(action, dict) or "kind" not in action:
            raise IllegalAction(f"not an action: {action!r}")
        if action["kind"] == "deal":
            self.deal(action.get("target"), action.get("cards"))  # type: ignore[arg-type]
        elif action["kind"] in (PROTECT, OPEN_WITH):
            if action.get("amount") is not None or action.get("cards") is not None:
                raise IllegalAction(f"{action['kind']!r} takes no amount and no cards")
            if action["kind"] == PROTECT:
                self.protect(
                    action.get("player"),  # type: ignore[arg-type]
                    timed_out=action.get("timed_out") is True,
                    at=action.get("at"),
                )
            else:
                self.open_with(action.get("player"))  # type: ignore[arg-type]
        else:
            self.act(
                action.get("player"),  # type: ignore[arg-type]
                action["kind"],
                action.get("amount"),
                action.get("cards"),
                timed_out=action.get("timed_out") is True,
                at=action.get("at"),
            )


def _check_time(at: object) -> None:
    if at is not None and type(at) is not str:
        raise IllegalAction(f"a move's time is text, not {at!r}")


def _saved_held(card: int, up: bool) -> Held:
    """A saved card; KeyError unless its face is a bool and its card a card."""
    if type(up) is not bool:
        raise KeyError(up)
    return HELD[up][card]


def _deal_event(player: int, card: int, up: bool, street: int) -> dict[str, Any]:
    return {"type": "deal", "player": player, "card": card, "up": up, "street": street}


def _who(target: int) -> str:
    return "the board" if target == BOARD else f"player {target}"


def _check_stacks(stacks: Sequence[int], game: Variant) -> list[int]:
    most = min(game.max_players, MAX_PLAYERS)
    if not isinstance(stacks, (list, tuple)) or not game.min_players <= len(stacks) <= most:
        raise IllegalAction(
            f"a hand of {game.name} needs {game.min_players} to {most} players' stacks"
        )
    if any(type(s) is not int or s < 1 for s in stacks):
        raise IllegalAction("every stack must be a positive whole number of chips")
    return list(stacks)


def _plain(value: Any) -> Any:
    """A JSON-ready deep copy: tuples become lists."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, GameConfig):
        return value.to_dict()
    return value


def _same(value: Any) -> Any:
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
