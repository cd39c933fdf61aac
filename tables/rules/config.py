"""A table's game: variant, stakes, rule options and rake, validated once.

Every option that the seeds disagree on lives here with its default; see
``docs/rules.md`` for which seed says what.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field, fields
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeGuard

from tables.rules.betting import STRUCTURES as BETTING_STRUCTURES
from tables.rules.betting import Structure
from tables.rules.errors import IllegalAction
from tables.rules.variants import Bet, Variant, get_variant

TIE_BREAKS = ("position", "suit")
# Who acts first when the hand the cards pick (the low door card, or the best
# showing hand) is all in: the next seat clockwise, as if they had checked
# (WSOP), or the best hand among the players still betting.
ALL_IN_OPENERS = ("next_seat", "best_still_betting")
SHORT_ALL_IN_RULES = ("half", "full")
STRUCTURES = tuple(BETTING_STRUCTURES)


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _need_chips(name: str, value: object, *, positive: bool = False) -> None:
    if not _is_int(value) or value < (1 if positive else 0):
        low = "a positive" if positive else "a non-negative"
        raise IllegalAction(f"{name} must be {low} whole number of chips, not {value!r}")


@dataclass(frozen=True, slots=True)
class RakeRule:
    """A percentage of the pot, capped, in whole chips (rounded down).

    ``percent`` is text such as ``"5"`` or ``"2.5"`` so it survives JSON exactly.
    """

    percent: str = "0"
    cap: int | None = None
    no_rake_third_street: bool = True

    def __post_init__(self) -> None:
        try:
            rate = Fraction(self.percent)
        except (TypeError, ValueError, ZeroDivisionError):
            raise IllegalAction(
                f"rake percent must be a number like '5', not {self.percent!r}"
            ) from None
        if not 0 <= rate <= 100:
            raise IllegalAction(f"rake percent must be between 0 and 100, not {self.percent}")
        if self.cap is not None:
            _need_chips("rake cap", self.cap)
        if type(self.no_rake_third_street) is not bool:
            raise IllegalAction("no_rake_third_street must be true or false")

    def amount(self, pot: int, *, reached_fourth_street: bool) -> int:
        """The rake on a pot of ``pot`` chips.

        >>> RakeRule("5", cap=3).amount(100, reached_fourth_street=True)
        3
        >>> RakeRule("5", cap=3).amount(39, reached_fourth_street=True)
        1
        >>> RakeRule("5").amount(100, reached_fourth_street=False)
        0
        """
        if self.no_rake_third_street and not reached_fourth_street:
            return 0
        rate = _rate(self.percent)
        rake = pot * rate.numerator // (rate.denominator * 100)
        return rake if self.cap is None else min(rake, self.cap)


@functools.cache
def _rate(percent: str) -> Fraction:
    """A rake percent read once (a table's few rates are asked every hand)."""
    return Fraction(percent)


def percent_text(percent: Decimal | str | int) -> str:
    """A percentage as people write it: a plain decimal, without the ``%``.

    Every page, list and file that shows a rake percent goes through here, since
    ``Decimal.normalize()`` alone writes 10.00 as ``1E+1``.

    >>> percent_text(Decimal("10.00")), percent_text("2.50"), percent_text("1E+1")
    ('10', '2.5', '10')
    >>> percent_text(Decimal("0.00")), percent_text(100), percent_text("0.25")
    ('0', '100', '0.25')
    """
    return f"{Decimal(str(percent)).normalize():f}"


NO_RAKE = RakeRule()


@dataclass(frozen=True, slots=True)
class GameConfig:
    variant: str = "stud"
    ante: int = 0
    bring_in: int = 0  # 0: no bring-in, the best upcard opens and may check
    small_bet: int = 2
    big_bet: int = 4
    structure: str = "fixed"
    tie_break: str = "position"  # showing-hand ties: "position" (000/001) or "suit" (003)
    all_in_opener: str = "next_seat"  # the opener is all in: "next_seat" (WSOP) or the best other
    open_pair_big_bet: bool | None = None  # None: the variant's default
    max_raises: int = 3  # one bet and three raises (seed 002); fixed and spread limit
    raise_at_least_last: bool = True  # spread limit: a raise is at least the last one (003)
    heads_up_uncapped: bool = False  # lift the cap when two players start the round (003)
    short_all_in: str = "half"  # "half": an all-in of half a bet or more reopens raising
    auto_muck: bool = True
    natural_beats_wild: bool = False  # wild-card games: a natural hand beats its equal made wild
    declare_in_turn: bool = False  # hi-lo declare: in turn from the dealer's left, not at once
    high_low_declare: bool = False  # a wild-card game played high-low, with declare (003)
    exchange_price: bool = False  # English stud: an exchange costs the minimum bet then (003)
    rake: RakeRule = field(default_factory=RakeRule)

    def __post_init__(self) -> None:
        variant = get_variant(self.variant)
        for name in ("ante", "bring_in"):
            _need_chips(name, getattr(self, name))
        _need_chips("small bet", self.small_bet, positive=True)
        _need_chips("big bet", self.big_bet, positive=True)
        self._check_choices(variant)
        self._check_sizes()

    def _check_sizes(self) -> None:
        structure = BETTING_STRUCTURES.get(self.structure)
        problems = structure.problems(self.small_bet, self.big_bet) if structure is not None else []
        if problems:
            raise IllegalAction(problems[0])
        if self.bring_in >= self.small_bet:
            raise IllegalAction(
                f"the bring-in ({self.bring_in}) must be below the small bet ({self.small_bet})"
            )
        if not _is_int(self.max_raises) or self.max_raises < 1:
            raise IllegalAction(
                f"max_raises must be a whole number of at least 1, not {self.max_raises!r}"
            )

    def _check_choices(self, variant: Variant) -> None:
        choices = {
            "structure": (self.structure, STRUCTURES),
            "tie_break": (self.tie_break, TIE_BREAKS),
            "all_in_opener": (self.all_in_opener, ALL_IN_OPENERS),
            "short_all_in": (self.short_all_in, SHORT_ALL_IN_RULES),
        }
        for name, (value, allowed) in choices.items():
            if value not in allowed:
                raise IllegalAction(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        if self.structure not in variant.structures:
            raise IllegalAction(f"{variant.name} isn't dealt {self.structure} limit")
        flags = (
            "heads_up_uncapped",
            "auto_muck",
            "raise_at_least_last",
            "natural_beats_wild",
            "declare_in_turn",
            "exchange_price",
            "high_low_declare",
        )
        for name in flags:
            if type(getattr(self, name)) is not bool:
                raise IllegalAction(f"{name} must be true or false")
        if self.high_low_declare and not variant.declares_high_low:
            raise IllegalAction(
                f"{variant.name} isn't played high-low with declare here: only the "
                "wild-card games whose wild cards everyone sees are"
            )
        if self.declare_in_turn and not (variant.declares or self.high_low_declare):
            raise IllegalAction(f"{variant.name} has no declaration to make in turn")
        if self.exchange_price and not variant.exchanges:
            raise IllegalAction(f"{variant.name} has no exchanges to put a price on")
        if self.open_pair_big_bet not in (None, True, False):
            raise IllegalAction("open_pair_big_bet must be true, false or unset")
        if self.open_pair_big_bet and not variant.open_pair_allowed:
            raise IllegalAction(
                f"{variant.name} has no open-pair big bet: pairs showing don't change bets"
            )
        if self.natural_beats_wild and not variant.wild_game:
            raise IllegalAction(
                f"{variant.name} has no wild cards, so natural_beats_wild has nothing to break"
            )
        if not isinstance(self.rake, RakeRule):
            raise IllegalAction("rake must be a RakeRule")

    @property
    def game(self) -> Variant:
        """The game dealt: the variant, played high-low with declare where
        the table says so."""
        variant = get_variant(self.variant)
        return variant.high_low_declare() if self.high_low_declare else variant

    @property
    def betting(self) -> Structure:
        return BETTING_STRUCTURES[self.structure]

    def describe(self) -> str:
        """The game and its stakes: "Razz, pot limit, minimum bet 5, ante 1, bring-in 2"."""
        parts = [self.game.name, self.betting.describe(self)]
        if self.ante:
            parts.append(f"ante {self.ante}")
        if self.bring_in:
            parts.append(f"bring-in {self.bring_in}")
        return ", ".join(parts)

    @property
    def payment_unit(self) -> int:
        """One ante of a payment for a card dealt face up (Man with the Axe),
        in chips: the ante, or a chip at a table with none."""
        return self.ante or 1

    def exchange_cost(self, step: int) -> int:
        """What an exchange at ``step`` of the game's script costs (seed 003's
        option: "the minimum bet at that point"), or 0: the bet size of the
        round just played in fixed limit, the small bet (the minimum bet) in
        the other structures."""
        if not self.exchange_price:
            return 0
        played = [s for s in self.game.script[:step] if isinstance(s, Bet)]
        big = played and played[-1].size == "big" and self.structure == "fixed"
        return self.big_bet if big else self.small_bet

    @property
    def open_pair(self) -> bool:
        """Whether an open pair on 4th street allows the big bet at this table
        (a fixed-limit rule: the other structures have no big bet to allow)."""
        if not self.betting.open_pair:
            return False
        if self.open_pair_big_bet is None:
            return self.game.open_pair_default
        return self.open_pair_big_bet

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        if not isinstance(data, dict):
            raise IllegalAction("a game config must be a mapping of option names to values")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise IllegalAction(f"unknown game option(s): {', '.join(sorted(unknown))}")
        values = dict(data)
        rake = values.get("rake")
        if isinstance(rake, dict):
            try:
                values["rake"] = RakeRule(**rake)
            except TypeError as exc:
                raise IllegalAction(f"bad rake rule: {exc}") from None
        return cls(**values)
