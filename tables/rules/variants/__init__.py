"""Variants as data: a script of steps, an evaluator, and opening rules.

A new stud game is a new :class:`Variant` value, not a copy of the engine.
The engine walks the variant's :attr:`Variant.script`; it asks the
:attr:`Variant.opening` who brings in and who opens, and the
:attr:`Variant.evaluator` what a finished hand is worth for high and low.
:func:`tables.rules.games.games` lists every variant with every betting
structure it may be dealt in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any

from tables.rules.cards import parse_cards
from tables.rules.errors import IllegalAction
from tables.rules.evaluators import ACE_TO_FIVE, ACE_TO_SIX, Evaluator
from tables.rules.variants.openings import HIGH_OPENING, LOW_OPENING, Opening
from tables.rules.variants.steps import (
    DECLARE_STUD,
    ENGLISH_STUD,
    MISSISSIPPI_STUD,
    ROLL_YOUR_OWN,
    SEVEN_CARD_STUD,
    SIX_CARD_STUD,
    Bet,
    Deal,
    Declare,
    Exchange,
    Roll,
    Showdown,
    Step,
)
from tables.rules.variants.wilds import (
    NO_WILDS,
    FixedWilds,
    LowHole,
    Payments,
    QueensAndAfter,
    WildRule,
    rank_mask,
)

__all__ = [
    "BY_PHH",
    "VARIANTS",
    "Bet",
    "Deal",
    "Showdown",
    "Step",
    "Variant",
    "get_variant",
]

ALL_STRUCTURES = ("fixed", "spread", "pot", "no")

# Words several games' ``about`` share, so each is said one way.
STUD_DEAL = (
    "Each player is dealt two cards face down and one face up, then three more face up "
    "and a last one face down, a street at a time, with a betting round after each street."
)
BEST_FIVE = "Each hand plays its best five cards, and the best poker hand wins."
WILD_CARDS = (
    "A wild card stands for any card its holder likes, so five of a kind can be made, "
    "and beats a straight flush."
)
DECLARE = (
    "After the last betting round each player declares high, low or both. The best high "
    "hand among those who declared high shares the pot with the best low among those who "
    "declared low; if only one way has a winner, it takes the whole pot. Declaring both, "
    "a hand must win both ways outright, or it wins nothing."
)


@dataclass(frozen=True, slots=True)
class Variant:
    code: str  # our short name, stored on tables
    name: str
    seed: str  # the seed document(s) that describe it
    phh: str | None  # the PHH standard's variant code, if it has one
    evaluator: Evaluator
    opening: Opening
    # How it plays, in a few plain sentences for a player new to it: what is
    # dealt, what is wild, what wins and what is special. The one source of
    # these words: the table page's panel, ``manage.py games`` and
    # docs/rules.md all read them (tables.rules.games.how_it_plays).
    about: str
    script: tuple[Step, ...] = SEVEN_CARD_STUD
    structures: tuple[str, ...] = ALL_STRUCTURES  # the betting structures it suits
    open_pair_default: bool = False  # fixed limit: an open pair on 4th allows the big bet
    open_pair_allowed: bool = False
    min_players: int = 2
    max_players: int = 8
    # Which cards are wild, for whom (variants/wilds.py).
    wilds: WildRule = NO_WILDS
    # Chicago (seed 000): "high" or "low", the spade in the hole that takes
    # half of each pot; None in other games.
    spade_half: str | None = None
    # What a card dealt face up costs its owner (Man with the Axe); None: nothing.
    payments: Payments | None = None
    # Baseball (seed 000): the rank (2 to 14) that, dealt face up, gets its
    # owner an extra card face down at once; None in other games.
    extra_card: int | None = None
    # Per step of the script: whether it is a big-bet round (worked out once;
    # fixed limit asks at every decision).
    big_steps: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    # Whether the players declare high, low or both before the showdown
    # (worked out once: every hand's showdown and award ask).
    declares: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        big = tuple(isinstance(step, Bet) and step.size == "big" for step in self.script)
        object.__setattr__(self, "big_steps", big)
        declares = any(isinstance(step, Declare) for step in self.script)
        object.__setattr__(self, "declares", declares)

    @property
    def streets(self) -> tuple[str, ...]:
        """The names of the streets, one per deal step, in order."""
        return tuple(step.street for step in self.script if isinstance(step, Deal))

    @property
    def exchanges(self) -> bool:
        """Whether the players may exchange cards (English stud)."""
        return any(isinstance(step, Exchange) for step in self.script)

    @property
    def rolls(self) -> bool:
        """Whether the players roll their own upcards."""
        return any(isinstance(step, Roll) for step in self.script)

    @property
    def wild_game(self) -> bool:
        """Whether any card can be wild in this game."""
        return self.wilds is not NO_WILDS

    @property
    def wild(self) -> int:
        """The cards wild in every hand, as a mask (0 when none always is)."""
        return self.wilds.mask if isinstance(self.wilds, FixedWilds) else 0

    @property
    def declares_high_low(self) -> bool:
        """Whether the table may play this game high-low with declare (seed
        003: "any wild-card game played high-low", Low Hole included)."""
        return self.wild_game and not self.declares

    def high_low_declare(self) -> Variant:
        """This game played high-low with declare: ace-to-five lows with no
        qualifier, wild cards counting for both, and a declaration before
        the showdown."""
        return _high_low_declare(self)

    @property
    def cards_per_player(self) -> int:
        return sum(len(step.faces) for step in self.script if isinstance(step, Deal))

    @property
    def high(self) -> bool:
        return self.evaluator.high

    @property
    def low(self) -> bool:
        return self.evaluator.low is not None

    @property
    def split(self) -> bool:
        return self.evaluator.split

    @property
    def low_qualifier(self) -> int | None:
        return self.evaluator.qualifier


STUD = Variant(
    code="stud",
    name="Seven-card stud",
    seed="000, 001",
    phh="F7S",
    evaluator=Evaluator(high=True),
    opening=HIGH_OPENING,
    about=f"{STUD_DEAL} {BEST_FIVE}",
    open_pair_default=True,
    open_pair_allowed=True,
)
RAZZ = Variant(
    code="razz",
    name="Razz",
    seed="003",
    phh="FR",
    evaluator=Evaluator(high=False, low=ACE_TO_FIVE),
    opening=LOW_OPENING,
    about=(
        f"{STUD_DEAL} The lowest hand wins: aces are low, straights and flushes don't "
        "count, and pairs count against a hand, so 5-4-3-2-A is the best hand."
    ),
)
STUD8 = Variant(
    code="stud8",
    name="Seven-card stud hi-lo, eight or better",
    seed="002, 003",
    phh="F7S/8",
    evaluator=Evaluator(high=True, low=ACE_TO_FIVE, qualifier=8),
    opening=HIGH_OPENING,
    about=(
        f"{STUD_DEAL} The best high hand and the best low hand split the pot. A low is "
        "five different ranks of eight or lower, aces low, straights and flushes not "
        "counting against it; with no such low the best high hand takes the whole pot. "
        "One hand may win both halves."
    ),
    open_pair_allowed=True,
)
LONDON = Variant(
    code="london",
    name="London lowball",
    seed="003",
    phh=None,
    evaluator=Evaluator(high=False, low=ACE_TO_SIX),
    opening=LOW_OPENING,
    about=(
        f"{STUD_DEAL} The lowest hand wins: aces are low, and pairs, straights and "
        "flushes all count against a hand, so 6-4-3-2-A is the best hand and 5-4-3-2-A "
        "is a straight."
    ),
)


@functools.cache
def _high_low_declare(game: Variant) -> Variant:
    showdown = game.script[-1]
    return replace(
        game,
        name=f"{game.name}, high-low declare",
        evaluator=replace(game.evaluator, low=ACE_TO_FIVE),
        script=(*game.script[:-1], Declare(), showdown),
    )


def _home_stud(code: str, name: str, seed: str, about: str, **rules: Any) -> Variant:
    """A home game of seeds 000 and 003: stud high, with no PHH code of its
    own, and the ``rules`` that make it itself."""
    rules.setdefault("evaluator", Evaluator(high=True))
    return Variant(
        code=code, name=name, seed=seed, phh=None, opening=HIGH_OPENING, about=about, **rules
    )


def _fixed(cards: str, called: str) -> FixedWilds:
    return FixedWilds(frozenset(parse_cards(cards)), called)


def _wild_stud(wild: str) -> str:
    """The words of stud with wild cards: which are wild (``wild``), what that means."""
    return f"{STUD_DEAL} {wild} {WILD_CARDS} {BEST_FIVE}"


def _chicago(spade: str) -> str:
    """The words of Chicago whose ``spade`` ("the highest spade in the hole
    (the A♠ is highest)") takes half the pot."""
    return (
        f"{STUD_DEAL} At the showdown half the pot goes to the best hand and half to "
        f"{spade}. In the hole means face down: a spade face up doesn't count. With no "
        "spade in the hole the best hand takes it all; one hand may win both halves."
    )


MISSISSIPPI = _home_stud(
    "mississippi",
    "Mississippi",
    "000",
    "Seven-card stud with four betting rounds: two cards down and one up, a round; "
    "4th and 5th street dealt face up together, a round; 6th street up, a round; and "
    f"7th street down, a last round. {BEST_FIVE}",
    script=MISSISSIPPI_STUD,
)
DEUCES_WILD = _home_stud(
    "deuces",
    "Deuces wild",
    "003",
    _wild_stud("The four deuces are wild."),
    wilds=_fixed("2c2d2h2s", "deuces"),
)
ACEY_DUCEY = _home_stud(
    "acey_ducey",
    "Acey Ducey",
    "000",
    _wild_stud("Every ace and every deuce is wild."),
    wilds=_fixed("2c2d2h2sAcAdAhAs", "aces and deuces"),
)
ONE_EYED_JACKS = _home_stud(
    "one_eyed_jacks",
    "One-eyed jacks",
    "000",
    _wild_stud("The one-eyed jacks, J♠ and J♥, are wild."),
    wilds=_fixed("JsJh", "one-eyed jacks"),
)
SUICIDE_KING = _home_stud(
    "suicide_king",
    "Suicide king",
    "000",
    _wild_stud("The suicide king, K♥, is wild."),
    wilds=_fixed("Kh", "the suicide king"),
)
QUEENS = _home_stud(
    "queens",
    "Queens and after",
    "000",
    _wild_stud(
        "Queens are wild, and so is the rank of the next card dealt face up after a "
        "queen, whoever gets it. A later queen face up moves that rank to the card after "
        "it, and a queen that is the last card up leaves only queens wild; the line under "
        "the street says what is wild now."
    ),
    wilds=QueensAndAfter(),
)
LOW_HOLE = _home_stud(
    "low_hole",
    "Low Hole",
    "003",
    _wild_stud(
        "Each player's lowest card face down is wild for them alone, with every card of "
        "its rank they hold, up or down; nobody else knows which it is until they show. "
        "Aces are high, so a deuce is the lowest, and the last card can move it."
    ),
    wilds=LowHole(),
)
HIGH_CHICAGO = _home_stud(
    "high_chicago",
    "High Chicago",
    "000",
    _chicago("the highest spade in the hole (the A♠ is highest)"),
    spade_half="high",
)
LOW_CHICAGO = _home_stud(
    "low_chicago",
    "Low Chicago",
    "000",
    _chicago("the lowest spade in the hole (the 2♠ is lowest)"),
    spade_half="low",
)
_AXE_WILDS = _fixed("2c2d2h2sJcJdJhJsKd", "deuces, jacks and the man with the axe")
MAN_WITH_THE_AXE = _home_stud(
    "man_with_the_axe",
    "Deuces and Jacks and the Man with the Axe",
    "003",
    f"{STUD_DEAL} Every deuce, every jack and the man with the axe (K♦) are wild. "
    f"{WILD_CARDS} A natural pair of sevens beats every other hand, five aces included. "
    "Each wild card and each seven dealt face up costs its owner a payment into the pot "
    "at once: it is not a bet, and nobody matches it.",
    evaluator=Evaluator(high=True, sevens_rule=True),
    wilds=_AXE_WILDS,
    payments=Payments(((_AXE_WILDS.mask, 1), (rank_mask(7), 5)), ("wild card", "seven")),
)
BASEBALL = _home_stud(
    "baseball",
    "Baseball",
    "000",
    _wild_stud(
        "Threes and nines are wild, and a four dealt face up earns its owner an extra "
        "card face down at once, so a hand may hold eight cards or more."
    ),
    wilds=_fixed("3c3d3h3s9c9d9h9s", "threes and nines"),
    extra_card=4,
    # Eight players and four extra cards can empty the deck before 7th street.
    max_players=7,
)

# Four rounds of two cards and 8 cards each: six players and four burns
# use the whole deck.
ROLL_YOUR_OWN_STUD = _home_stud(
    "roll_your_own",
    "Roll your own",
    "000",
    "Each player is dealt eight cards, in four rounds of two face down. After each "
    "round everyone turns one of their down cards face up, all at once and unseen "
    "until all have chosen, then a betting round. Every player ends with four cards up "
    f"and four down. {BEST_FIVE}",
    script=ROLL_YOUR_OWN,
    max_players=6,
)
ENGLISH = _home_stud(
    "english",
    "English stud",
    "003",
    "Each player is dealt two cards face down and one face up, then two more face up, "
    "a street at a time, with a betting round after each street. After the 5th street's "
    "round and again after the 6th, each player in turn may exchange one card for the "
    "next from the deck (face up for an up card, face down for a down card) or stand "
    "pat. The 7th card, face down, is dealt only when five players or fewer began the "
    f"hand. {BEST_FIVE}",
    script=ENGLISH_STUD,
    max_players=6,
)
ACES_STRAIGHTS_FLUSHES = _home_stud(
    "aces_straights_flushes",
    "Aces, Straights and Flushes",
    "003",
    "Each player is dealt six cards: two face down and one face up, two more face up, "
    "and a last one face down, a street at a time, with a betting round after each "
    "street. A joker in the middle, the bug, is everyone's seventh card: it counts as "
    f"an ace, or as any card that completes a straight or a flush. {BEST_FIVE}",
    script=SIX_CARD_STUD,
    evaluator=Evaluator(high=True, bug=True),
)
STUD_DECLARE = _home_stud(
    "declare",
    "Seven-card stud hi-lo declare",
    "003",
    f"{STUD_DEAL} {DECLARE} A low is ace-to-five: aces low, straights and flushes not "
    "counting against it, and any five cards make one.",
    script=DECLARE_STUD,
    evaluator=Evaluator(high=True, low=ACE_TO_FIVE),
)
STUD8_DECLARE = _home_stud(
    "declare8",
    "Seven-card stud hi-lo declare, eight or better",
    "003",
    f"{STUD_DEAL} {DECLARE} A low is five different ranks of eight or lower, aces low, "
    "straights and flushes not counting against it.",
    script=DECLARE_STUD,
    evaluator=Evaluator(high=True, low=ACE_TO_FIVE, qualifier=8),
    open_pair_allowed=True,
)

VARIANTS: dict[str, Variant] = {
    v.code: v
    for v in (
        STUD,
        RAZZ,
        STUD8,
        LONDON,
        MISSISSIPPI,
        DEUCES_WILD,
        ACEY_DUCEY,
        ONE_EYED_JACKS,
        SUICIDE_KING,
        QUEENS,
        LOW_HOLE,
        HIGH_CHICAGO,
        LOW_CHICAGO,
        MAN_WITH_THE_AXE,
        BASEBALL,
        ROLL_YOUR_OWN_STUD,
        ENGLISH,
        ACES_STRAIGHTS_FLUSHES,
        STUD_DECLARE,
        STUD8_DECLARE,
    )
}
BY_PHH: dict[str, Variant] = {v.phh: v for v in VARIANTS.values() if v.phh}


def get_variant(code: str) -> Variant:
    try:
        return VARIANTS[code]
    except (KeyError, TypeError):
        raise IllegalAction(
            f"unknown variant {code!r}; choose one of {', '.join(VARIANTS)}"
        ) from None
