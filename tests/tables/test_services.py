"""The table services: seats and the ledger, hands from start to finish, refusals."""

from __future__ import annotations

import doctest
import hashlib
import re

import pytest

from accounts.models import ChipTransfer, User
from accounts.services import ledger_post, user_signup
from tables import services
from tables.models import Hand, HandResult, RakeEntry, Seat, Stakes, Table
from tables.rules import HandState, IllegalAction
from tables.rules.cards import FULL_DECK, card_str
from tables.services import IllegalMove, ServiceError, StaleMove
from tables.services.clock import timeout_due
from tests.tables.conftest import bet_and_call, engine, play_out, player_to_act

pytestmark = pytest.mark.django_db

BUY_IN = 200


@pytest.fixture
def seated(table: Table, alice: User, bob: User, carol: User) -> list[User]:
    """alice in seat 1, bob in seat 2, carol in seat 4, each with 200 chips."""
    for player, number in ((alice, 1), (bob, 2), (carol, 4)):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)
    return [alice, bob, carol]


def fold_fast(state: HandState) -> tuple[str, int | None]:
    """Bring in, then everyone folds to it: the quickest way through a hand."""
    kinds = [option.kind for option in state.legal_actions()]
    for kind in ("fold", "bring_in", "check"):
        if kind in kinds:
            return kind, None
    raise AssertionError(f"no quick move among {kinds}")


def balance(user: User) -> int:
    return User.objects.values_list("balance", flat=True).get(pk=user.pk)


def stacks(table: Table) -> dict[int, int]:
    return dict(Seat.objects.filter(table=table).values_list("player_id", "stack"))


def chips_paid(hand: Hand) -> dict[int, int]:
    """The chips each call and bring-in of the hand put in, by move number.

    A move names no chips for these (a wager names its street total), so this
    replays the hand from its deal and reads what the engine asked of each.
    """
    final = engine(hand)
    state = HandState.new(final.config, final.starting_stacks, final.deck)
    paid = {}
    for number, action in enumerate(final.actions, start=1):
        if action["kind"] in ("call", "bring_in"):
            paid[number] = next(o.min for o in state.legal_actions() if o.kind == action["kind"])
        state.apply(action)
    return paid


# ------------------------------------------------------------- a whole hand


def test_a_whole_hand_runs_through_the_services(table, seated, grant):
    hand = services.hand_start(table_id=table.pk)
    moves, recorded = 0, []
    while not engine(hand).finished:
        state = engine(hand)
        kind, amount = bet_and_call(state)
        paid = {o.kind: o.min for o in state.legal_actions() if o.kind in ("call", "bring_in")}
        recorded.append((kind, amount if amount is not None else paid.get(kind)))
        actor = player_to_act(hand)
        hand = services.hand_act(
            hand_id=hand.pk, player_id=actor, kind=kind, amount=amount, version=moves
        )
        moves += 1
        assert hand.version == moves
        state = engine(hand)
        players = [entry["player"] for entry in hand.seating["players"]]
        by_player = dict(zip(players, state.stacks, strict=True))
        assert stacks(table) == by_player  # seats hold exactly the chips behind
        if not state.finished:
            assert sum(state.stacks) + sum(state.committed) == 3 * BUY_IN
            assert [balance(p) for p in seated] == [grant - BUY_IN] * 3

    made, chips = hand.moves(), chips_paid(hand)
    assert [m.number for m in made] == list(range(1, moves + 1))
    assert [(m.kind, chips.get(m.number, m.amount)) for m in made] == recorded
    assert [m.kind for m in made] == [move["kind"] for move in state.actions]
    assert recorded[0] == ("complete", 5) and ("call", 5) in recorded
    assert hand.is_finished

    # Every street was opened and called by three players: far past the 3-chip cap.
    results = HandResult.objects.filter(hand=hand)
    assert RakeEntry.objects.get(hand=hand).amount == 3 == state.result["rake"]
    assert sum(r.net for r in results) == -3
    assert {r.player_id: r.final_stack for r in results} == stacks(table)
    assert all(r.starting_stack == BUY_IN for r in results)
    assert [balance(p) for p in seated] == [grant - BUY_IN] * 3

    finals = stacks(table)
    for player in seated:
        assert services.seat_leave(table_id=table.pk, player_id=player.pk) == finals[player.pk]
        assert balance(player) == grant - BUY_IN + finals[player.pk]
    assert not Seat.objects.filter(table=table).exists()


