"""Bots at a home game: its host adds one to make up a game, and removes it.

Adding a bot seats a bot account (``tables.bot_accounts``) at once, in the
lowest free seat, as a member of the game with the table's largest buy-in, and
keeps a :class:`~tables.models.HomeBot` row that tells the house's bot process
(``manage.py run_bots --home``, :mod:`tables.home.bot_house`) to play it. The
bot's seat tops itself back up to that buy-in between hands (auto-rebuy), so a
bot that loses its stack is dealt in again, as a friend who buys back in.

The bot's chips are play chips like everyone's, moved by the ledger: a bot's
account keeps at least one buy-in in its balance, and where it is short the
house grants it the difference (a ``grant`` transfer naming the table). A grant
is chips put into the room, which ``manage.py audit_chips`` counts, so every
chip a bot plays with is accounted for; the home game's books count the bot's
buy-ins and cash-outs like anyone's.

Removing a bot is the host's removal of a player
(:func:`~tables.services.home.home_remove`): it leaves when the hand it is in
ends, its chips back in its balance, and its membership goes at once.
"""

from __future__ import annotations

import itertools

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from accounts.models import ChipTransfer, User
from accounts.services import ledger_post
from tables.bot_accounts import bot_number, bot_user, is_bot_account
from tables.models import HomeBot, Seat, Table, TableMember
from tables.services.common import ServiceError
from tables.services.hands import hand_start_if_ready
from tables.services.home import _host_open_table, home_remove
from tables.services.seats import seat_take
from tables.services.waiting_list import _seats_free


def home_bot_add(*, table_id: int, player_id: int) -> HomeBot:
    """The host adds a bot to their game: seated at once, and dealt in as soon
    as the table is ready (:func:`~tables.services.hands.hand_start_if_ready`).

    Refused to anyone but the host, at a closed game, and when no seat is free.
    """
    bot = _home_bot_seat(table_id, player_id)
    hand_start_if_ready(table_id=table_id)
    return bot


@transaction.atomic
def _home_bot_seat(table_id: int, player_id: int) -> HomeBot:
    table = _host_open_table(table_id, player_id)
    number = _free_seat(table)
    buy_in = table.stakes.max_buy_in
    bot = _free_bot(table)
    TableMember.objects.get_or_create(table=table, player=bot)
    _bot_stake(bot.pk, buy_in, table.pk)
    # First the row: at a game whose host approves each seat, it is the
    # approval that lets the bot sit unasked.
    row = HomeBot.objects.create(table=table, player=bot, buy_in=buy_in)
    seat = seat_take(table_id=table.pk, player_id=bot.pk, seat_number=number, buy_in=buy_in)
    seat.auto_rebuy_to = buy_in
    seat.save(update_fields=["auto_rebuy_to"])
    return row


def _free_seat(table: Table) -> int:
    """The lowest seat nobody sits in and none held for the waiting list."""
    free = _seats_free(table)
    if not free:
        raise ServiceError(f"every seat at {table.name} is taken: there is no seat for a bot")
    return free[0]


def _free_bot(table: Table) -> User:
    """The bot account with the lowest number that plays at no open table now,
    made if there is none; never an account a person uses (``is_bot_account``)."""
    at_open_tables = Q(table__is_open=True) | Q(table=table)
    busy = set(Seat.objects.filter(at_open_tables).values_list("player_id", flat=True))
    busy.update(HomeBot.objects.filter(at_open_tables).values_list("player_id", flat=True))
    accounts = {
        bot_number(user.username): user
        for user in User.objects.filter(username__regex=r"^bot-[1-9][0-9]*$")
    }
    for number in itertools.count(1):
        user = accounts.get(number)
        if user is None:
            return _bot_made(number)
        if is_bot_account(user) and user.pk not in busy:
            return user
    raise AssertionError("unreachable: the count goes on")


def _bot_made(number: int) -> User:
    try:
        with transaction.atomic():
            return bot_user(number)
    except IntegrityError:  # another game made this bot at the same moment
        raise ServiceError("another game took that bot just now; add a bot again") from None


def _bot_stake(bot_id: int, buy_in: int, table_id: int) -> int:
    """Grant bot ``bot_id`` the chips its balance lacks for one ``buy_in``; how many."""
    # Locked as ledger_post would: the balance must still be short when it posts.
    balance = User.objects.select_for_update().values_list("balance", flat=True).get(pk=bot_id)
    if balance >= buy_in:
        return 0
    ledger_post(
        user_id=bot_id,
        kind=ChipTransfer.Kind.GRANT,
        amount=buy_in - balance,
        table_id=table_id,
        note="the house's play chips for a home game's bot",
    )
    return buy_in - balance


def home_bots_stake() -> int:
    """Top up the balance of every bot at an open home game to one buy-in,
    ready for its seat's next rebuy; the chips granted. The house's bot
    process calls it on every round, and it finds nothing to do mostly."""
    short = HomeBot.objects.filter(table__is_open=True, player__balance__lt=F("buy_in"))
    granted = 0
    for row in short.values("player_id", "buy_in", "table_id"):
        with transaction.atomic():
            granted += _bot_stake(row["player_id"], row["buy_in"], row["table_id"])
    return granted


@transaction.atomic
def home_bot_remove(*, table_id: int, player_id: int, username: str) -> int | None:
    """The host removes the bot ``username`` from their game: as
    :func:`~tables.services.home.home_remove` removes a player, at once or
    when the hand it is in ends, and the house stops playing it. Returns the
    chips cashed out, or None when the seat waits for the hand.

    Refused to anyone but the host, at a closed game, and for a name that is
    no bot of this game (a person, or a bot removed already).
    """
    table = _host_open_table(table_id, player_id)
    bot = HomeBot.objects.filter(table=table, player__username=username).first()
    if bot is None:
        raise ServiceError(f"{username} is not a bot playing at {table.name}")
    bot.delete()
    if Seat.objects.filter(table=table, player_id=bot.player_id).exists():
        return home_remove(table_id=table.pk, player_id=player_id, username=username)
    # Stood up already (its game closing, say): only its membership is left.
    TableMember.objects.filter(table=table, player_id=bot.player_id).delete()
    return 0
