"""Every game the room can deal: each variant in each betting structure it
suits. The admin's choices, the lobby's filters, ``manage.py games`` and the
docs are all built from :func:`games`, never from a list kept by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.rules.betting import STRUCTURES, Structure
from tables.rules.config import GameConfig
from tables.rules.variants import VARIANTS, Variant


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