def test_hand_start_moves_the_antes_from_the_seats_to_the_pot(table, seated):
    hand = services.hand_start(table_id=table.pk)
    state = engine(hand)
    assert hand.number == 1 and hand.version == 0 and not hand.is_finished
    assert state.committed == [1, 1, 1]
    assert set(stacks(table).values()) == {BUY_IN - 1}


def test_hand_start_commits_to_the_whole_deck_with_a_fresh_salt(table, seated):
    hand = services.hand_start(table_id=table.pk)
    assert sorted(hand.deck) == list(FULL_DECK)
    assert hand.state["deck"] == hand.deck
    assert re.fullmatch(r"[0-9a-f]{64}", hand.deck_salt)
    cards = " ".join(card_str(c) for c in hand.deck)
    expected = hashlib.sha256(f"{hand.deck_salt}:{cards}".encode()).hexdigest()
    assert hand.deck_commitment == expected == services.deck_commitment(hand.deck_salt, hand.deck)
    play_out(hand, fold_fast)
    following = services.hand_start(table_id=table.pk)
    assert following.deck_salt != hand.deck_salt
    assert following.deck_commitment != hand.deck_commitment


def test_the_deck_commitment_docstring_example_holds():
    assert doctest.testmod(services).failed == 0
    assert services.deck_commitment("00", [50, 0]) == hashlib.sha256(b"00:Ah 2c").hexdigest()


def test_the_button_moves_to_the_next_dealt_in_seat_and_wraps(table, seated):
    alice, bob, carol = seated
    orders = []
    for number in (1, 2, 3, 4):
        hand = services.hand_start(table_id=table.pk)
        assert hand.number == number
        orders.append((hand.seating["dealer"], [e["seat"] for e in hand.seating["players"]]))
        play_out(hand, fold_fast)
    assert orders == [(1, [2, 4, 1]), (2, [4, 1, 2]), (4, [1, 2, 4]), (1, [2, 4, 1])]
    hand = Hand.objects.get(table=table, number=1)
    assert [e["player"] for e in hand.seating["players"]] == [bob.pk, carol.pk, alice.pk]


def test_the_button_skips_a_seat_that_emptied(table, seated):
    alice, bob, carol = seated
    play_out(services.hand_start(table_id=table.pk), fold_fast)  # alice (seat 1) deals
    services.seat_leave(table_id=table.pk, player_id=bob.pk)
    hand = services.hand_start(table_id=table.pk)
    assert hand.seating["dealer"] == 4
    assert [e["seat"] for e in hand.seating["players"]] == [1, 4]


def test_only_playing_seats_with_chips_are_dealt_in(table, seated):
    alice, bob, carol = seated
    Seat.objects.filter(player=bob).update(state=Seat.State.SITTING_OUT)
    hand = services.hand_start(table_id=table.pk)
    assert [e["player"] for e in hand.seating["players"]] == [carol.pk, alice.pk]
    assert stacks(table)[bob.pk] == BUY_IN  # no ante from a player sitting out


def test_a_hand_all_in_on_the_antes_ends_as_it_starts(alice, bob):
    # Buy-ins of one chip (allowed by this odd stakes) leave both all in on the ante,
    # so the engine deals the board out and settles the hand at creation.
    tiny = Stakes.objects.create(
        name="Tiny", ante=1, bring_in=2, small_bet=5, big_bet=10, min_buy_in=1, max_buy_in=1
    )
    table = Table.objects.create(name="Tiny table", stakes=tiny)
    for number, player in enumerate((alice, bob), start=1):
        services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=1)
    hand = services.hand_start(table_id=table.pk)
    assert hand.is_finished
    assert RakeEntry.objects.get(hand=hand).amount == 0  # written even when nothing is raked
    assert sum(stacks(table).values()) == 2
    assert sorted(HandResult.objects.filter(hand=hand).values_list("net", flat=True)) in (
        [-1, 1],
        [0, 0],
    )


# ------------------------------------------------------- buy-in and cash-out


def test_seat_take_moves_the_buy_in_from_the_balance_through_the_ledger(table, alice, grant):
    seat = services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=3, buy_in=300)
    assert (seat.number, seat.stack, seat.player_id) == (3, 300, alice.pk)
    transfer = ChipTransfer.objects.filter(user=alice).order_by("-id").first()
    assert (transfer.kind, transfer.amount, transfer.table_id) == ("buy_in", -300, table.pk)
    assert transfer.balance_after == grant - 300 == balance(alice)


