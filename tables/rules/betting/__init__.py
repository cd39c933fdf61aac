"""Betting structures: how big a complete, bet or raise may be, whether it is a
full raise, and when the round is capped.

The engine keeps the round's bookkeeping (the current bet, the last full
level, the size of the last full raise, how many wagers were made) and asks
its table's structure three questions:

* :meth:`Structure.targets`: the smallest and largest street total a full
  complete, bet or raise may go to, and the exact totals where the structure
  has them (fixed limit);
* :meth:`Structure.is_full`: whether a total is a full wager, which reopens
  the betting to players who already acted;
* :meth:`Structure.capped`: whether the round has had all the wagers it may.

A structure is a small class registered in :data:`STRUCTURES`; the stakes'
choices, the games list and the docs come from that registry.
"""

from __future__ import annotations

from tables.rules.betting.base import Structure, Targets
from tables.rules.betting.big_bet import NoLimit, PotLimit
from tables.rules.betting.limits import FixedLimit, SpreadLimit

__all__ = ["STRUCTURES", "FixedLimit", "NoLimit", "PotLimit", "SpreadLimit", "Structure", "Targets"]

STRUCTURES: dict[str, Structure] = {
    s.code: s for s in (FixedLimit(), SpreadLimit(), PotLimit(), NoLimit())
}
