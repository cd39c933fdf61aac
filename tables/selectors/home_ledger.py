"""A home game's books: what each player brought to the table and took from
it, what they have on it now, and who pays whom to settle up.

Every chip between a player's balance and a table is a
:class:`~accounts.models.ChipTransfer` naming the table: a buy-in, chips added
to their seat (a top-up, a rebuy or an auto-rebuy: all ``top_up``), and the
cash-out when they stand up. What they have on the table now is their seat's
stack plus, while a hand runs, what they have put in its pot: the engine keeps
that in the hand's ``state["committed"]`` until it pays the pots, and the chip
audit (:mod:`tables.selectors.audit`) counts it there too.

So a player's net, cashed out + on the table - bought in - topped up, is what
the table has won or lost them, and the nets sum to minus the rake the table
has taken (0 at a home game without rake), at any moment, mid-hand too. Each
read here sees the database at one moment, as the audit does, so play going on
meanwhile can't make the figures disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q, Sum

from accounts.models import ChipTransfer
from tables.home.settle import settle
from tables.models import Hand, RakeEntry, Seat
from tables.selectors.audit import one_moment

# Who is owed the rake in a settle-up: no username has a space.
HOUSE = "the house"


@dataclass(frozen=True, kw_only=True)
class LedgerFigures:
    """Chips, never negative: bought in, topped up (top-ups, rebuys and
    auto-rebuys), cashed out, and on the table now."""

    bought_in: int
    topped_up: int
    cashed_out: int
    on_table: int

    @property
    def net(self) -> int:
        """What the table has won (positive) or lost (negative) so far."""
        return self.cashed_out + self.on_table - self.bought_in - self.topped_up


@dataclass(frozen=True, kw_only=True)
class LedgerRow(LedgerFigures):
    """One player's figures at the table."""

    player_id: int
    username: str
    name: str  # as the table shows them: their display name, or else their username
    seated: bool


@dataclass(frozen=True)
class Payment:
    """To settle up, ``payer`` pays ``payee`` ``amount`` chips. A payee of None
    (named :data:`HOUSE`) is the house, owed the rake."""

    payer_id: int
    payer: str
    payee_id: int | None
    payee: str
    amount: int


def home_ledger(table_id: int) -> list[LedgerRow]:
    """The figures of every player who has bought in at the table (and any
    seated there), by name, in a fixed number of queries."""
    with one_moment():
        moved = _chips_moved(table_id)
        seats = _seats(table_id)
        in_pot = chips_in_pot(table_id)
    rows = [
        _row(player_id, moved.get(player_id), seats.get(player_id), in_pot.get(player_id, 0))
        for player_id in moved.keys() | seats.keys()
    ]
    return sorted(rows, key=lambda row: (row.name.casefold(), row.username))


def _chips_moved(table_id: int) -> dict[int, Mapping[str, Any]]:
    """Each player's buy-ins, top-ups and cash-outs at the table, summed (as
    they went into the balance: buy-ins and top-ups negative), with their names."""
    kinds = ChipTransfer.Kind

    def chips(kind: str) -> Sum:
        return Sum("amount", filter=Q(kind=kind), default=0)

    transfers = ChipTransfer.objects.filter(
        table_id=table_id, kind__in=[kinds.BUY_IN, kinds.TOP_UP, kinds.CASH_OUT]
    )
    # No ordering: the model's would be grouped by too.
    players = (
        transfers.order_by()
        .values("user_id", username=F("user__username"), display_name=F("user__display_name"))
        .annotate(
            buy_ins=chips(kinds.BUY_IN),
            top_ups=chips(kinds.TOP_UP),
            cash_outs=chips(kinds.CASH_OUT),
        )
    )
    return {player["user_id"]: player for player in players}


def _seats(table_id: int) -> dict[int, Mapping[str, Any]]:
    seats = Seat.objects.filter(table_id=table_id).values(
        "stack",
        user_id=F("player_id"),
        username=F("player__username"),
        display_name=F("player__display_name"),
    )
    return {seat["user_id"]: seat for seat in seats}


def chips_in_pot(table_id: int) -> dict[int, int]:
    """What each player has put into the pot of the hand running at the table,
    by user id (nothing between hands)."""
    hands = (
        Hand.objects.filter(table_id=table_id, ended_at__isnull=True)
        .only("seating")
        .annotate(committed=F("state__committed"))
    )
    chips: dict[int, int] = {}
    for hand in hands:
        for player_id, committed in zip(hand.player_ids(), hand.committed, strict=True):
            chips[player_id] = chips.get(player_id, 0) + committed
    return chips


def _row(
    player_id: int, moved: Mapping[str, Any] | None, seat: Mapping[str, Any] | None, in_pot: int
) -> LedgerRow:
    known = moved or seat
    assert known is not None  # every player comes from one or the other
    return LedgerRow(
        player_id=player_id,
        username=known["username"],
        name=known["display_name"] or known["username"],
        seated=seat is not None,
        bought_in=-moved["buy_ins"] if moved else 0,
        topped_up=-moved["top_ups"] if moved else 0,
        cashed_out=moved["cash_outs"] if moved else 0,
        on_table=(seat["stack"] if seat else 0) + in_pot,
    )


def ledger_totals(rows: Iterable[LedgerRow]) -> LedgerFigures:
    """The figures of all the rows together (their net is the nets' sum)."""
    rows = list(rows)
    return LedgerFigures(
        bought_in=sum(row.bought_in for row in rows),
        topped_up=sum(row.topped_up for row in rows),
        cashed_out=sum(row.cashed_out for row in rows),
        on_table=sum(row.on_table for row in rows),
    )


def table_rake(table_id: int) -> int:
    """The chips the house has taken from the table's pots: minus the sum of its nets."""
    rake: int = RakeEntry.objects.filter(table_id=table_id).aggregate(
        chips=Sum("amount", default=0)
    )["chips"]
    return rake


def settle_up(rows: Sequence[LedgerRow], *, rake: int = 0) -> list[Payment]:
    """Who pays whom, in the fewest payments (:func:`tables.home.settle.settle`),
    to square the rows' nets; players whose net is 0 take no part.

    With ``rake`` (:func:`table_rake`), the house is owed it too: the nets
    then sum to minus the rake. Nets that don't add up raise ValueError.
    """
    owing = {row.username: row for row in rows if row.net}
    nets = {username: row.net for username, row in owing.items()}
    if rake:
        nets[HOUSE] = rake

    def who(username: str) -> tuple[int | None, str]:
        row = owing.get(username)
        return (row.player_id, row.name) if row is not None else (None, HOUSE)

    payments = []
    for transfer in settle(nets):
        payer_id, payer = who(transfer.payer)
        payee_id, payee = who(transfer.payee)
        assert payer_id is not None  # the house is only ever owed
        payments.append(Payment(payer_id, payer, payee_id, payee, transfer.amount))
    return payments


@dataclass(frozen=True)
class Books:
    """A home game's books at one moment: each player's figures, their totals,
    the rake the house has taken, and who pays whom to settle up."""

    rows: list[LedgerRow]
    totals: LedgerFigures
    rake: int
    payments: list[Payment]


def home_books(table_id: int) -> Books:
    """The table's books, the ledger and the rake read at one moment, so
    that the nets always square with the rake (:func:`settle_up`)."""
    with one_moment():
        rows, rake = home_ledger(table_id), table_rake(table_id)
    return Books(rows, ledger_totals(rows), rake, settle_up(rows, rake=rake))