def test_seat_leave_cashes_the_stack_out_through_the_ledger(table, alice, grant):
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=3, buy_in=300)
    assert services.seat_leave(table_id=table.pk, player_id=alice.pk) == 300
    transfer = ChipTransfer.objects.filter(user=alice).order_by("-id").first()
    assert (transfer.kind, transfer.amount, transfer.table_id) == ("cash_out", 300, table.pk)
    assert transfer.balance_after == grant == balance(alice)
    assert not Seat.objects.filter(table=table).exists()


def test_leaving_with_no_chips_writes_no_transfer(table, alice):
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=3, buy_in=300)
    Seat.objects.filter(player=alice).update(stack=0)  # as if she had lost it all
    transfers = ChipTransfer.objects.filter(user=alice).count()
    assert services.seat_leave(table_id=table.pk, player_id=alice.pk) == 0
    assert ChipTransfer.objects.filter(user=alice).count() == transfers
    assert not Seat.objects.filter(table=table).exists()


@pytest.mark.parametrize("buy_in", [49, 501, 0, -100, "100"])
def test_it_refuses_a_buy_in_out_of_range(table, alice, grant, buy_in):
    with pytest.raises(ServiceError, match=f"the buy-in must be 50 to 500 chips, not {buy_in!r}"):
        services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=buy_in)
    assert balance(alice) == grant and not Seat.objects.exists()


@pytest.mark.parametrize("number", [0, 9, -1])
def test_it_refuses_a_seat_number_off_the_table(table, alice, number):
    with pytest.raises(ServiceError, match=f"seat number must be 1 to 8, not {number}"):
        services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=number, buy_in=100)
    assert not Seat.objects.exists()


def test_it_refuses_a_taken_seat(table, alice, bob, grant):
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)
    with pytest.raises(ServiceError, match="seat 1 at Table 1 is taken"):
        services.seat_take(table_id=table.pk, player_id=bob.pk, seat_number=1, buy_in=100)
    assert balance(bob) == grant


def test_it_refuses_a_second_seat_for_one_player(table, alice, grant):
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)
    with pytest.raises(ServiceError, match="you already have a seat at Table 1"):
        services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=2, buy_in=100)
    assert balance(alice) == grant - 100 and Seat.objects.count() == 1


def test_it_refuses_a_buy_in_above_the_balance(table, alice, grant):
    ledger_post(user_id=alice.pk, kind="adjustment", amount=30 - grant, note="spent elsewhere")
    with pytest.raises(
        ServiceError, match="can't buy in for 50: alice has 30 chips, fewer than 50"
    ):
        services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=50)
    assert balance(alice) == 30 and not Seat.objects.exists()


def test_it_refuses_a_seat_at_a_closed_table(table, alice, grant):
    services.table_close(table_id=table.pk)
    with pytest.raises(ServiceError, match="Table 1 is closed"):
        services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)
    assert balance(alice) == grant
    services.table_open(table_id=table.pk)
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)


def test_it_refuses_an_unknown_table_or_player(table, alice):
    with pytest.raises(ServiceError, match="there is no table #0"):
        services.seat_take(table_id=0, player_id=alice.pk, seat_number=1, buy_in=100)
    with pytest.raises(ServiceError, match="there is no player #0"):
        services.seat_take(table_id=table.pk, player_id=0, seat_number=1, buy_in=100)


def test_leaving_during_a_hand_waits_for_its_end_even_after_folding(table, seated, grant):
    hand = services.hand_start(table_id=table.pk)
    alice = seated[0]
    assert services.seat_leave(table_id=table.pk, player_id=alice.pk) is None
    seat = Seat.objects.get(table=table, player=alice)
    assert seat.leaving and seat.stack == BUY_IN - 1  # the ante is in the pot
    me = [entry["player"] for entry in hand.seating["players"]].index(alice.pk)
    while not engine(hand).folded[me]:
        state, actor = engine(hand), player_to_act(hand)
        # alice never bets, so someone else does and she has a bet to fold to.
        kind, amount = fold_fast(state) if actor == alice.pk else bet_and_call(state)
        services.hand_act(
            hand_id=hand.pk, player_id=actor, kind=kind, amount=amount, version=hand.version
        )
    assert not engine(hand).finished
    # Asking again changes nothing: she still goes when the hand ends.
    assert services.seat_leave(table_id=table.pk, player_id=alice.pk) is None
    assert Seat.objects.filter(table=table, player=alice, leaving=True).exists()
    kept = Seat.objects.get(table=table, player=alice).stack
    play_out(hand, bet_and_call)
    hand.refresh_from_db()
    assert hand.is_finished
    assert not Seat.objects.filter(table=table, player=alice).exists()
    assert balance(alice) == grant - BUY_IN + kept
    # The others play on in their seats, and her result is written.
    assert Seat.objects.filter(table=table).count() == 2
    assert HandResult.objects.filter(hand=hand, player=alice).exists()


