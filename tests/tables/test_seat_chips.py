"""Chips at the seat: top-ups, rebuys and auto-rebuys, and every refusal.

Personas: alice (seat 1) and bob (seat 2) sit with 200 chips each at stakes
whose buy-in is 50 to 500; carol sits down later, or not at all. Each chip a
test moves must come out of its player's balance: balance plus stack is
unchanged by any top-up.
"""

from __future__ import annotations

import pytest

from accounts.models import ChipTransfer, User
from accounts.services import ledger_post
from tables import services
from tables.models import Hand, RakeEntry, Seat, Table
from tables.rules import HandState
from tables.services import ServiceError
from tables.services import hands as hand_services
from tests.rules.stacking import stack_deck
from tests.tables.conftest import play_out

pytestmark = pytest.mark.django_db

# Heads-up, alice in seat 1 deals the first hand, so bob is engine player 0 and
# alice 1. Bob's aces full by 5th street beat anything alice's mixed, unpaired
# cards can make, so alice loses every chip she puts in.
BOB_WINS = stack_deck(
    {0: "AcAdAh", 1: "3d4h2c"},
    {0: "Kc", 1: "7s"},
    {0: "Kd", 1: "9h"},
    {0: "Qs", 1: "Jd"},
    {0: "5c", 1: "8c"},
)


@pytest.fixture
def bob_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand_services, "shuffled_deck", lambda: list(BOB_WINS))


def raise_everything(state: HandState) -> tuple[str, int | None]:
    """The biggest move allowed every time: both players put in all they can."""
    options = {option.kind: option for option in state.legal_actions()}
    for kind in ("raise", "complete", "bet"):
        if kind in options:
            return kind, options[kind].max
    for kind in ("call", "check", "bring_in"):
        if kind in options:
            return kind, None
    raise AssertionError(f"no move among {list(options)}")


def balance(user: User) -> int:
    return User.objects.values_list("balance", flat=True).get(pk=user.pk)


def stack(table: Table, user: User) -> int:
    return Seat.objects.values_list("stack", flat=True).get(table=table, player=user)


def chips_of(table: Table, user: User) -> int:
    """The player's balance plus the stack in front of them."""
    return balance(user) + stack(table, user)


def drain(user: User, keep: int) -> None:
    """Leave ``keep`` chips in the player's balance (as an operator's adjustment would)."""
    ledger_post(user_id=user.pk, kind=ChipTransfer.Kind.ADJUSTMENT, amount=keep - balance(user))


def bust(table: Table, loser: User, buy_in: int = 50) -> Hand:
    """Seat ``loser`` (alice) in seat 1 for ``buy_in`` against bob and lose it all to him."""
    services.seat_take(table_id=table.pk, player_id=loser.pk, seat_number=1, buy_in=buy_in)
    hand = play_out(services.hand_start(table_id=table.pk), raise_everything)
    assert stack(table, loser) == 0
    return hand


def refused(match: str, call, *args, **kwargs) -> None:
    """``call`` raises a ServiceError matching ``match``; no balance or stack changed."""
    before = (
        list(User.objects.order_by("pk").values_list("balance", flat=True)),
        list(Seat.objects.order_by("pk").values_list("stack", "auto_rebuy_to")),
        ChipTransfer.objects.count(),
    )
    with pytest.raises(ServiceError, match=match) as error:
        call(*args, **kwargs)
    assert "#" not in str(error.value)  # worded for the player, with no internal ids
    after = (
        list(User.objects.order_by("pk").values_list("balance", flat=True)),
        list(Seat.objects.order_by("pk").values_list("stack", "auto_rebuy_to")),
        ChipTransfer.objects.count(),
    )
    assert after == before


# ------------------------------------------------------------------- top-up


def test_a_top_up_between_hands_moves_chips_from_the_balance(seated: Table, alice: User) -> None:
    total = chips_of(seated, alice)
    seat = services.seat_top_up(table_id=seated.pk, player_id=alice.pk, amount=150)
    assert seat.stack == stack(seated, alice) == 350
    assert chips_of(seated, alice) == total
    transfer = ChipTransfer.objects.filter(user=alice).first()
    assert (transfer.kind, transfer.amount, transfer.table_id) == ("top_up", -150, seated.pk)
    assert transfer.note == "seat 1, top-up"


def test_a_top_up_may_reach_the_maximum_exactly(seated: Table, alice: User) -> None:
    services.seat_top_up(table_id=seated.pk, player_id=alice.pk, amount=300)
    assert stack(seated, alice) == 500 == seated.stakes.max_buy_in


