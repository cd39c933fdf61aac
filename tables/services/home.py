"""Home games: a private table a player opens from the site and hosts, the
invite link that lets friends in, and the host's powers over the game.

The link carries its code in the fragment (``/home/join/#<code>``), which a
browser never sends in a request: the join page's script posts it, so no
server, proxy or referrer log sees it. A wrong, old or forged code gets the
same answer as a table that doesn't exist, and each player and address may
try only so many codes an hour.

The host runs the game through services that each refuse anyone else: a
member who isn't the host is told only the host may, and a player who may
not see the table is told it doesn't exist. A closed game takes no commands.
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import quota_claim
from tables import broadcast
from tables.models import Hand, HomeBot, Seat, Stakes, Table, TableGame, TableMember
from tables.services.common import ServiceError, _lock_table, _unfinished_hand
from tables.services.hands import hand_start_if_ready
from tables.services.seats import _seat_stand_up
from tables.services.tables import table_close

# 32 random bytes, 256 bits, as 43 URL-safe characters.
INVITE_BYTES = 32
# Said alike of a code that never was and of one the host has replaced, so a
# guess learns nothing; the friend with an old link learns what to do.
NOT_FOUND = (
    "there is no home game for this link; it may be cut short, or its host may "
    "have made a new one: ask them to send it again"
)
CLOSED = "this home game has closed; ask its host for the link to their next one"


class NotFound(ServiceError):
    """No table answers: it doesn't exist, or the asker may not know it does."""


@dataclass(frozen=True)
class HomeGame:
    """What a host chose for a new home game: its stakes (unsaved, checked by
    the form), its name, its games and how they are dealt, and whether the
    host approves each seat (``tables.services.home_seats``)."""

    name: str
    stakes: Stakes
    policy: str
    variants: Sequence[str]
    rotate_hands: int = 0
    seat_approval: bool = False


@transaction.atomic
def home_game_open(*, host_id: int, game: HomeGame) -> Table:
    """Open a home game hosted by ``host_id``, with a fresh invite code.

    The host's choices were checked against the operator's rules by the form
    (``tables.forms.HomeGameForm``); here the host's count of open home games.
    """
    from tables.models import HomeRules

    host = User.objects.select_for_update().get(pk=host_id)  # one count at a time per host
    rules = HomeRules.current()
    hosting = Table.objects.filter(host=host, is_open=True).count()
    if hosting >= rules.max_open_games:
        raise ServiceError(
            f"you host {hosting} open home games already, the most one player may; "
            "close one to open another"
        )
    stakes = game.stakes
    stakes.name, stakes.rake = _free_name(Stakes, f"Home: {game.name}"), rules.rake
    stakes.save()
    table = Table.objects.create(
        name=_free_name(Table, game.name),
        stakes=stakes,
        host=host,
        invite_code=_new_code(),
        policy=game.policy,
        rotate_hands=game.rotate_hands,
        seat_approval=game.seat_approval,
    )
    if game.policy != Table.Policy.FIXED:
        TableGame.objects.bulk_create(
            TableGame(table=table, position=n, variant=v) for n, v in enumerate(game.variants)
        )
    return table


@transaction.atomic
def home_game_again(*, host_id: int, table_id: int, game: HomeGame) -> Table:
    """Open ``game`` as :func:`home_game_open` does, for the players of the
    closed home game ``table_id`` that ``host_id`` hosted: everyone who was
    in it is let into the new one (a player the host removed was out of it
    already), but for the bots the host added, which the host adds again if
    wanted. The new game has a link of its own, for anyone new."""
    closed = _host_closed_table(table_id, host_id)
    table = home_game_open(host_id=host_id, game=game)
    bots = HomeBot.objects.filter(table=closed).values("player_id")
    members = (
        TableMember.objects.filter(table=closed)
        .exclude(player_id__in=bots)
        .values_list("player_id", flat=True)
    )
    TableMember.objects.bulk_create(TableMember(table=table, player_id=p) for p in members)
    return table


@transaction.atomic
def home_again_table(*, table_id: int, player_id: int) -> Table:
    """The closed home game ``table_id`` if ``player_id`` hosted it, for the
    page that deals it again; refused, or not found, as every host power is."""
    return _host_closed_table(table_id, player_id)


def _free_name(model: type[Stakes] | type[Table], name: str) -> str:
    """``name``, or with a number after it if a row has it already: names are unique.

    The number is in brackets, ``Friday stud (2)``: a "#" would read as the
    hand's number where pages write one after the table's name
    (``Friday stud #2 #14`` in a player's hands).
    """
    name = name[:52]
    taken = set(model.objects.filter(name__startswith=name).values_list("name", flat=True))
    if name not in taken:
        return name
    return next(f"{name} ({n})" for n in range(2, len(taken) + 3) if f"{name} ({n})" not in taken)


def given_name(name: str) -> str:
    """A game's name as its host gave it, without the number in brackets
    :func:`_free_name` added to a name taken already."""
    return re.sub(r" \(\d+\)$", "", name)


def _new_code() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def home_invite_redeem(*, player_id: int, code: str, address: str) -> Table:
    """Let ``player_id`` into the home game whose invite code is ``code``.

    Raises :class:`NotFound` for a code no home game has, and for any code
    tried past the limit per player and per address an hour, so a guess
    learns nothing. Every try counts, right or wrong: it is taken in its own
    transaction, kept whatever the code turns out to be. A member already in
    is let in again, to a closed game too (its settle-up); a closed game
    lets nobody new in, and says it has closed to whoever holds its link.
    """
    if not _invite_try_claim(player_id, address):
        raise NotFound("too many invite links tried; wait an hour and open yours again")
    with transaction.atomic():
        table = (
            Table.objects.filter(invite_code=code, host__isnull=False).first()
            if isinstance(code, str) and code
            else None
        )
        if table is None:
            raise NotFound(NOT_FOUND)
        if table.host_id == player_id:
            return table
        if table.is_open:
            TableMember.objects.get_or_create(table=table, player_id=player_id)
        elif not TableMember.objects.filter(table=table, player_id=player_id).exists():
            raise NotFound(CLOSED)
        return table


