"""The all-in timeout policy through the services (seed 002's disconnect protection).

A player whose time runs out after putting chips in beyond the ante is all in
for the pot so far; anyone else checks or folds, and a bring-in is posted. The
decks are shuffled, so every assertion here holds whatever the cards.

Personas: alice, bob and carol sit with 200 chips each; whoever brings in is
the one whose time runs out. Nobody here sees anything the views don't allow;
what each seat may see is the rules engine's business (tests/rules).
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from accounts.models import User
from tables import services
from tables.models import Hand, HandResult, Move, Seat, Stakes, Table
from tables.rules import HandState
from tables.services.clock import timeout_due
from tests.tables.conftest import bet_and_call, engine, play_out, player_to_act

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
TIMED_OUT = timedelta(seconds=10 + 20)  # the stakes' default action time and countdown
BUY_IN = 200


@pytest.fixture
def all_in_policy(stakes: Stakes) -> Stakes:
    """The protection policy, and no rake, so pots are paid out whole."""
    stakes.timeout_policy = Stakes.TimeoutPolicy.ALL_IN
    stakes.rake = None
    stakes.save(update_fields=["timeout_policy", "rake"])
    return stakes


def sit(table: Table, *players: User) -> None:
    for number, player in enumerate(players, start=1):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=BUY_IN
        )


def act(hand: Hand, kind: str, amount: int | None = None, at: datetime = T0) -> Hand:
    hand.refresh_from_db()
    return services.hand_act(
        hand_id=hand.pk,
        player_id=player_to_act(hand),
        kind=kind,
        amount=amount,
        version=hand.version,
        now=at,
    )


def time_out(hand: Hand) -> Hand:
    """The turn's timeout task, run once the turn has expired."""
    hand.refresh_from_db()
    expires = hand.turn_expires_at
    due = timeout_due(expires) if expires is not None else T0 + TIMED_OUT
    done = services.hand_timeout(hand_id=hand.pk, turn=hand.version, now=due)
    assert done is not None, "the timeout did nothing"
    return done


def last_move(hand: Hand) -> Move:
    return hand.moves()[-1]


def audit() -> str:
    out = io.StringIO()
    call_command("audit_chips", stdout=out)
    return out.getvalue()


def to_bring_in_facing_a_completion(table: Table) -> tuple[Hand, int]:
    """Three-handed: the bring-in is posted, completed and called; the bring-in
    player (3 chips in: ante and bring-in) is to act. Returns (hand, their id)."""
    hand = services.hand_start(table_id=table.pk, now=T0)
    bringer = player_to_act(hand)
    act(hand, "bring_in")
    act(hand, "complete", 5)
    act(hand, "call")
    assert player_to_act(hand) == bringer
    return hand, bringer


# ------------------------------------------------------------------ who is protected


