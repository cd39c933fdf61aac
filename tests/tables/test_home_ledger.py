"""A home game's ledger, and its settle-up, reconciled with the chip ledger.

Personas: alice, bob and carol play at one table with no rake (a home game's
default), so every chip one of them loses there another wins: the nets sum to
0 at every moment, mid-hand too. Each player's net is checked against their own
balance (what the table took from it or gave back) plus what they have at the
table, and ``audit_chips`` must pass throughout. One test plays with the
stakes' rake, which the house is owed.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Hand, Seat, Stakes, Table
from tables.selectors.audit import chip_audit
from tables.selectors.home_ledger import (
    HOUSE,
    LedgerRow,
    Payment,
    home_ledger,
    ledger_totals,
    settle_up,
    table_rake,
)
from tables.services import hands as hand_services
from tests.tables.conftest import bet_and_call, engine, play_out, player_to_act
from tests.tables.test_seat_chips import BOB_WINS, bust, raise_everything

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(table: Table) -> Table:
    """The table with no rake, as a home game has unless the operator sets one."""
    Stakes.objects.filter(pk=table.stakes_id).update(rake=None)
    return table


@pytest.fixture
def bob_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up, bob's cards beat alice's (``test_seat_chips.BOB_WINS``)."""
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(BOB_WINS))


def sit(table: Table, player: User, number: int, buy_in: int) -> None:
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=buy_in)


def balances() -> dict[int, int]:
    return dict(User.objects.values_list("pk", "balance"))


def row_of(table: Table, player: User) -> LedgerRow:
    return next(row for row in home_ledger(table.pk) if row.player_id == player.pk)


def figures(row: LedgerRow) -> tuple[int, int, int, int, int]:
    return row.bought_in, row.topped_up, row.cashed_out, row.on_table, row.net


def at_the_table(table: Table) -> dict[int, int]:
    """Each seated player's chips at the table, worked out here: their stack,
    plus what the engine's state of a running hand says they have put in."""
    chips = dict(Seat.objects.filter(table=table).values_list("player_id", "stack"))
    hand = Hand.objects.filter(table=table, ended_at__isnull=True).first()
    if hand is not None:
        for player_id, committed in zip(hand.player_ids(), engine(hand).committed, strict=True):
            chips[player_id] += committed
    return chips


def reconciles(table: Table, before: dict[int, int]) -> list[LedgerRow]:
    """The ledger agrees with the chip ledger, to the chip, and the audit passes.

    ``before``: every player's balance before they came to the table. Whatever
    the table took from a balance or gave back, the player has at the table or
    has won or lost there: net = balance now - balance before + chips at the
    table. With one table in play, its chips are the audit's stacks and pots.
    """
    rows = home_ledger(table.pk)
    now, chips = balances(), at_the_table(table)
    assert sum(row.net for row in rows) == -table_rake(table.pk)
    for row in rows:
        assert row.net == now[row.player_id] - before[row.player_id] + chips.get(row.player_id, 0)
        assert row.seated == (row.player_id in chips)
    held = chip_audit().held
    assert ledger_totals(rows).on_table == held["seat stacks"] + held["pots of unfinished hands"]
    call_command("audit_chips", stdout=io.StringIO())  # raises CommandError on any difference
    return rows


def squares(rows: list[LedgerRow], payments: list[Payment], rake: int = 0) -> bool:
    """Whether the payments bring every player's net, and the house's rake, to 0."""
    left = {row.player_id: row.net for row in rows}
    left[None] = rake
    for payment in payments:
        left[payment.payer_id] += payment.amount
        left[payment.payee_id] -= payment.amount
    return not any(left.values())


def act(hand: Hand, moves: int) -> None:
    """Play ``moves`` moves of the hand, each the smallest full wager or a call."""
    for _ in range(moves):
        kind, amount = bet_and_call(engine(hand))
        services.hand_act(
            hand_id=hand.pk,
            player_id=player_to_act(hand),
            kind=kind,
            amount=amount,
            version=hand.version,
        )
        hand.refresh_from_db()


# -------------------------------------------------------------------- figures


