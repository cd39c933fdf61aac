"""The form of the host's change to a home game: the new-game form's, less
what a change doesn't set, so the operator's rules are checked the one way
for both."""

from __future__ import annotations

from typing import Any

from tables.forms import HomeGameForm

# The new-game form's fields a change leaves alone: the game's name, and the
# seat approval, which the host switches on the table's own panel.
NOT_CHANGED = ("name", "seat_approval")


class HomeChangeForm(HomeGameForm):
    """The games, sizes, seats, buy-ins and action time for the next hand,
    checked as a new game's are (:class:`~tables.forms.HomeGameForm`); the
    seats a seated player needs are the service's to check."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in NOT_CHANGED:
            self.fields.pop(name, None)
