"""The one exception type the engine raises for a move it refuses."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An illegal or malformed action, or bad engine input.

    The message names what was wrong and what was allowed. The state that
    raised it is unchanged.
    """


class NotYourTurn(IllegalAction):
    """The action came from a player who is not the one to act."""


class HandOver(IllegalAction):
    """The action came after the hand had finished."""
