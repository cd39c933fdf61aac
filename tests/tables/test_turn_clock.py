"""The extra time after the action time: a fresh countdown every turn, or a time bank.

By default (``Stakes.Clock.PER_TURN``, seed 002) every turn has the action time
and then a whole countdown, whatever earlier turns and hands took. With the
time bank option the extra time is spent across hands and refilled every few
hands a player is dealt into, never past the bank's size.

Personas: alice and bob, heads up with 200 chips each; carol sits at the table
in some tests but is sitting out, so she is dealt no hands. The decks are
shuffled, so every assertion holds whoever is to act.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tables import services
from tables.models import Hand, Seat, Stakes, Table
from tables.rules import HandState
from tables.selectors.snapshots import build_snapshot, read_table
from tests.tables.clock import ACTION, EXTRA, T0, act, expire, seat_of, seconds, start
from tests.tables.conftest import play_out, player_to_act
from tests.tables.test_admin import form_errors, stakes_form

pytestmark = pytest.mark.django_db


def use_time_bank(stakes: Stakes, *, refill_seconds: int = 5, refill_hands: int = 5) -> None:
    stakes.clock = Stakes.Clock.TIME_BANK
    stakes.bank_refill_seconds, stakes.bank_refill_hands = refill_seconds, refill_hands
    stakes.save(update_fields=["clock", "bank_refill_seconds", "bank_refill_hands"])


def extra_time(hand: Hand) -> timedelta:
    """What the turn being played has after its action time."""
    return hand.turn_expires_at - hand.turn_deadline


def check_until_turn_of(hand: Hand, player_id: int, now: datetime) -> Hand:
    """The others check at ``now`` until it is ``player_id``'s turn."""
    hand.refresh_from_db()
    while player_to_act(hand) != player_id:
        hand = act(hand, "check", now)
    return hand


def fold_quickly(state: HandState) -> tuple[str, int | None]:
    """Post the bring-in, then fold: a heads-up hand ends in two moves."""
    kinds = {option.kind for option in state.legal_actions()}
    return next(kind for kind in ("fold", "bring_in", "check") if kind in kinds), None


def deal_hands(table: Table, count: int, now: datetime = T0) -> None:
    """Deal ``count`` hands at ``now``, each played out within its action time."""
    for _ in range(count):
        play_out(start(table, now), fold_quickly, now)


def set_banks(table: Table, ms: int | None) -> None:
    Seat.objects.filter(table=table).update(time_bank_ms=ms)


# ------------------------------------------------- the per-turn countdown


def test_the_countdown_is_the_default_clock(stakes: Stakes) -> None:
    assert stakes.clock == Stakes.Clock.PER_TURN


