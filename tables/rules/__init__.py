"""Cardroom's stud rules engine: pure Python, no Django.

Start a hand with :meth:`HandState.new`, ask :meth:`HandState.legal_actions`,
apply moves with :meth:`HandState.act`, and show each seat its
:func:`view`. Games are :class:`Variant` values (a script of steps, an
evaluator, opening rules) and betting structures are :data:`STRUCTURES`;
:func:`tables.rules.games.games` lists every pairing the room deals. See
``docs/rules.md`` for every rule and option.
"""

from tables.rules.betting import STRUCTURES, Structure
from tables.rules.config import BadOption, GameConfig, RakeRule
from tables.rules.errors import HandOver, IllegalAction, NotYourTurn
from tables.rules.state import BOARD, UNKNOWN, HandState, Held, LegalAction
from tables.rules.variants import VARIANTS, Variant, get_variant

__all__ = [
    "BOARD",
    "UNKNOWN",
    "VARIANTS",
    "BadOption",
    "GameConfig",
    "HandOver",
    "HandState",
    "Held",
    "IllegalAction",
    "LegalAction",
    "NotYourTurn",
    "RakeRule",
    "STRUCTURES",
    "Structure",
    "Variant",
    "get_variant",
]
