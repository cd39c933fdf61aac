"""A mixed table's list of games, and what it will deal: the games that fit the
players, a rotation's next game and the hands left of the one now dealt.

The services pick the game at each deal (``tables.services.games``) from
these; the lobby and the table's snapshot say what is coming from the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.models import Table, TableGame


def table_games(table: Table) -> list[TableGame]:
    """The table's list of games, in order (none at a fixed table)."""
    if not table.is_mixed:
        return []
    return list(table.games.select_related("stakes__rake").order_by("position", "pk"))


def fitting(games: Sequence[TableGame], players: int) -> list[TableGame]:
    """The games of ``games`` that can be dealt to ``players`` players."""
    return [game for game in games if players <= game.max_players]


def entry_at(games: Sequence[TableGame], position: int | None) -> TableGame | None:
    """The game at ``position`` in the list, if there is one."""
    return next((game for game in games if game.position == position), None)


def next_fitting(
    games: Sequence[TableGame], current: TableGame | None, players: int
) -> TableGame | None:
    """The first game after ``current`` in the list's order, going round, that fits
    (the list's first that fits, without ``current``)."""
    start = 0 if current is None else games.index(current) + 1
    for step in range(len(games)):
        game = games[(start + step) % len(games)]
        if players <= game.max_players:
            return game
    return None


def orbit_done(began: int, last: int, dealer: int) -> bool:
    """Whether the button, moving from seat ``last`` to seat ``dealer``, has come
    back round to seat ``began``, landing on it or passing it (if it left).

    >>> orbit_done(began=1, last=1, dealer=3), orbit_done(began=1, last=6, dealer=1)
    (False, True)
    >>> orbit_done(began=2, last=6, dealer=3)  # seat 2 is empty now: passed
    True
    """
    if last < dealer:
        return last < began <= dealer
    return began > last or began <= dealer


def orbit_hands_left(began: int, last: int, seats: Sequence[int]) -> int:
    """Hands still to deal before the button, now at ``last``, comes back round
    to ``began``, with the button moving through ``seats`` (sorted seat numbers).

    >>> orbit_hands_left(began=1, last=1, seats=[1, 3, 5])
    2
    >>> orbit_hands_left(began=1, last=5, seats=[1, 3, 5])
    0
    """
    if not seats:
        return 0
    left, button = 0, last
    for _ in seats:
        dealer = next((n for n in seats if n > button), seats[0])
        if orbit_done(began, button, dealer):
            break
        left, button = left + 1, dealer
    return left


@dataclass(frozen=True)
class Coming:
    """What a mixed table deals: the game now (or first, before any hand of it),
    how many more hands of it (None when unknown, or when a dealer's call
    decides), the game after it, and whether a dealer is calling the next."""

    now: TableGame | None
    left: int | None
    then: TableGame | None
    fresh: bool = False  # no hand of ``now`` dealt yet: a rotation's first game
    calling: bool = False

    def words(self, policy: str) -> str:
        """What the lobby and the table say is coming: "Razz · 2 more hands, then
        Seven-card stud hi-lo, eight or better"; "Dealer’s choice · Baseball"."""
        if policy == Table.Policy.DEALERS_CHOICE:
            if self.calling:
                return "Dealer’s choice · the dealer is calling the game"
            said = "Dealer’s choice" if self.now is None else f"Dealer’s choice · {self.now.name}"
            if self.now is not None and self.left:
                said += f" · {_more(self.left)}"
            return said
        if self.now is None:
            return ""
        if self.then is None:
            return self.now.name
        if self.left is None:
            return f"{self.now.name}, then {self.then.name}"
        if self.fresh:
            return f"{self.now.name} first · {_hands(self.left)}, then {self.then.name}"
        if self.left == 0:
            return f"{self.now.name} · {self.then.name} next"
        return f"{self.now.name} · {_more(self.left)}, then {self.then.name}"


def _more(count: int) -> str:
    return f"{count} more hand" if count == 1 else f"{count} more hands"


def _hands(count: int) -> str:
    return f"{count} hand" if count == 1 else f"{count} hands"


def coming(
    table: Table, games: Sequence[TableGame], seats: Sequence[int], last_dealer: int | None
) -> Coming:
    """What ``table`` (its policy's state as saved) deals next, with ``seats``
    the seat numbers dealt in and the button last at ``last_dealer``.

    A rotation counts down its hands (or its orbit) and names the next game
    that fits; before its first hand, the first game that fits and its count.
    At dealer's choice the game called stands for its hand or orbit, and what
    follows is the next dealer's call.
    """
    players = max(len(seats), 2)
    calling = table.call_seat is not None
    now = entry_at(games, table.game_position)
    if table.policy != Table.Policy.ROTATION:
        left = None
        if now is not None and table.choice_for == Table.ChoiceFor.ORBIT and last_dealer:
            left = _left(table, seats, last_dealer)
        return Coming(now, left, None, calling=calling)
    if now is None:
        first = next_fitting(games, None, players)
        then = next_fitting(games, first, players) if first is not None else None
        return Coming(first, table.rotate_hands or None, then, fresh=True)
    then = next_fitting(games, now, players)
    return Coming(now, _left(table, seats, last_dealer), then)


def _left(table: Table, seats: Sequence[int], last_dealer: int | None) -> int:
    if table.policy == Table.Policy.ROTATION and table.rotate_hands:
        return max(table.rotate_hands - table.game_hands, 0)
    if table.game_began_seat is None or last_dealer is None:
        return 0
    return orbit_hands_left(table.game_began_seat, last_dealer, sorted(seats))
