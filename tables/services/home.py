"""Home games: a private table a player opens from the site and hosts, and the
invite link that lets friends in.

The link carries its code in the fragment (``/home/join/#<code>``), which a
browser never sends in a request: the join page's script posts it, so no
server, proxy or referrer log sees it. A wrong, old or forged code gets the
same answer as a table that doesn't exist, and each player and address may
try only so many codes an hour.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.services import quota_claim
from tables.models import Stakes, Table, TableGame, TableMember
from tables.services.common import ServiceError, _lock_table

# 32 random bytes, 256 bits, as 43 URL-safe characters.
INVITE_BYTES = 32
NOT_FOUND = "there is no such table"


class NotFound(ServiceError):
    """No table answers: it doesn't exist, or the asker may not know it does."""


@dataclass(frozen=True)
class HomeGame:
    """What a host chose for a new home game: its stakes (unsaved, checked by
    the form), its name, its games and how they are dealt."""

    name: str
    stakes: Stakes
    policy: str
    variants: Sequence[str]
    rotate_hands: int = 0


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
    )
    if game.policy != Table.Policy.FIXED:
        TableGame.objects.bulk_create(
            TableGame(table=table, position=n, variant=v) for n, v in enumerate(game.variants)
        )
    return table


def _free_name(model: type[Stakes] | type[Table], name: str) -> str:
    """``name``, or with a number after it if a row has it already: names are unique."""
    name = name[:52]
    taken = set(model.objects.filter(name__startswith=name).values_list("name", flat=True))
    if name not in taken:
        return name
    return next(f"{name} #{n}" for n in range(2, len(taken) + 3) if f"{name} #{n}" not in taken)


def _new_code() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


def home_invite_redeem(*, player_id: int, code: str, address: str) -> Table:
    """Let ``player_id`` into the home game whose invite code is ``code``.

    Raises :class:`NotFound` for a code no open home game has, and for any
    code tried past the limit per player and per address an hour, so a guess
    learns nothing. Every try counts, right or wrong: it is taken in its own
    transaction, kept whatever the code turns out to be. A member already in
    is let in again.
    """
    if not _invite_try_claim(player_id, address):
        raise NotFound("too many invite links tried; wait an hour and open yours again")
    with transaction.atomic():
        table = (
            Table.objects.filter(invite_code=code, host__isnull=False, is_open=True).first()
            if isinstance(code, str) and code
            else None
        )
        if table is None:
            raise NotFound(NOT_FOUND)
        if table.host_id != player_id:
            TableMember.objects.get_or_create(table=table, player_id=player_id)
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


def _host_table(table_id: int, player_id: int) -> Table:
    """The home game ``table_id``, locked, if ``player_id`` hosts it; a clear
    refusal if they don't, and "not found" if they may not see it."""
    table = _lock_table(table_id)
    if table.host_id is None:
        raise ServiceError(f"{table.name} is a table of the room, not a home game")
    if table.host_id != player_id:
        member = TableMember.objects.filter(table=table, player_id=player_id).exists()
        if not member:
            raise NotFound(NOT_FOUND)
        raise ServiceError(f"only {table.name}'s host may do that")
    return table