def test_a_top_up_between_two_hands_is_allowed(seated: Table, alice: User) -> None:
    hand = play_out(services.hand_start(table_id=seated.pk), raise_everything)
    assert hand.is_finished
    before = stack(seated, alice)
    services.seat_top_up(table_id=seated.pk, player_id=alice.pk, amount=10)
    assert stack(seated, alice) == before + 10


def test_a_top_up_during_a_hand_you_are_in_is_refused(seated: Table, alice: User) -> None:
    services.hand_start(table_id=seated.pk)
    refused(
        "you can top up only between hands, not during a hand you are in",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=10,
    )


def test_a_top_up_during_a_hand_you_are_not_in_is_allowed(seated: Table, carol: User) -> None:
    services.hand_start(table_id=seated.pk)
    services.seat_take(table_id=seated.pk, player_id=carol.pk, seat_number=4, buy_in=100)
    services.seat_top_up(table_id=seated.pk, player_id=carol.pk, amount=100)
    assert stack(seated, carol) == 200


def test_a_top_up_above_the_maximum_is_refused_saying_the_most(seated: Table, alice: User) -> None:
    refused(
        "you can add at most 300 chips: the table's maximum is 500 and you have 200",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=301,
    )


def test_a_top_up_at_the_maximum_is_refused_saying_so(seated: Table, alice: User) -> None:
    services.seat_top_up(table_id=seated.pk, player_id=alice.pk, amount=300)
    refused(
        "your 500 chips are already the table's maximum of 500",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=1,
    )


@pytest.mark.parametrize("amount", [0, -5, "10", 2.5, True, None])
def test_a_top_up_of_less_than_a_chip_or_not_a_number_is_refused(
    seated: Table, alice: User, amount: object
) -> None:
    refused(
        "a top-up must be a whole number of chips, at least 1",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=amount,
    )


def test_a_top_up_without_a_seat_is_refused(seated: Table, carol: User) -> None:
    refused(
        "you have no seat at Table 1",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=carol.pk,
        amount=10,
    )


def test_a_top_up_beyond_the_balance_is_refused(seated: Table, alice: User) -> None:
    drain(alice, keep=30)
    refused(
        "you have 30 chips in your balance, fewer than the 50 asked for",
        services.seat_top_up,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=50,
    )


