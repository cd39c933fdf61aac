"""Pot and no limit at a table: any whole number from the least to the most a
wager may be is taken, recorded as it was made, and told in the hand history.

Heads-up with alice in seat 1 and bob in seat 2, 5,000 chips each, dealt
MUCK_DECK: bob (engine player 0) is dealt three aces and makes aces full;
alice (engine player 1) brings in with the 2♣ and mucks at the showdown. Each
sees the other's down cards only if shown.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tables import services
from tables.models import Hand, HandResult, Seat, Stakes, Table
from tables.rules import HandState
from tables.rules.state import LegalAction
from tests.tables.conftest import engine, player_to_act
from tests.tables.test_history_access import MUCK_DECK, deal_next, detail_url, page
from tests.tables.test_history_replay import story
from tests.tables.test_services import chips_paid

pytestmark = pytest.mark.django_db

STACK = 5_000

# Who moves, and how, street by street: the wagers are sizes no fixed limit has.
POT_LIMIT_HAND = [
    ("alice", "bring_in", None),
    ("bob", "complete", 50),
    ("alice", "call", None),
    ("bob", "bet", 120),  # the pot
    ("alice", "raise", 400),
    ("bob", "call", None),
    ("bob", "bet", 625),
    ("alice", "raise", 1_250),  # the least raise: 625 more
    ("bob", "call", None),
    ("bob", "check", None),
    ("alice", "check", None),
    ("bob", "bet", 3_290),  # all in, within the pot of 3,420
    ("alice", "call", None),
]


def big_bet_table(structure: str) -> Table:
    stakes = Stakes.objects.create(
        name=f"Stud {structure} 25/50",
        variant="stud",
        structure=structure,
        ante=10,
        bring_in=25,
        small_bet=50,  # the least bet
        big_bet=100,  # not used
        min_buy_in=500,
        max_buy_in=STACK,
    )
    return Table.objects.create(name=f"Table {structure}", stakes=stakes)  # and no rake


@pytest.fixture
def pot_limit(alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> Hand:
    """A pot-limit hand dealt to alice and bob, nobody has moved yet."""
    return deal(big_bet_table("pot"), alice, bob, monkeypatch)


def deal(table: Table, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> Hand:
    for number, player in ((1, alice), (2, bob)):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=STACK)
    deal_next(monkeypatch, MUCK_DECK)
    return services.hand_start(table_id=table.pk)


def move(hand: Hand, user: User, kind: str, amount: int | None) -> Hand:
    assert player_to_act(hand) == user.pk
    return services.hand_act(
        hand_id=hand.pk, player_id=user.pk, kind=kind, amount=amount, version=hand.version
    )


def play(hand: Hand, moves: list[tuple[str, str, int | None]], users: dict[str, User]) -> Hand:
    for name, kind, amount in moves:
        hand = move(hand, users[name], kind, amount)
    return hand


def option(state: HandState, kind: str) -> LegalAction:
    return next(o for o in state.legal_actions() if o.kind == kind)


def test_a_wager_is_any_number_from_its_least_to_its_most(pot_limit, alice, bob):
    hand = move(pot_limit, alice, "bring_in", None)
    complete = option(engine(hand), "complete")
    # Antes 20, the bring-in 25 and bob's call of it: a pot of 70 on 25.
    assert (complete.min, complete.max, complete.amounts) == (50, 95, None)
    hand = move(hand, bob, "complete", 73)
    assert engine(hand).bets == [73, 25]


@pytest.mark.parametrize("amount", [49, 96, "60", 60.0])
def test_a_wager_outside_its_bounds_is_refused_and_changes_nothing(pot_limit, alice, bob, amount):
    hand = move(pot_limit, alice, "bring_in", None)
    before = Hand.objects.get(pk=hand.pk).state
    with pytest.raises(services.IllegalMove, match="can't complete to"):
        move(hand, bob, "complete", amount)
    assert Hand.objects.get(pk=hand.pk).state == before
    assert len(Hand.objects.get(pk=hand.pk).moves()) == 1


def test_each_move_is_recorded_with_its_amount(pot_limit, alice, bob):
    hand = play(pot_limit, POT_LIMIT_HAND, {"alice": alice, "bob": bob})
    names = dict(zip(hand.player_ids(), hand.player_names(), strict=True))
    paid = chips_paid(hand)
    # A wager's street total, as the move named it; the chips a call or bring-in put in.
    assert [(names[m.player_id], m.kind, paid.get(m.number, m.amount)) for m in hand.moves()] == [
        ("alice", "bring_in", 25),
        ("bob", "complete", 50),
        ("alice", "call", 25),
        ("bob", "bet", 120),
        ("alice", "raise", 400),
        ("bob", "call", 280),
        ("bob", "bet", 625),
        ("alice", "raise", 1_250),
        ("bob", "call", 625),
        ("bob", "check", None),
        ("alice", "check", None),
        ("bob", "bet", 3_290),
        ("alice", "call", 3_290),
    ]
    assert hand.is_finished
    nets = dict(HandResult.objects.filter(hand=hand).values_list("player__username", "net"))
    assert nets == {"alice": -STACK, "bob": STACK}  # these stakes take no rake


def test_the_hand_history_tells_each_wager_with_its_size(pot_limit, alice, bob):
    hand = play(pot_limit, POT_LIMIT_HAND, {"alice": alice, "bob": bob})
    told = story(page(Client(), bob, detail_url(hand)).content.decode())
    assert told[told.index("3rd street · pot 20") :][3:6] == [
        "alice brings in 25",
        "bob completes to 50",
        "alice calls 25",
    ]
    assert told[told.index("4th street · pot 120") :][3:6] == [
        "bob bets 120",
        "alice raises to 400",
        "bob calls 280",
    ]
    assert told[told.index("5th street · pot 920") :][3:6] == [
        "bob bets 625",
        "alice raises to 1,250",
        "bob calls 625",
    ]
    assert told[told.index("7th street · pot 3,420") :][3:5] == [
        "bob bets 3,290, all in",
        "alice calls 3,290, all in",
    ]
    assert "Showdown · pot 10,000" in told
    assert told[-1] == "Pot of 10,000: bob wins 10,000"


def test_no_limit_takes_the_whole_stack_in_one_bet(alice, bob, monkeypatch):
    hand = deal(big_bet_table("no"), alice, bob, monkeypatch)
    hand = move(hand, alice, "bring_in", None)
    complete = option(engine(hand), "complete")
    assert (complete.min, complete.max, complete.amounts) == (50, STACK - 10, None)
    hand = move(hand, bob, "complete", STACK - 10)
    hand = move(hand, alice, "call", None)
    assert hand.is_finished
    told = story(page(Client(), alice, detail_url(hand)).content.decode())
    assert "bob completes to 4,990, all in" in told
    assert "alice calls 4,965, all in" in told


def test_a_no_limit_move_bigger_than_a_32_bit_number_is_recorded(alice, bob, monkeypatch):
    # Stacks grow past any buy-in; at no limit one move may be all of one.
    table = big_bet_table("no")
    for number, player in ((1, alice), (2, bob)):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=STACK)
    huge = 3_000_000_000  # above 2,147,483,647
    Seat.objects.filter(table=table).update(stack=huge)
    deal_next(monkeypatch, MUCK_DECK)
    hand = services.hand_start(table_id=table.pk)
    hand = move(hand, alice, "bring_in", None)
    hand = move(hand, bob, "complete", huge - 10)
    hand = move(hand, alice, "call", None)
    assert hand.is_finished
    (recorded,) = [m for m in hand.moves() if m.kind == "complete"]
    assert recorded.amount == huge - 10
    assert sum(Seat.objects.filter(table=table).values_list("stack", flat=True)) == 2 * huge