def test_a_player_who_stays_keeps_the_seat_after_the_hand(table, seated, grant):
    hand = services.hand_start(table_id=table.pk)
    bob = seated[1]
    services.seat_leave(table_id=table.pk, player_id=bob.pk)
    assert services.seat_stay(table_id=table.pk, player_id=bob.pk).leaving is False
    play_out(hand, bet_and_call)
    seat = Seat.objects.get(table=table, player=bob)
    assert not seat.leaving and balance(bob) == grant - BUY_IN


def test_a_hand_ended_by_the_clock_lets_the_leaver_go(table, seated, grant):
    hand = services.hand_start(table_id=table.pk)
    leaver = User.objects.get(pk=player_to_act(hand))
    services.seat_leave(table_id=table.pk, player_id=leaver.pk)
    while not hand.is_finished:  # every turn left to the clock: checks and folds
        due = timeout_due(hand.turn_expires_at)
        services.hand_timeout(hand_id=hand.pk, turn=hand.version, now=due)
        hand.refresh_from_db()
    assert not Seat.objects.filter(table=table, player=leaver).exists()
    final = {r.player_id: r.final_stack for r in HandResult.objects.filter(hand=hand)}
    assert balance(leaver) == grant - BUY_IN + final[leaver.pk]


def test_a_player_not_in_the_hand_may_leave_during_it(table, seated, alice, grant):
    dave = user_signup(username="dave", password="dave-pw-1234")
    services.hand_start(table_id=table.pk)
    services.seat_take(table_id=table.pk, player_id=dave.pk, seat_number=5, buy_in=100)
    assert services.seat_leave(table_id=table.pk, player_id=dave.pk) == 100
    assert balance(dave) == grant


def test_it_refuses_leaving_a_seat_not_held(table, alice):
    with pytest.raises(ServiceError, match="you have no seat at Table 1"):
        services.seat_leave(table_id=table.pk, player_id=alice.pk)


# ----------------------------------------------------------- starting hands


def test_it_refuses_to_start_a_hand_with_one_player(table, alice):
    services.seat_take(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=100)
    with pytest.raises(ServiceError, match="a hand needs two players with chips; Table 1 has 1"):
        services.hand_start(table_id=table.pk)
    assert not Hand.objects.exists()


def test_it_refuses_to_start_a_second_hand_while_one_runs(table, seated):
    services.hand_start(table_id=table.pk)
    with pytest.raises(ServiceError, match="hand #1 at Table 1 is still being played"):
        services.hand_start(table_id=table.pk)
    assert Hand.objects.count() == 1


def test_a_closed_table_plays_its_hand_out_but_starts_no_more(table, seated):
    hand = services.hand_start(table_id=table.pk)
    services.table_close(table_id=table.pk)
    hand = play_out(hand, bet_and_call)
    assert hand.is_finished and RakeEntry.objects.filter(hand=hand).exists()
    with pytest.raises(ServiceError, match="Table 1 is closed; no new hands start"):
        services.hand_start(table_id=table.pk)
    assert Hand.objects.count() == 1


# ---------------------------------------------------------- refused moves


def snapshot(hand: Hand) -> tuple:
    hand.refresh_from_db()
    return hand.version, hand.state, len(hand.moves()), stacks(hand.table)


def test_a_stale_version_is_refused_and_nothing_applied(table, seated):
    hand = services.hand_start(table_id=table.pk)
    before = snapshot(hand)
    for version in (1, -1, "0", None):
        with pytest.raises(StaleMove, match=f"hand #1 is at version 0, not {version!r}"):
            services.hand_act(
                hand_id=hand.pk, player_id=player_to_act(hand), kind="bring_in", version=version
            )
    assert snapshot(hand) == before


