"""Two of a home game's host's powers: changing the games, sizes or clock
for the next hand, and handing the host role to another player.

A change waits on the table (``Table.pending_change``) and is made at the
next deal, under the table's lock (:func:`home_change_apply`, called by the
deal in :mod:`tables.services.hands`), so a hand in play keeps the game and
sizes it was dealt with; every hand records its own (``Hand.variant`` to
``big_bet``, and the config frozen in its state), which its history and
replay read. With no hand in play the change is made at once. A dealer's
call under way then is called off and offered again from the new list: the
dealer was choosing among games that may no longer be dealt. A second change
before the deal replaces the first.

The table keeps the last change after it is made, marked ``applied``, so the
table's page can tell when it was stored and when it was made; a change
waiting is one not yet applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from tables.bot_accounts import is_bot_account
from tables.models import HomeBot, HomeRules, Seat, Stakes, Table, TableGame, TableMember
from tables.rules import GameConfig, IllegalAction
from tables.rules.variants import VARIANTS
from tables.services.common import ServiceError, _unfinished_hand
from tables.services.games import _call_off
from tables.services.hands import hand_start_if_ready
from tables.services.home import _host_open_table, given_name

# The stakes' columns a host's change sets; the rest stay as the game opened.
CHANGED_STAKES = ("variant", *Stakes.HOST_TERMS)


class SeatsTaken(ServiceError):
    """A change to fewer seats than a seated player's seat number."""


@dataclass(frozen=True)
class HomeChange:
    """What the host chose for the next hand: the stakes (unsaved, checked by
    the form against the operator's rules), the games and how they are dealt."""

    stakes: Stakes
    policy: str
    variants: Sequence[str]
    rotate_hands: int = 0


def home_change(*, table_id: int, player_id: int, change: HomeChange) -> dict[str, Any]:
    """The host changes the game for the next hand; the change as stored
    (``words``, and ``applied`` if made at once, with no hand in play).

    Refused, storing nothing: anyone but the host, a closed game, a change
    that changes nothing, and fewer seats than a seated player's number.
    A call called off by a change made at once is offered again here.
    """
    stored, recalled = _home_change_store(table_id, player_id, change)
    if recalled:
        hand_start_if_ready(table_id=table_id)
    return stored


@transaction.atomic
def _home_change_store(
    table_id: int, player_id: int, change: HomeChange
) -> tuple[dict[str, Any], bool]:
    table = _host_open_table(table_id, player_id)
    values = _values_of(change)
    words = _change_words(_values_of_table(table), values)
    if not words:
        raise ServiceError("that is the game already; nothing to change")
    taken = _highest_seat_taken(table)
    if taken > values["seats"]:
        raise SeatsTaken(
            f"seat {taken} is taken: the table can't have fewer than {taken} seats "
            "while someone sits there"
        )
    earlier = table.pending_change or {}
    assert table.host is not None  # _host_open_table: a home game has its host
    table.pending_change = {
        "number": int(earlier.get("number", 0)) + 1,
        "by": table.host.username,
        "words": words,
        "values": values,
        "applied": False,
    }
    table.save(update_fields=["pending_change"])
    recalled = False
    if _unfinished_hand(table) is None:
        recalled = table.call_seat is not None
        if recalled:
            _call_off(table)  # offered again, from the new list, by the deal
        home_change_apply(table)
    return table.pending_change, recalled


def home_change_apply(table: Table) -> bool:
    """Make the change waiting at the locked ``table``, if there is one: its
    stakes and its list of games are the change's from now on, and its
    rotation starts again; whether one was made.

    Called at the deal (:func:`tables.services.hands._hand_deal`) and when a
    change is stored with no hand in play. A seat count a player has sat past
    since the change was stored stays as it was (no seat is lost to it).
    """
    change = table.pending_change
    if not change or change.get("applied"):
        return False
    values = dict(change["values"])
    values["seats"] = max(values["seats"], _highest_seat_taken(table))
    stakes = table.stakes
    for name in CHANGED_STAKES:
        setattr(stakes, name, values[name])
    stakes.save(update_fields=list(CHANGED_STAKES))
    TableGame.objects.filter(table=table).delete()
    if values["policy"] != Table.Policy.FIXED:
        TableGame.objects.bulk_create(
            TableGame(table=table, position=n, variant=v) for n, v in enumerate(values["games"])
        )
    table.policy, table.rotate_hands = values["policy"], values["rotate_hands"]
    # The list is new: no game of it is dealt yet, and no call stands for it.
    table.game_position = table.game_began_seat = table.called = None
    table.game_hands = 0
    table.pending_change = {**change, "applied": True, "at": timezone.now().isoformat()}
    table.save(
        update_fields=[
            "policy",
            "rotate_hands",
            "game_position",
            "game_began_seat",
            "game_hands",
            "called",
            "pending_change",
        ]
    )
    return True


def change_waiting(table: Table) -> dict[str, Any] | None:
    """The change waiting for the next deal at ``table``, if any."""
    change = table.pending_change
    return change if change and not change.get("applied") else None


def _values_of(change: HomeChange) -> dict[str, Any]:
    stakes = change.stakes
    games = list(change.variants) if change.policy != Table.Policy.FIXED else [stakes.variant]
    return {
        **{name: getattr(stakes, name) for name in CHANGED_STAKES},
        "policy": change.policy,
        "games": games,
        "rotate_hands": change.rotate_hands if change.policy == Table.Policy.ROTATION else 0,
    }