def test_a_player_with_chips_in_beyond_the_ante_is_protected(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    hand = time_out(hand)
    move = last_move(hand)
    assert (move.player_id, move.kind, move.amount, move.timed_out) == (
        bringer,
        "protect",
        None,
        True,
    )
    state = engine(hand)
    index = state.to_dict()["protected"].index(True)
    assert hand.seating["players"][index]["player"] == bringer
    assert (state.committed[index], state.stacks[index]) == (3, BUY_IN - 3)
    assert Seat.objects.get(table=table, player=bringer).stack == BUY_IN - 3


def test_a_bring_in_that_times_out_is_posted_not_protected(
    all_in_policy: Stakes, table: Table, alice: User, bob: User
) -> None:
    sit(table, alice, bob)
    hand = time_out(services.hand_start(table_id=table.pk, now=T0))
    move = last_move(hand)
    assert (move.kind, move.timed_out) == ("bring_in", True)
    posted = next(event for event in hand.state["events"] if event["type"] == "bring_in")
    assert posted["total"] == 2  # the stakes' bring-in


def test_a_player_with_only_the_ante_in_folds(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand = act(services.hand_start(table_id=table.pk, now=T0), "bring_in")
    waiting = player_to_act(hand)
    hand = time_out(hand)
    move = last_move(hand)
    assert (move.player_id, move.kind, move.timed_out) == (waiting, "fold", True)


def test_a_qualifying_player_is_protected_even_when_checking_is_free(
    all_in_policy: Stakes, table: Table, alice: User, bob: User
) -> None:
    """Heads-up: the bring-in is called, so both have 3 chips in on 4th street,
    where checking is free. The first to act times out and is protected; the
    other has nobody left to bet against, so the cards run out to a showdown."""
    sit(table, alice, bob)
    hand = act(act(services.hand_start(table_id=table.pk, now=T0), "bring_in"), "call")
    state = engine(hand)
    assert state.street == 1 and "check" in {a.kind for a in state.legal_actions()}
    waiting = player_to_act(hand)
    hand = time_out(hand)
    assert (last_move(hand).player_id, last_move(hand).kind) == (waiting, "protect")
    assert hand.is_finished
    results = {r.player_id: r for r in HandResult.objects.filter(hand=hand)}
    assert results[waiting].final_stack in (BUY_IN - 3, BUY_IN, BUY_IN + 3)  # lost, split, won
    assert sum(r.final_stack for r in results.values()) == 2 * BUY_IN


def test_the_check_fold_policy_never_protects(
    stakes: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    assert stakes.timeout_policy == Stakes.TimeoutPolicy.CHECK_FOLD
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    hand = time_out(hand)
    assert (last_move(hand).player_id, last_move(hand).kind) == (bringer, "fold")


# -------------------------------------------------------------- what protection does


def test_the_protected_player_plays_only_for_the_main_pot_and_is_never_asked_again(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    hand = time_out(hand)
    protected_at = last_move(hand).number
    hand = play_out(hand, bet_and_call)  # the other two bet every street into a side pot
    assert [m for m in hand.moves() if m.number > protected_at and m.player_id == bringer] == []
    state = engine(hand)
    index = state.protected.index(True)
    main, *sides = state.result["pots"]
    assert main["amount"] == 9 and index in main["eligible"]  # 3 chips from each
    assert sides and all(index not in pot["eligible"] for pot in sides)
    won = state.result["payouts"][index]
    assert won <= 9
    result = HandResult.objects.get(hand=hand, player_id=bringer)
    assert result.final_stack == BUY_IN - 3 + won  # the chips behind were never at risk
    assert Seat.objects.get(table=table, player=bringer).stack == result.final_stack
    assert "Every chip is accounted for." in audit()


def test_a_protection_counts_as_a_timeout(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    time_out(hand)
    seat = Seat.objects.get(table=table, player=bringer)
    assert (seat.timeouts_in_a_row, seat.state) == (1, Seat.State.PLAYING)


def test_the_turn_clock_moves_on_to_the_next_player(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    before = hand.version
    hand = time_out(hand)
    assert hand.version == before + 1
    assert player_to_act(hand) != bringer
    assert hand.turn_expires_at is not None and hand.turn_expires_at > hand.turn_deadline


def test_everyone_sees_the_protected_player_all_in_with_their_stack(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, bringer = to_bring_in_facing_a_completion(table)
    hand = time_out(hand)
    index = next(i for i, e in enumerate(hand.seating["players"]) if e["player"] == bringer)
    for viewer in (None, alice.pk, bob.pk, carol.pk):
        seen = services.hand_view(hand_id=hand.pk, player_id=viewer)
        seat = seen["players"][index]
        assert (seat["all_in"], seat["protected"], seat["stack"]) == (True, True, BUY_IN - 3)
        assert "protect" not in [option["kind"] for option in seen["legal_actions"]]
    to_act = services.hand_view(hand_id=hand.pk, player_id=player_to_act(hand))
    assert to_act["legal_actions"]  # the next player is offered their moves, protect never


def test_a_player_cannot_send_a_protection_themselves(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, _ = to_bring_in_facing_a_completion(table)
    with pytest.raises(services.IllegalMove, match="only a timeout protects"):
        act(hand, "protect")
    hand.refresh_from_db()
    assert "protect" not in [move.kind for move in hand.moves()]


def test_the_stored_hand_replays_with_the_protection_and_lists_it_among_its_moves(
    all_in_policy: Stakes, table: Table, alice: User, bob: User, carol: User
) -> None:
    sit(table, alice, bob, carol)
    hand, _ = to_bring_in_facing_a_completion(table)
    hand = play_out(time_out(hand), bet_and_call)
    assert HandState.replay(hand.state).to_dict() == hand.state
    moves = [a["kind"] for a in hand.state["actions"]]
    assert [move.kind for move in hand.moves()] == moves
    assert moves.count("protect") == 1