def test_a_top_up_of_an_empty_stack_is_refused_as_a_rebuy(
    table: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    bust(table, alice)
    refused(
        "you have no chips left to top up: rebuy for 50 to 500 instead",
        services.seat_top_up,
        table_id=table.pk,
        player_id=alice.pk,
        amount=50,
    )


# -------------------------------------------------------------------- rebuy


def test_a_busted_player_rebuys_from_the_balance(
    table: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    bust(table, alice)
    before = balance(alice)
    seat = services.seat_rebuy(table_id=table.pk, player_id=alice.pk, amount=120)
    assert seat.stack == stack(table, alice) == 120
    assert balance(alice) == before - 120
    assert ChipTransfer.objects.filter(user=alice).first().note == "seat 1, rebuy"
    # The next hand deals her in again.
    following = services.hand_start(table_id=table.pk)
    assert {entry["player"] for entry in following.seating["players"]} == {alice.pk, bob.pk}


def test_a_rebuy_with_a_stack_left_is_refused(seated: Table, alice: User) -> None:
    refused(
        "you still have 200 chips: a rebuy is for a stack of 0",
        services.seat_rebuy,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=100,
    )


def test_a_rebuy_during_a_hand_you_are_in_is_refused(seated: Table, alice: User, bob: User) -> None:
    services.hand_start(table_id=seated.pk)
    refused(
        "you can rebuy only between hands, not during a hand you are in",
        services.seat_rebuy,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=100,
    )


@pytest.mark.parametrize("amount", [49, 501, 0, "100"])
def test_a_rebuy_outside_the_buy_in_range_is_refused(
    table: Table, alice: User, bob: User, bob_wins: None, amount: object
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    bust(table, alice)
    refused(
        "a rebuy must be 50 to 500 chips, not",
        services.seat_rebuy,
        table_id=table.pk,
        player_id=alice.pk,
        amount=amount,
    )


def test_a_rebuy_beyond_the_balance_is_refused(
    table: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    bust(table, alice)
    drain(alice, keep=60)
    refused(
        "you have 60 chips in your balance, fewer than the 100 asked for",
        services.seat_rebuy,
        table_id=table.pk,
        player_id=alice.pk,
        amount=100,
    )


def test_a_rebuy_without_a_seat_is_refused(seated: Table, carol: User) -> None:
    refused(
        "you have no seat at Table 1",
        services.seat_rebuy,
        table_id=seated.pk,
        player_id=carol.pk,
        amount=100,
    )


# --------------------------------------------------------------- auto-rebuy


def test_auto_rebuy_tops_up_after_a_losing_hand(
    seated: Table, alice: User, bob: User, bob_wins: None, grant: int
) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=200)
    hand = play_out(services.hand_start(table_id=seated.pk), raise_everything)
    lost = -hand.results.get(player=alice).net
    assert lost > 0
    assert stack(seated, alice) == 200
    assert balance(alice) == grant - 200 - lost
    transfer = ChipTransfer.objects.filter(user=alice).first()
    assert (transfer.kind, transfer.amount, transfer.note) == (
        "top_up",
        -lost,
        "seat 1, auto-rebuy",
    )
    # Every chip is somewhere: the balances, the stacks, or the rake.
    rake = RakeEntry.objects.get(hand=hand).amount
    everyone = chips_of(seated, alice) + chips_of(seated, bob) + rake
    assert everyone == 2 * grant


def test_auto_rebuy_leaves_a_winner_above_the_amount_alone(
    seated: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=bob.pk, amount=200)
    play_out(services.hand_start(table_id=seated.pk), raise_everything)
    assert stack(seated, bob) > 200
    assert not ChipTransfer.objects.filter(user=bob, kind="top_up").exists()


def test_auto_rebuy_buys_a_busted_player_back_in(
    table: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=50)
    services.seat_auto_rebuy_set(table_id=table.pk, player_id=alice.pk, amount=100)
    play_out(services.hand_start(table_id=table.pk), raise_everything)
    assert stack(table, alice) == 100


def test_auto_rebuy_takes_what_the_balance_allows_and_keeps_the_setting(
    seated: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=200)
    drain(alice, keep=25)
    play_out(services.hand_start(table_id=seated.pk), raise_everything)
    assert balance(alice) == 0
    assert stack(seated, alice) < 200
    assert Seat.objects.get(player=alice).auto_rebuy_to == 200


def test_auto_rebuy_skips_a_busted_seat_the_balance_cannot_buy_in(
    table: Table, alice: User, bob: User, bob_wins: None
) -> None:
    services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=50)
    services.seat_auto_rebuy_set(table_id=table.pk, player_id=alice.pk, amount=100)
    drain(alice, keep=40)  # below the minimum buy-in of 50
    play_out(services.hand_start(table_id=table.pk), raise_everything)
    assert (stack(table, alice), balance(alice)) == (0, 40)
    assert Seat.objects.get(player=alice).auto_rebuy_to == 100


def test_setting_auto_rebuy_between_hands_tops_up_at_once(seated: Table, alice: User) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=300)
    assert stack(seated, alice) == 300


def test_setting_auto_rebuy_during_your_hand_waits_for_it_to_end(
    seated: Table, alice: User
) -> None:
    services.hand_start(table_id=seated.pk)
    before = stack(seated, alice)
    seat = services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=300)
    assert seat.auto_rebuy_to == 300 and stack(seated, alice) == before


def test_auto_rebuy_can_be_turned_off(seated: Table, alice: User, bob_wins: None) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=200)
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=None)
    play_out(services.hand_start(table_id=seated.pk), raise_everything)
    assert stack(seated, alice) < 200
    assert Seat.objects.get(player=alice).auto_rebuy_to is None


@pytest.mark.parametrize("amount", [49, 501, 0, "200"])
def test_auto_rebuy_outside_the_buy_in_range_is_refused(
    seated: Table, alice: User, amount: object
) -> None:
    refused(
        "auto-rebuy must be to 50 to 500 chips",
        services.seat_auto_rebuy_set,
        table_id=seated.pk,
        player_id=alice.pk,
        amount=amount,
    )


def test_auto_rebuy_without_a_seat_is_refused(seated: Table, carol: User) -> None:
    refused(
        "you have no seat at Table 1",
        services.seat_auto_rebuy_set,
        table_id=seated.pk,
        player_id=carol.pk,
        amount=100,
    )


def test_a_player_leaving_after_the_hand_is_not_auto_rebought(
    seated: Table, alice: User, bob_wins: None, grant: int
) -> None:
    services.seat_auto_rebuy_set(table_id=seated.pk, player_id=alice.pk, amount=200)
    hand = services.hand_start(table_id=seated.pk)
    services.seat_leave(table_id=seated.pk, player_id=alice.pk)
    hand = play_out(hand, raise_everything)
    assert not Seat.objects.filter(player=alice).exists()
    assert balance(alice) == grant + hand.results.get(player=alice).net
