"""A table's game: variant, stakes, rule options and rake, validated once.

Every option that the seeds disagree on lives here with its default; see
``docs/rules.md`` for which seed says what.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from decimal import Decimal
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple, TypeGuard, cast

from tables.rules.betting import STRUCTURES as BETTING_STRUCTURES
from tables.rules.betting import Structure
from tables.rules.errors import IllegalAction
from tables.rules.variants import VARIANTS, Bet, Variant, get_variant

TIE_BREAKS = ("position", "suit")
# Who acts first when the hand the cards pick (the low door card, or the best
# showing hand) is all in: the next seat clockwise, as if they had checked
# (WSOP), or the best hand among the players still betting.
ALL_IN_OPENERS = ("next_seat", "best_still_betting")
SHORT_ALL_IN_RULES = ("half", "full")
STRUCTURES = tuple(BETTING_STRUCTURES)


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _chips(name: str, value: object, *, positive: bool = False) -> str | None:
    if not _is_int(value) or value < (1 if positive else 0):
        low = "a positive" if positive else "a non-negative"
        return f"{name} must be {low} whole number of chips, not {value!r}"
    return None


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
        problem = None if self.cap is None else _chips("rake cap", self.cap)
        if problem is not None:
            raise IllegalAction(problem)
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


class BadOption(IllegalAction):
    """A game option the engine refuses: ``option`` names the :class:`GameConfig`
    field to change, so that a form can say it beside that field."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


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
        options = {option.name: getattr(self, option.name) for option in fields(self)}
        first = next(_problems(options), None)
        if first is not None:
            raise first

    @staticmethod
    def problems(options: Mapping[str, object]) -> list[BadOption]:
        """Everything wrong with a game's options, each problem on the option to
        change, in the order a :class:`GameConfig` would raise them.

        An option left out is unknown, and so is one already found wrong: the
        checks that read it are skipped, so each mistake is told once, on its
        own option (a form passes the values its fields accepted).

        >>> options = {"variant": "razz", "structure": "fixed", "bring_in": 2,
        ...            "small_bet": 2, "big_bet": 1, "open_pair_big_bet": True}
        >>> [problem.option for problem in GameConfig.problems(options)]
        ['open_pair_big_bet', 'big_bet', 'bring_in']
        >>> [str(problem) for problem in GameConfig.problems({"small_bet": 0, "bring_in": 1})]
        ['small bet must be a positive whole number of chips, not 0']
        """
        return list(_problems(options))

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
        """The game :meth:`to_dict` saved. Every hand read names its game, so a
        game once checked is kept by its data's ``repr`` (which tells ``1``
        from ``True`` and ``1.0``), and the same data again gives it back."""
        if not isinstance(data, dict):
            raise IllegalAction("a game config must be a mapping of option names to values")
        key = (cls, repr(data))
        loaded = _LOADED.get(key)
        if loaded is None:
            if len(_LOADED) >= LOADED_KEEP:
                _LOADED.clear()
            loaded = _LOADED[key] = cls._from_dict(data)
        return loaded

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> GameConfig:
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


# Games loaded by GameConfig.from_dict, by their class and data's repr.
_LOADED: dict[tuple[type[GameConfig], str], GameConfig] = {}
LOADED_KEEP = 256


# ---------------------------------------------------------------- the checks


class _Check(NamedTuple):
    """One rule of a game's options: ``problem`` is given the values of the
    options ``reads`` names, in that order, and what it says is wrong is put
    on ``option``. It runs only once each of those options has passed the
    checks before it, so its parameters are typed as those checks leave them."""

    option: str
    reads: tuple[str, ...]
    problem: Callable[..., str | None]


def _problems(options: Mapping[str, object]) -> Iterator[BadOption]:
    sound = dict(options)
    for option, reads, problem in _CHECKS:
        try:
            values = [sound[name] for name in reads]
        except KeyError:  # unknown, or found wrong already
            continue
        message = problem(*values)
        if message is not None:
            del sound[option]
            yield BadOption(option, message)


def _alone(option: str, problem: Callable[[Any], str | None]) -> _Check:
    return _Check(option, (option,), problem)


def _known_variant(code: object) -> str | None:
    try:
        get_variant(cast(str, code))  # it refuses anything that isn't a variant's code
    except IllegalAction as exc:
        return str(exc)
    return None


def _one_of(name: str, allowed: tuple[str, ...], value: object) -> str | None:
    if value not in allowed:
        return f"{name} must be one of {', '.join(allowed)}, not {value!r}"
    return None