def test_a_table_nobody_sat_at_has_an_empty_ledger(home: Table) -> None:
    assert home_ledger(home.pk) == []
    assert figures(ledger_totals([])) == (0, 0, 0, 0, 0)  # type: ignore[arg-type]
    assert settle_up([]) == []


def test_a_buy_in_is_bought_in_and_on_the_table(home: Table, alice: User) -> None:
    sit(home, alice, 1, 200)
    [row] = home_ledger(home.pk)
    assert (row.player_id, row.username, row.name, row.seated) == (alice.pk, "alice", "alice", True)
    assert figures(row) == (200, 0, 0, 200, 0)


def test_top_ups_rebuys_and_auto_rebuys_are_topped_up(
    home: Table, alice: User, bob: User, bob_wins: None
) -> None:
    before = balances()
    sit(home, bob, 2, 200)
    bust(home, alice, buy_in=50)  # bob wins alice's 50
    services.seat_rebuy(table_id=home.pk, player_id=alice.pk, amount=100)
    services.seat_top_up(table_id=home.pk, player_id=alice.pk, amount=30)
    services.seat_auto_rebuy_set(table_id=home.pk, player_id=bob.pk, amount=300)
    assert figures(row_of(home, alice)) == (50, 130, 0, 130, -50)
    assert figures(row_of(home, bob)) == (200, 50, 0, 300, 50)
    reconciles(home, before)


def test_chips_in_the_pot_of_a_running_hand_are_on_the_table(
    home: Table, alice: User, bob: User
) -> None:
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 200)
    hand = services.hand_start(table_id=home.pk)
    act(hand, 3)  # the bring-in's completion, a call, a bet on 4th street
    assert sum(engine(hand).committed) > 2 * home.stakes.ante
    rows = home_ledger(home.pk)
    assert [row.on_table for row in rows] == [200, 200]  # no one has won anything yet
    assert [row.net for row in rows] == [0, 0]


def test_a_player_who_left_keeps_their_row_cashed_out(home: Table, alice: User, bob: User) -> None:
    sit(home, alice, 1, 200)
    sit(home, bob, 2, 200)
    play_out(services.hand_start(table_id=home.pk), bet_and_call)
    stack = Seat.objects.get(table=home, player=alice).stack
    assert services.seat_leave(table_id=home.pk, player_id=alice.pk) == stack
    row = row_of(home, alice)
    assert not row.seated
    assert figures(row) == (200, 0, stack, 0, stack - 200)


def test_a_player_who_sits_down_again_adds_both_visits_up(home: Table, alice: User) -> None:
    sit(home, alice, 1, 200)
    services.seat_leave(table_id=home.pk, player_id=alice.pk)
    sit(home, alice, 3, 120)
    assert figures(row_of(home, alice)) == (320, 0, 200, 120, 0)


def test_only_the_tables_own_chips_count(home: Table, stakes: Stakes, alice: User) -> None:
    other = Table.objects.create(name="Table 2", stakes=stakes)
    sit(other, alice, 1, 300)
    assert home_ledger(home.pk) == []
    sit(home, alice, 1, 100)
    assert figures(row_of(home, alice)) == (100, 0, 0, 100, 0)


def test_players_are_named_as_the_table_shows_them_in_that_order(
    home: Table, alice: User, bob: User, carol: User
) -> None:
    User.objects.filter(pk=carol.pk).update(display_name="Aunt Carol")
    for number, player in enumerate((alice, bob, carol), start=1):
        sit(home, player, number, 100)
    services.seat_leave(table_id=home.pk, player_id=bob.pk)  # out of his seat, not the ledger
    rows = home_ledger(home.pk)
    assert [(row.name, row.username) for row in rows] == [
        ("alice", "alice"),
        ("Aunt Carol", "carol"),
        ("bob", "bob"),
    ]


# ------------------------------------------------------------ reconciliation