def test_a_repeated_move_is_applied_once(table, seated):
    hand = services.hand_start(table_id=table.pk)
    actor = player_to_act(hand)
    services.hand_act(hand_id=hand.pk, player_id=actor, kind="bring_in", version=0)
    after_first = snapshot(hand)
    with pytest.raises(StaleMove, match="hand #1 is at version 1, not 0"):
        services.hand_act(hand_id=hand.pk, player_id=actor, kind="bring_in", version=0)
    assert snapshot(hand) == after_first
    (move,) = hand.moves()
    paid = chips_paid(hand)[move.number]
    assert (move.number, move.player_id, move.kind, paid) == (1, actor, "bring_in", 2)


def test_a_move_after_the_hand_ended_is_stale(table, seated):
    hand = play_out(services.hand_start(table_id=table.pk), fold_fast)
    before = snapshot(hand)
    with pytest.raises(StaleMove, match="hand #1 is over"):
        services.hand_act(
            hand_id=hand.pk, player_id=seated[0].pk, kind="check", version=hand.version
        )
    assert snapshot(hand) == before


def test_a_move_by_the_wrong_player_is_refused_with_the_engines_message(table, seated):
    hand = services.hand_start(table_id=table.pk)
    state = engine(hand)
    wrong = (state.to_act + 1) % 3
    with pytest.raises(IllegalAction) as refused_by_engine:
        state.act(wrong, "bring_in")
    before = snapshot(hand)
    with pytest.raises(IllegalMove) as refused:
        services.hand_act(
            hand_id=hand.pk,
            player_id=hand.seating["players"][wrong]["player"],
            kind="bring_in",
            version=0,
        )
    assert str(refused.value) == str(refused_by_engine.value)
    assert "turn to act" in str(refused.value)
    assert snapshot(hand) == before


def test_an_illegal_move_is_refused_with_the_engines_message(table, seated):
    hand = services.hand_start(table_id=table.pk)
    before = snapshot(hand)
    with pytest.raises(IllegalMove, match=r"can't 'check' now; allowed: bring in 2; complete to 5"):
        services.hand_act(hand_id=hand.pk, player_id=player_to_act(hand), kind="check", version=0)
    with pytest.raises(IllegalMove, match="can't complete to 7"):
        services.hand_act(
            hand_id=hand.pk, player_id=player_to_act(hand), kind="complete", amount=7, version=0
        )
    assert snapshot(hand) == before


def test_a_player_not_dealt_in_may_not_act(table, seated):
    dave = user_signup(username="dave", password="dave-pw-1234")
    hand = services.hand_start(table_id=table.pk)
    services.seat_take(table_id=table.pk, player_id=dave.pk, seat_number=5, buy_in=100)
    with pytest.raises(ServiceError, match="you are not dealt into hand #1"):
        services.hand_act(hand_id=hand.pk, player_id=dave.pk, kind="bring_in", version=0)
    with pytest.raises(ServiceError, match="there is no hand #0"):
        services.hand_act(hand_id=0, player_id=dave.pk, kind="bring_in", version=0)


# ------------------------------------------------------------------- views


def test_hand_view_shows_each_player_their_own_down_cards_only(table, seated):
    hand = services.hand_start(table_id=table.pk)
    alice = seated[0]
    mine = services.hand_view(hand_id=hand.pk, player_id=alice.pk)
    me = [entry["player"] for entry in hand.seating["players"]].index(alice.pk)
    assert mine["viewer"] == me and mine["turn"] == hand.version
    for seat in mine["players"]:
        assert [held["up"] for held in seat["cards"]] == [False, False, True]
        down = [held["card"] for held in seat["cards"] if not held["up"]]
        assert all(down) if seat["player"] == me else not any(down)
        assert all(held["card"] for held in seat["cards"] if held["up"])
    watching = services.hand_view(hand_id=hand.pk, player_id=None)
    assert watching["viewer"] is None and watching["legal_actions"] == []
    for seat in watching["players"]:
        assert [held["card"] is not None for held in seat["cards"]] == [False, False, True]


def test_hand_view_gives_the_legal_actions_only_to_the_player_to_act(table, seated):
    hand = services.hand_start(table_id=table.pk)
    actor = player_to_act(hand)
    kinds = [
        a["kind"] for a in services.hand_view(hand_id=hand.pk, player_id=actor)["legal_actions"]
    ]
    assert kinds == ["bring_in", "complete"]
    for player in seated:
        if player.pk != actor:
            assert services.hand_view(hand_id=hand.pk, player_id=player.pk)["legal_actions"] == []