@transaction.atomic
def _invite_try_claim(player_id: int, address: str) -> bool:
    window = datetime.timedelta(hours=1)
    limit = settings.CARDROOM_INVITE_TRIES_PER_HOUR
    return quota_claim("invite_player", str(player_id), limit, window) and quota_claim(
        "invite_address", address, limit, window
    )


@transaction.atomic
def home_invite_renew(*, table_id: int, player_id: int) -> str:
    """A new invite code for the host's home game; the old one stops working."""
    table = _host_table(table_id, player_id)
    for _ in range(3):
        code = _new_code()
        try:
            with transaction.atomic():
                Table.objects.filter(pk=table.pk).update(invite_code=code)
        except IntegrityError:  # 256 random bits met another table's: draw again
            continue
        return code
    raise ServiceError("could not make a new invite link; try again")


# ------------------------------------------------------------ the host's powers


@transaction.atomic
def home_pause(*, table_id: int, player_id: int) -> Table:
    """The host pauses the deal: no new hand starts until they resume it. A
    hand in play, or a dealer's call under way, plays on to its end."""
    table = _host_open_table(table_id, player_id)
    if table.paused:
        raise ServiceError(f"{table.name} is paused already")
    table.paused = True
    table.save(update_fields=["paused"])
    return table


def home_resume(*, table_id: int, player_id: int) -> Hand | None:
    """The host resumes the deal, and the next hand is dealt if the table is
    ready for one (:func:`~tables.services.hands.hand_start_if_ready`): the
    hand, or None."""
    _home_unpause(table_id, player_id)
    return hand_start_if_ready(table_id=table_id)


@transaction.atomic
def _home_unpause(table_id: int, player_id: int) -> None:
    table = _host_open_table(table_id, player_id)
    if not table.paused:
        raise ServiceError(f"{table.name} isn't paused")
    table.paused = False
    table.save(update_fields=["paused"])


@transaction.atomic
def home_remove(*, table_id: int, player_id: int, username: str) -> int | None:
    """The host removes ``username`` from the game: their seat is cashed out to
    their balance at once, or when the hand they are dealt into ends (as when
    a player leaves, :func:`~tables.services.seats.seat_leave`), and their
    membership is revoked at once: the table is gone for them, and they may
    come back only by its invite link (which the host may renew).

    Returns the chips cashed out, or None when the seat waits for the hand.
    Refused: the host themself (they leave, or close the game), a player
    not seated here, and one removed already.
    """
    table = _host_open_table(table_id, player_id)
    seat = (
        Seat.objects.select_for_update()
        .select_related("player")
        .filter(table=table, player__username=username)
        .first()
    )
    if seat is None:
        raise ServiceError(f"{username} is not seated at {table.name}")
    if seat.player_id == player_id:
        raise ServiceError("you host this game: leave your seat, or close the game")
    revoked, _ = TableMember.objects.filter(table=table, player_id=seat.player_id).delete()
    # A bot the host added stops being played here too (``tables.home.bot_house``).
    HomeBot.objects.filter(table=table, player_id=seat.player_id).delete()
    broadcast.table_access_revoked(table.pk, seat.player_id)
    hand = _unfinished_hand(table)
    if hand is None or hand.engine_player(seat.player_id) is None:
        return _seat_stand_up(table, seat)
    if seat.leaving and not revoked:
        raise ServiceError(
            f"{username} is removed already, and leaves when hand #{hand.number} ends"
        )
    if not seat.leaving:
        seat.leaving = True
        seat.save(update_fields=["leaving"])
    return None


@transaction.atomic
def home_close(*, table_id: int, player_id: int) -> Table:
    """The host closes the game: :func:`~tables.services.tables.table_close`,
    so a hand in play ends first and every seat is then cashed out."""
    table = _host_open_table(table_id, player_id)
    return table_close(table_id=table.pk)


def _host_open_table(table_id: int, player_id: int) -> Table:
    """:func:`_host_table`, refused as well once the game is closed."""
    table = _host_table(table_id, player_id)
    if not table.is_open:
        raise ServiceError(f"{table.name} is closed; its host has nothing left to run")
    return table


def _host_closed_table(table_id: int, player_id: int) -> Table:
    """:func:`_host_table`, refused while the game is still open."""
    table = _host_table(table_id, player_id)
    if table.is_open:
        raise ServiceError(f"{table.name} is still open: close it before dealing it again")
    return table


def _host_table(table_id: int, player_id: int) -> Table:
    """The home game ``table_id``, locked, if ``player_id`` hosts it; a clear
    refusal if they don't, and "not found" if they may not see it, in the
    words for a table that doesn't exist."""
    try:
        table = _lock_table(table_id)
    except ServiceError:
        raise NotFound(f"there is no table #{table_id}") from None
    if table.host_id is None:
        raise ServiceError(f"{table.name} is a table of the room, not a home game")
    if table.host_id != player_id:
        member = TableMember.objects.filter(table=table, player_id=player_id).exists()
        if not member:
            raise NotFound(f"there is no table #{table_id}")
        raise ServiceError(f"only {table.name}'s host may do that")
    return table