def test_the_ledger_reconciles_with_the_chip_ledger_throughout_a_game(
    home: Table, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = balances()
    # Alice buys in short and loses it all to bob, then rebuys.
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(BOB_WINS))
    sit(home, bob, 2, 200)
    reconciles(home, before)
    bust(home, alice, buy_in=60)
    reconciles(home, before)
    monkeypatch.undo()
    services.seat_rebuy(table_id=home.pk, player_id=alice.pk, amount=150)
    # Carol joins with an auto-rebuy; bob tops up.
    sit(home, carol, 4, 100)
    services.seat_auto_rebuy_set(table_id=home.pk, player_id=carol.pk, amount=150)
    services.seat_top_up(table_id=home.pk, player_id=bob.pk, amount=40)
    reconciles(home, before)
    # Three-handed hands, checked mid-hand at every move of one of them.
    play_out(services.hand_start(table_id=home.pk), bet_and_call)
    reconciles(home, before)
    hand = services.hand_start(table_id=home.pk)
    while not engine(hand).finished:
        reconciles(home, before)
        act(hand, 1)
    reconciles(home, before)
    # Bob leaves during a hand (at its end), and the table closes during the next.
    hand = services.hand_start(table_id=home.pk)
    act(hand, 2)
    services.seat_leave(table_id=home.pk, player_id=bob.pk)
    reconciles(home, before)
    play_out(hand, bet_and_call)
    assert not row_of(home, bob).seated
    reconciles(home, before)
    hand = services.hand_start(table_id=home.pk)
    act(hand, 2)
    services.table_close(table_id=home.pk)
    reconciles(home, before)
    play_out(hand, raise_everything)
    # Closed and every seat cashed out: each net is just the balance's change.
    rows = reconciles(home, before)
    now = balances()
    assert {row.player_id: row.net for row in rows} == {
        player.pk: now[player.pk] - before[player.pk] for player in (alice, bob, carol)
    }
    assert all(not row.seated and row.on_table == 0 for row in rows)
    assert any(row.net for row in rows)
    assert squares(rows, settle_up(rows))


def test_settle_up_squares_every_net_and_leaves_out_who_broke_even(
    home: Table, alice: User, bob: User, carol: User, bob_wins: None
) -> None:
    sit(home, bob, 2, 200)
    sit(home, carol, 4, 100)  # sits, plays no hand, leaves even
    services.seat_sit_out(table_id=home.pk, player_id=carol.pk)
    bust(home, alice, buy_in=80)
    rows = home_ledger(home.pk)
    assert [row.net for row in rows] == [-80, 80, 0]
    assert settle_up(rows) == [Payment(alice.pk, "alice", bob.pk, "bob", 80)]


def test_with_rake_the_house_is_owed_what_the_nets_are_short(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    before = balances()
    for number, player in enumerate((alice, bob, carol), start=1):
        sit(table, player, number, 200)
    play_out(services.hand_start(table_id=table.pk), bet_and_call)
    rows = reconciles(table, before)
    rake = table_rake(table.pk)
    assert rake == 3 and sum(row.net for row in rows) == -3
    with pytest.raises(ValueError, match="sum to -3"):
        settle_up(rows)
    payments = settle_up(rows, rake=3)
    assert [p.payee for p in payments if p.payee_id is None] == [HOUSE]
    assert squares(rows, payments, rake=3)


# -------------------------------------------------------------------- queries


@pytest.mark.parametrize("players", [2, 4, 7])
def test_it_reads_in_a_fixed_number_of_queries(
    home: Table,
    alice: User,
    bob: User,
    players: int,
    django_assert_max_num_queries: Any,
) -> None:
    others = [user_signup(username=f"player{n}", password="pw-1234-pw") for n in range(3, 8)]
    for number, player in enumerate([alice, bob, *others][:players], start=1):
        sit(home, player, number, 100)
        services.seat_top_up(table_id=home.pk, player_id=player.pk, amount=10)
    services.seat_leave(table_id=home.pk, player_id=bob.pk)
    sit(home, bob, 8, 100)
    act(services.hand_start(table_id=home.pk), 2)  # a hand running, chips in its pot
    with django_assert_max_num_queries(5):  # three reads, in a savepoint: its two statements
        assert len(home_ledger(home.pk)) == players
    with CaptureQueriesContext(connection) as reads:
        home_ledger(home.pk)
    assert sum(not q["sql"].startswith(("SAVEPOINT", "RELEASE")) for q in reads) == 3
