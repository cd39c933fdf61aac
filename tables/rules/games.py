"""Every game the room can deal: each variant in each betting structure it
suits. The admin's choices, the lobby's filters, ``manage.py games`` and the
docs are all built from :func:`games`, never from a list kept by hand.

:func:`how_it_plays` says how a table's game plays, for a player new to it:
the variant's own words (:attr:`Variant.about`), then what the table's config
changes. The table page's panel, ``manage.py games`` and docs/rules.md read
it, so they say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.rules.betting import STRUCTURES, Structure
from tables.rules.config import GameConfig
from tables.rules.variants import DECLARE, VARIANTS, Variant
from tables.rules.variants.steps import Exchange
from tables.rules.variants.wilds import Payments


@dataclass(frozen=True, slots=True)
class Game:
    variant: Variant
    structure: Structure

    @property
    def name(self) -> str:
        """ "Razz, pot limit" """
        return f"{self.variant.name}, {self.structure.name.lower()}"

    def example(self) -> GameConfig:
        """A config for this game with sizes that suit its structure."""
        big = 10 if self.structure.code == "spread" else 4
        return GameConfig(
            variant=self.variant.code,
            structure=self.structure.code,
            ante=1,
            bring_in=1,
            small_bet=2,
            big_bet=big,
        )

    def to_dict(self) -> dict[str, Any]:
        variant = self.variant
        return {
            "name": self.name,
            "variant": variant.code,
            "variant_name": variant.name,
            "structure": self.structure.code,
            "structure_name": self.structure.name,
            "seed": variant.seed,
            "structures": list(variant.structures),
            "players": [variant.min_players, variant.max_players],
            "config": self.example().to_dict(),
            "about": variant.about,
            "how_it_plays": list(how_it_plays(self.example())),
        }


def games() -> list[Game]:
    """Every variant × structure the room deals, variants in registry order."""
    return [
        Game(variant, STRUCTURES[code])
        for variant in VARIANTS.values()
        for code in variant.structures
    ]


def structure_choices() -> list[tuple[str, str]]:
    """(code, name) of every betting structure, for forms and filters."""
    return [(s.code, s.name) for s in STRUCTURES.values()]


def variant_choices() -> list[tuple[str, str]]:
    """(code, name) of every variant, for forms and filters."""
    return [(v.code, v.name) for v in VARIANTS.values()]


# --------------------------------------------------------------- how it plays

HIGH_LOW_DECLARE = (
    f"This table plays it high-low with declare. {DECLARE} A low is ace-to-five, any "
    "five cards make one, and wild cards count for the low too."
)
NATURAL_BEATS_WILD = "A hand the natural cards make alone beats the same hand made with wild cards."


def how_it_plays(config: GameConfig) -> tuple[str, ...]:
    """How the game at a table with ``config`` plays, in short paragraphs: the
    variant's words, then what the config changes (high-low declare and how
    declarations are made, the ante and who opens, the betting structure,
    the prices of payments and exchanges, natural hands beating wild ones).

    >>> config = GameConfig(variant="razz", ante=1, bring_in=1, small_bet=2, big_bet=4)
    >>> print(how_it_plays(config)[1])  # doctest: +NORMALIZE_WHITESPACE
    Everyone antes 1. The highest card showing (aces low) brings in for 1, or
    completes to a full bet; after that, the lowest hand showing acts first.
    """
    game = config.game
    words = [game.about]
    if config.high_low_declare:
        words.append(HIGH_LOW_DECLARE)
    if game.declares:
        words.append(_declaring(config))
    words += [_opening(config), config.betting.plays(config)]
    if game.payments is not None:
        words.append(_payments(config, game.payments))
    if config.exchange_price:
        words.append(_exchange_price(config))
    if config.natural_beats_wild:
        words.append(NATURAL_BEATS_WILD)
    return tuple(words)


def _declaring(config: GameConfig) -> str:
    if config.declare_in_turn:
        return "Players declare in turn from the dealer's left, each hearing those before."
    return "Everyone declares at once, and nobody sees another's declaration until all have."


def _opening(config: GameConfig) -> str:
    """The ante, who brings in or opens, and who acts first after that."""
    game = config.game
    lowball = game.opening.lowball
    ante = f"Everyone antes {config.ante}. " if config.ante else ""
    order = "aces low" if lowball else "aces high"
    if game.wild_game and game.wilds.public:  # Low Hole's wild cards are their owner's secret
        order += "; a wild card counts as an ace"
    if config.bring_in:
        card = "highest" if lowball else "lowest"
        first = f"The {card} card showing ({order}) brings in for {config.bring_in}, or "
        first += "completes to a full bet"
    else:
        card = "lowest" if lowball else "highest"
        first = f"With no bring-in, the {card} card showing ({order}) opens and may check"
    later = "lowest" if lowball else "best"
    return f"{ante}{first}; after that, the {later} hand showing acts first."


def _payments(config: GameConfig, payments: Payments) -> str:
    """ "The payments here: 1 chip for a wild card and 5 chips for a seven." """
    prices = [
        f"{_chips(antes * config.payment_unit)} for a {called}"
        for (_, antes), called in zip(payments.rates, payments.called, strict=True)
    ]
    return f"The payments here: {_listed(prices)}."


def _exchange_price(config: GameConfig) -> str:
    steps = [i for i, step in enumerate(config.game.script) if isinstance(step, Exchange)]
    costs = [_chips(config.exchange_cost(step)) for step in steps]
    price = (
        f"Each exchange costs {costs[0]}"
        if len(set(costs)) == 1
        else ("The exchanges cost " + _listed(costs) + ", in that order")
    )
    return f"{price}, paid into the pot: it is not a bet, and nobody matches it."


def _chips(count: int) -> str:
    return f"{count} chip" if count == 1 else f"{count} chips"


def _listed(parts: list[str]) -> str:
    """ "a, b and c" """
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
