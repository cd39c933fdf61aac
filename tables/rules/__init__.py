"""Cardroom's stud rules engine: pure Python, no Django.

Start a hand with :meth:`HandState.new`, ask :meth:`HandState.legal_actions`,
apply moves with :meth:`HandState.act`, and show each seat its
:func:`view`. See ``docs/rules.md`` for every rule and option.
"""

from tables.rules.config import GameConfig, RakeRule
from tables.rules.errors import HandOver, IllegalAction, NotYourTurn
from tables.rules.state import BOARD, UNKNOWN, HandState, LegalAction
from tables.rules.variants import VARIANTS, Variant, get_variant

__all__ = [
    "BOARD",
    "UNKNOWN",
    "VARIANTS",
    "GameConfig",
    "HandOver",
    "HandState",
    "IllegalAction",
    "LegalAction",
    "NotYourTurn",
    "RakeRule",
    "Variant",
    "get_variant",
]