def test_a_whole_countdown_used_on_one_turn_is_whole_again_on_the_next(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    mover = player_to_act(hand)
    at = T0 + ACTION + EXTRA - seconds(0.1)  # all but the last tenth of a second
    hand = act(hand, "bet", at, amount=5)
    hand = act(hand, "raise", at, amount=10)  # the other player, at once
    assert player_to_act(hand) == mover
    assert (hand.turn_deadline, extra_time(hand)) == (at + ACTION, EXTRA)


def test_a_whole_countdown_used_in_one_hand_is_whole_again_in_the_next(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    mover = player_to_act(hand)
    at = T0 + ACTION + EXTRA - seconds(0.1)
    hand = act(hand, "bet", at, amount=5)
    hand = act(hand, "fold", at)  # the hand ends
    assert hand.is_finished
    later = at + seconds(5)
    hand = check_until_turn_of(start(seated, later), mover, later)
    assert (hand.turn_deadline, extra_time(hand)) == (later + ACTION, EXTRA)


def test_a_timeout_leaves_the_players_next_turn_its_whole_countdown(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    waiting = player_to_act(hand)
    hand = expire(hand)  # a check: checking is free
    at = hand.turn_expires_at - EXTRA  # the other player, when their countdown starts
    hand = check_until_turn_of(hand, waiting, at)
    assert (hand.turn_deadline, extra_time(hand)) == (at + ACTION, EXTRA)
    assert seat_of(seated, waiting).timeouts_in_a_row == 1  # still counted for sitting out


def test_the_countdown_follows_the_stakes_setting(no_bring_in: Stakes, seated: Table) -> None:
    no_bring_in.time_bank_seconds = 45
    no_bring_in.save(update_fields=["time_bank_seconds"])
    hand = start(seated)
    assert extra_time(hand) == seconds(45)


def test_dealing_hands_leaves_the_refill_count_alone(seated: Table, alice: User) -> None:
    deal_hands(seated, 3)
    assert seat_of(seated, alice.pk).hands_since_refill == 0


# ----------------------------------------------------------- the time bank


def test_a_move_within_the_action_time_keeps_the_whole_bank(stakes: Stakes, seated: Table) -> None:
    use_time_bank(stakes)
    hand = start(seated)
    mover = player_to_act(hand)
    act(hand, "bring_in", T0 + ACTION)
    assert seat_of(seated, mover).time_bank_ms in (None, 20_000)


def test_a_move_on_the_bank_spends_the_time_taken(stakes: Stakes, seated: Table) -> None:
    use_time_bank(stakes)
    hand = start(seated)
    mover = player_to_act(hand)
    act(hand, "bring_in", T0 + ACTION + seconds(5.5))
    assert seat_of(seated, mover).time_bank_ms == 14_500


def test_a_move_that_waited_for_a_busy_server_spends_the_time_to_its_arrival(
    stakes: Stakes, seated: Table
) -> None:
    """Received 2 s into the bank, served 8 s in: the player is charged 2 s."""
    use_time_bank(stakes)
    hand = start(seated)
    mover = player_to_act(hand)
    services.hand_act(
        hand_id=hand.pk,
        player_id=mover,
        kind="bring_in",
        version=hand.version,
        now=T0 + ACTION + seconds(8),
        received_at=T0 + ACTION + seconds(2),
    )
    assert seat_of(seated, mover).time_bank_ms == 18_000


def test_a_spent_bank_shortens_the_players_next_turn(no_bring_in: Stakes, seated: Table) -> None:
    use_time_bank(no_bring_in)
    hand = start(seated)
    mover = player_to_act(hand)
    at = T0 + ACTION + seconds(15)
    hand = act(hand, "bet", at, amount=5)  # 15 of the 20 bank seconds spent
    hand = act(hand, "raise", at, amount=10)  # the other player, at once
    assert player_to_act(hand) == mover
    assert extra_time(hand) == seconds(5)


def test_a_spent_bank_stays_spent_in_the_next_hand(no_bring_in: Stakes, seated: Table) -> None:
    use_time_bank(no_bring_in, refill_hands=100)  # no refill in this test
    hand = start(seated)
    mover = player_to_act(hand)
    at = T0 + ACTION + seconds(15)
    act(hand, "bet", at, amount=5)
    act(hand, "fold", at)
    hand = check_until_turn_of(start(seated, at), mover, at)
    assert extra_time(hand) == seconds(5)


def test_a_timeout_empties_the_bank(stakes: Stakes, seated: Table) -> None:
    use_time_bank(stakes, refill_hands=100)
    hand = start(seated)
    waiting = player_to_act(hand)
    expire(hand)
    assert seat_of(seated, waiting).time_bank_ms == 0


def test_after_a_timeout_the_player_has_only_the_action_time(
    no_bring_in: Stakes, seated: Table
) -> None:
    use_time_bank(no_bring_in, refill_hands=100)
    hand = start(seated)
    waiting = player_to_act(hand)
    hand = expire(hand)
    at = hand.turn_deadline  # the other player, when their action time ends
    hand = check_until_turn_of(hand, waiting, at)
    assert (hand.turn_deadline, extra_time(hand)) == (at + ACTION, seconds(0))


def test_the_bank_is_refilled_every_so_many_hands_dealt(
    stakes: Stakes, seated: Table, alice: User
) -> None:
    use_time_bank(stakes, refill_seconds=5, refill_hands=3)
    set_banks(seated, 1_000)
    deal_hands(seated, 2)
    alice_seat = seat_of(seated, alice.pk)
    assert (alice_seat.time_bank_ms, alice_seat.hands_since_refill) == (1_000, 2)
    deal_hands(seated, 1)
    alice_seat = seat_of(seated, alice.pk)
    assert (alice_seat.time_bank_ms, alice_seat.hands_since_refill) == (6_000, 0)
    deal_hands(seated, 3)
    assert seat_of(seated, alice.pk).time_bank_ms == 11_000


@pytest.mark.parametrize("bank_ms", [18_000, 20_000, None], ids=["nearly full", "full", "unused"])
def test_a_refill_never_fills_the_bank_past_its_size(
    stakes: Stakes, seated: Table, alice: User, bank_ms: int | None
) -> None:
    use_time_bank(stakes, refill_seconds=5, refill_hands=1)
    set_banks(seated, bank_ms)
    deal_hands(seated, 1)
    assert seat_of(seated, alice.pk).time_bank_ms == 20_000


def test_the_first_turn_of_a_hand_has_the_refill_made_as_it_was_dealt(
    stakes: Stakes, seated: Table
) -> None:
    use_time_bank(stakes, refill_seconds=7, refill_hands=1)
    set_banks(seated, 0)
    hand = start(seated)
    assert extra_time(hand) == seconds(7)


def test_only_hands_a_player_is_dealt_into_count_towards_a_refill(
    stakes: Stakes, seated: Table, carol: User
) -> None:
    use_time_bank(stakes, refill_seconds=5, refill_hands=2)
    services.seat_take(table_id=seated.pk, player_id=carol.pk, seat_number=4, buy_in=200)
    services.seat_sit_out(table_id=seated.pk, player_id=carol.pk)
    set_banks(seated, 0)
    deal_hands(seated, 2)
    carol_seat = seat_of(seated, carol.pk)
    assert (carol_seat.time_bank_ms, carol_seat.hands_since_refill) == (0, 0)


def test_a_bank_refill_of_zero_never_refills(stakes: Stakes, seated: Table, alice: User) -> None:
    use_time_bank(stakes, refill_seconds=0, refill_hands=1)
    set_banks(seated, 3_000)
    deal_hands(seated, 2)
    assert seat_of(seated, alice.pk).time_bank_ms == 3_000


def test_a_bank_counts_no_more_than_a_lowered_size(stakes: Stakes, seated: Table) -> None:
    use_time_bank(stakes, refill_hands=100)
    set_banks(seated, 20_000)
    stakes.time_bank_seconds = 8
    stakes.save(update_fields=["time_bank_seconds"])
    hand = start(seated)
    assert extra_time(hand) == seconds(8)


# ------------------------------------------------------------- the timer


@pytest.mark.parametrize("clock", [Stakes.Clock.PER_TURN, Stakes.Clock.TIME_BANK])
def test_the_timer_names_the_stakes_clock(stakes: Stakes, seated: Table, clock: str) -> None:
    stakes.clock = clock
    stakes.save(update_fields=["clock"])
    start(seated)
    snapshot = build_snapshot(read_table(seated.pk), None, None, with_events=False)
    assert snapshot.payload["hand_info"]["timer"]["clock"] == clock


# -------------------------------------------------------- the stakes' fields


def valid_stakes(**fields: object) -> Stakes:
    defaults = dict(name="Stud 2/4", small_bet=2, big_bet=4, min_buy_in=40, max_buy_in=400)
    return Stakes(**{**defaults, **fields})


def test_the_time_bank_fields_have_sensible_defaults() -> None:
    stakes = valid_stakes()
    stakes.full_clean()
    assert (stakes.time_bank_seconds, stakes.bank_refill_seconds, stakes.bank_refill_hands) == (
        20,
        5,
        5,
    )


def test_the_models_check_reports_every_clock_field_out_of_bounds() -> None:
    stakes = valid_stakes(
        clock="hourglass", time_bank_seconds=601, bank_refill_seconds=601, bank_refill_hands=0
    )
    with pytest.raises(ValidationError) as caught:
        stakes.full_clean()
    assert sorted(caught.value.message_dict) == [
        "bank_refill_hands",
        "bank_refill_seconds",
        "clock",
        "time_bank_seconds",
    ]


def test_staff_add_stakes_with_a_time_bank(quick_passwords: None, admin_client: Client) -> None:
    form = stakes_form(clock="time_bank", bank_refill_seconds=10, bank_refill_hands=4)
    response = admin_client.post(reverse("admin:tables_stakes_add"), form)
    assert response.status_code == 302
    stakes = Stakes.objects.get(name="Stud 2/4")
    assert (stakes.clock, stakes.bank_refill_seconds, stakes.bank_refill_hands) == (
        "time_bank",
        10,
        4,
    )


def test_the_admin_reports_each_clock_field_out_of_bounds_on_itself(
    quick_passwords: None, admin_client: Client
) -> None:
    form = stakes_form(bank_refill_seconds=601, bank_refill_hands=101, time_bank_seconds=601)
    response = admin_client.post(reverse("admin:tables_stakes_add"), form)
    assert form_errors(response) == {
        "time_bank_seconds": ["Ensure this value is less than or equal to 600."],
        "bank_refill_seconds": ["Ensure this value is less than or equal to 600."],
        "bank_refill_hands": ["Ensure this value is less than or equal to 100."],
    }
    assert not Stakes.objects.exists()


def test_the_admin_offers_both_clocks_in_plain_words(
    quick_passwords: None, admin_client: Client
) -> None:
    page = admin_client.get(reverse("admin:tables_stakes_add")).content.decode()
    assert "A fresh countdown every turn" in page
    assert "A time bank spent across hands, refilled every few hands" in page