def _values_of_table(table: Table) -> dict[str, Any]:
    """The table's games and terms now, in the change's shape."""
    games = list(TableGame.objects.filter(table=table).values_list("variant", flat=True))
    stakes = table.stakes
    return {
        **{name: getattr(stakes, name) for name in CHANGED_STAKES},
        "policy": table.policy,
        "games": games if table.is_mixed else [stakes.variant],
        "rotate_hands": table.rotate_hands if table.policy == Table.Policy.ROTATION else 0,
    }


@transaction.atomic
def home_host_table(*, table_id: int, player_id: int) -> Table:
    """The open home game ``table_id`` if ``player_id`` hosts it, for the
    change page; refused, or not found, as every host power is."""
    return _host_open_table(table_id, player_id)


def home_change_initial(table: Table) -> dict[str, Any]:
    """The change page's form as the table stands: its games and terms now."""
    return _values_of_table(table)


def home_again_initial(table: Table) -> dict[str, Any]:
    """The form that deals a closed game again, as the game ended: its games
    and terms, whether the host approved each seat, and its name as the host
    gave it."""
    return {
        **_values_of_table(table),
        "name": given_name(table.name),
        "seat_approval": table.seat_approval,
    }


def _highest_seat_taken(table: Table) -> int:
    numbers = Seat.objects.filter(table=table).values_list("number", flat=True)
    return max(numbers, default=0)


# ------------------------------------------------------------ the words


def _change_words(before: dict[str, Any], after: dict[str, Any]) -> str:
    """What the change changes, in words, each part as it will be: "dealer's
    choice of Seven-card stud, Razz; spread 5-20, ante 1, bring-in 2"; ""
    when it changes nothing."""
    parts = []
    if [before[k] for k in ("policy", "games", "rotate_hands")] != [
        after[k] for k in ("policy", "games", "rotate_hands")
    ]:
        parts.append(games_words(after["policy"], after["games"], after["rotate_hands"]))
    sizes = ("structure", "ante", "bring_in", "small_bet", "big_bet")
    if [before[k] for k in sizes] != [after[k] for k in sizes]:
        parts.append(sizes_words(after))
    if before["seats"] != after["seats"]:
        parts.append(f"{after['seats']} seats")
    if (before["min_buy_in"], before["max_buy_in"]) != (after["min_buy_in"], after["max_buy_in"]):
        parts.append(f"buy-in {after['min_buy_in']:,}–{after['max_buy_in']:,}")
    if before["action_seconds"] != after["action_seconds"]:
        parts.append(f"{after['action_seconds']} seconds to act")
    return "; ".join(parts)


def games_words(policy: str, games: Sequence[str], rotate_hands: int = 0) -> str:
    """ "Razz, every hand", "a rotation of Razz, Seven-card stud (3 hands
    each)", "dealer's choice of Razz, Baseball"."""
    names = ", ".join(VARIANTS[code].name if code in VARIANTS else code for code in games)
    if policy == Table.Policy.FIXED:
        return f"{names}, every hand"
    if policy == Table.Policy.ROTATION:
        each = f"{rotate_hands} hands each" if rotate_hands else "an orbit each"
        return f"a rotation of {names} ({each})"
    return f"dealer's choice of {names}"


def sizes_words(values: dict[str, Any]) -> str:
    """The bet sizes as the structure says them, then the ante and bring-in."""
    options = {k: values[k] for k in ("structure", "ante", "bring_in", "small_bet", "big_bet")}
    try:
        config = GameConfig(variant=values["variant"], **options)
    except IllegalAction:  # the form checked them; still say the numbers
        return f"{values['small_bet']}/{values['big_bet']}"
    words = config.betting.describe(config)
    if values["ante"]:
        words += f", ante {values['ante']}"
    if values["bring_in"]:
        words += f", bring-in {values['bring_in']}"
    return words


# ------------------------------------------------------------ the host role


@transaction.atomic
def home_hand_over(*, table_id: int, player_id: int, username: str) -> Table:
    """The host hands the host role to ``username``, who runs the game from
    now on; the old host stays a member, seat and chips as they were.

    Refused, changing nothing: anyone but the host, a closed game, a player
    who isn't a member of the game (seated or not), a bot, the host
    themself, and a player who hosts as many open home games as the
    operator allows one player (``HomeRules.max_open_games``): the role would
    be one more.
    """
    table = _host_open_table(table_id, player_id)
    heir = _heir(table, username)
    # One count at a time per player, as when they open a game (home_game_open).
    User.objects.select_for_update().filter(pk=heir.pk).first()
    hosting = Table.objects.filter(host=heir, is_open=True).count()
    most = HomeRules.current().max_open_games
    if hosting >= most:
        raise ServiceError(
            f"{username} hosts {hosting} open home games already, the most one player may; "
            "they could host this one once they close one of theirs"
        )
    TableMember.objects.get_or_create(table=table, player_id=player_id)
    TableMember.objects.filter(table=table, player=heir).delete()  # the host is no member row
    table.host = heir
    table.save(update_fields=["host"])
    return table


def _heir(table: Table, username: str) -> User:
    """The player ``username`` names, if they may take the host role."""
    assert table.host is not None
    if username == table.host.username:
        raise ServiceError("you host this game already")
    heir = User.objects.filter(username=username).first()
    # A member: they opened the link (a player the host removed is one no more,
    # though their seat waits for the hand they are in).
    member = heir is not None and TableMember.objects.filter(table=table, player=heir).exists()
    if heir is None or not member:
        raise ServiceError(f"{username} is not a player of {table.name}")
    if is_bot_account(heir) or HomeBot.objects.filter(table=table, player=heir).exists():
        raise ServiceError(f"{username} is a bot; only a person may host")
    return heir