def _flag(name: str, value: object) -> str | None:
    return None if type(value) is bool else f"{name} must be true or false"


def _dealt_in(code: str, structure: str) -> str | None:
    variant = VARIANTS[code]
    if structure not in variant.structures:
        return f"{variant.name} isn't dealt {structure} limit"
    return None


def _declared_high_low(code: str, high_low_declare: bool) -> str | None:
    variant = VARIANTS[code]
    if high_low_declare and not variant.declares_high_low:
        return (
            f"{variant.name} isn't played high-low with declare here: only the "
            "wild-card games whose wild cards everyone sees are"
        )
    return None


def _declared_in_turn(code: str, high_low_declare: bool, in_turn: bool) -> str | None:
    variant = VARIANTS[code]
    if in_turn and not (variant.declares or high_low_declare):
        return f"{variant.name} has no declaration to make in turn"
    return None


def _priced_exchange(code: str, exchange_price: bool) -> str | None:
    variant = VARIANTS[code]
    if exchange_price and not variant.exchanges:
        return f"{variant.name} has no exchanges to put a price on"
    return None


def _open_pair_choice(value: object) -> str | None:
    if value not in (None, True, False):
        return "open_pair_big_bet must be true, false or unset"
    return None


def _open_pair_allowed(code: str, open_pair_big_bet: bool | None) -> str | None:
    variant = VARIANTS[code]
    if open_pair_big_bet and not variant.open_pair_allowed:
        return f"{variant.name} has no open-pair big bet: pairs showing don't change bets"
    return None


def _wild_cards(code: str, natural_beats_wild: bool) -> str | None:
    variant = VARIANTS[code]
    if natural_beats_wild and not variant.wild_game:
        return f"{variant.name} has no wild cards for a natural hand to beat"
    return None


def _rake_rule(rake: object) -> str | None:
    return None if isinstance(rake, RakeRule) else "rake must be a RakeRule"


def _bet_sizes(structure: str, small_bet: int, big_bet: int) -> str | None:
    return next(iter(BETTING_STRUCTURES[structure].problems(small_bet, big_bet)), None)


def _bring_in_below(bring_in: int, small_bet: int) -> str | None:
    if bring_in >= small_bet:
        return f"the bring-in ({bring_in}) must be below the small bet ({small_bet})"
    return None


def _raises(max_raises: object) -> str | None:
    if not _is_int(max_raises) or max_raises < 1:
        return f"max_raises must be a whole number of at least 1, not {max_raises!r}"
    return None


_CHOICES = {
    "structure": STRUCTURES,
    "tie_break": TIE_BREAKS,
    "all_in_opener": ALL_IN_OPENERS,
    "short_all_in": SHORT_ALL_IN_RULES,
}
_FLAGS = (
    "heads_up_uncapped",
    "auto_muck",
    "raise_at_least_last",
    "natural_beats_wild",
    "declare_in_turn",
    "exchange_price",
    "high_low_declare",
)
# Each option's own type and range before the rules between options, which
# then read only values that passed.
_CHECKS = (
    _alone("variant", _known_variant),
    _alone("ante", partial(_chips, "ante")),
    _alone("bring_in", partial(_chips, "bring_in")),
    _alone("small_bet", partial(_chips, "small bet", positive=True)),
    _alone("big_bet", partial(_chips, "big bet", positive=True)),
    *(_alone(name, partial(_one_of, name, allowed)) for name, allowed in _CHOICES.items()),
    _Check("structure", ("variant", "structure"), _dealt_in),
    *(_alone(name, partial(_flag, name)) for name in _FLAGS),
    _Check("high_low_declare", ("variant", "high_low_declare"), _declared_high_low),
    _Check(
        "declare_in_turn", ("variant", "high_low_declare", "declare_in_turn"), _declared_in_turn
    ),
    _Check("exchange_price", ("variant", "exchange_price"), _priced_exchange),
    _alone("open_pair_big_bet", _open_pair_choice),
    _Check("open_pair_big_bet", ("variant", "open_pair_big_bet"), _open_pair_allowed),
    _Check("natural_beats_wild", ("variant", "natural_beats_wild"), _wild_cards),
    _alone("rake", _rake_rule),
    _Check("big_bet", ("structure", "small_bet", "big_bet"), _bet_sizes),
    _Check("bring_in", ("bring_in", "small_bet"), _bring_in_below),
    _alone("max_raises", _raises),
)
