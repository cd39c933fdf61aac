"""The turn clock: action time, countdown, timeouts, the reconnect extension, the sweep.

How the countdown is renewed, and the time bank option, are in ``test_turn_clock``.

The services take ``now``, so most tests run the clock by hand on the test's
database; one test proves a real Celery worker times a turn out on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest
import redis
from django.db import DatabaseError
from django.utils import timezone

from accounts.models import User
from tables import services
from tables.models import Hand, Move, Seat, Stakes, Table
from tables.services.clock import timeout_due, timeout_wait
from tables.tasks import SAFETY_NETS, expire_turn, sweep_overdue_turns, sweep_safety_nets
from tests.tables.clock import ACTION, EXTRA, T0, act, expire, seat_of, seconds, start
from tests.tables.conftest import Worker, player_to_act, wait_until


def stored_moves(hand: Hand) -> list[Move]:
    """The hand's moves as stored now (``hand`` itself may be an older copy)."""
    return Hand.objects.get(pk=hand.pk).moves()


def last_move(hand: Hand) -> Move:
    return stored_moves(hand)[-1]


# ------------------------------------------------------------- the deadline


def test_a_new_hand_gives_the_first_player_action_time_and_the_countdown(seated: Table) -> None:
    hand = start(seated)
    assert hand.turn_deadline == T0 + ACTION
    assert hand.turn_expires_at == T0 + ACTION + EXTRA


def test_an_unanswered_turn_times_out_to_a_check_when_checking_is_free(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    waiting = player_to_act(hand)
    hand = expire(hand)
    move = last_move(hand)
    assert (move.player_id, move.kind, move.timed_out) == (waiting, "check", True)
    assert hand.version == 1


def test_an_unanswered_turn_facing_a_bet_times_out_to_a_fold(
    no_bring_in: Stakes, seated: Table
) -> None:
    hand = start(seated)
    act(hand, "bet", T0 + seconds(1), amount=5)
    waiting = player_to_act(hand)
    hand = expire(hand)
    move = last_move(hand)
    assert (move.player_id, move.kind, move.timed_out) == (waiting, "fold", True)
    assert hand.is_finished
    assert (hand.turn_deadline, hand.turn_expires_at) == (None, None)


def test_an_unanswered_bring_in_is_posted(seated: Table) -> None:
    hand = start(seated)
    hand = expire(hand)
    move = last_move(hand)
    assert (move.kind, move.timed_out) == ("bring_in", True)
    posted = next(event for event in hand.state["events"] if event["type"] == "bring_in")
    assert posted["total"] == 2  # the stakes' bring-in


def test_a_timeout_before_the_turn_expires_does_nothing(seated: Table) -> None:
    hand = start(seated)
    assert expire(hand, T0 + ACTION + EXTRA - seconds(0.001)) is None
    hand.refresh_from_db()
    assert (hand.version, len(hand.moves())) == (0, 0)


def test_the_timeout_acts_only_once_the_wait_after_the_expiry_is_over(seated: Table) -> None:
    hand = start(seated)
    expires = T0 + ACTION + EXTRA
    wait = timeout_wait()
    assert wait > timedelta(0)  # the default: a move just in time must get a chance
    assert timeout_due(expires) == expires + wait
    assert expire(hand, expires) is None
    assert expire(hand, expires + wait - seconds(0.001)) is None
    assert expire(hand, expires + wait) is not None
    assert last_move(hand).timed_out


def test_a_move_received_in_time_but_served_after_the_expiry_beats_its_timeout(
    seated: Table,
) -> None:
    """The server took the move 10 ms before the turn ran out but got to it
    only 200 ms after, a timeout task having come meanwhile: the move stands."""
    hand = start(seated)
    turn, expires = hand.version, T0 + ACTION + EXTRA
    assert services.hand_timeout(hand_id=hand.pk, turn=turn, now=expires + seconds(0.1)) is None
    services.hand_act(
        hand_id=hand.pk,
        player_id=player_to_act(hand),
        kind="bring_in",
        version=turn,
        now=expires + seconds(0.2),
        received_at=expires - seconds(0.01),
    )
    assert services.hand_timeout(hand_id=hand.pk, turn=turn, now=timeout_due(expires)) is None
    moves = stored_moves(hand)
    assert [(move.kind, move.timed_out) for move in moves] == [("bring_in", False)]


def test_a_move_just_before_expiry_wins_and_the_old_turns_task_does_nothing(
    seated: Table,
) -> None:
    hand = start(seated)
    old_turn = hand.version
    act(hand, "bring_in", T0 + ACTION + EXTRA - seconds(0.1))
    late = services.hand_timeout(hand_id=hand.pk, turn=old_turn, now=T0 + seconds(60))
    assert late is None
    hand.refresh_from_db()
    assert hand.version == old_turn + 1
    assert not [move for move in hand.moves() if move.timed_out]


def test_a_repeated_timeout_task_changes_nothing(seated: Table) -> None:
    hand = start(seated)
    turn, at = hand.version, timeout_due(T0 + ACTION + EXTRA)
    assert services.hand_timeout(hand_id=hand.pk, turn=turn, now=at) is not None
    assert services.hand_timeout(hand_id=hand.pk, turn=turn, now=at) is None
    hand.refresh_from_db()
    assert (hand.version, len(hand.moves())) == (turn + 1, 1)


def test_a_timeout_for_a_missing_hand_does_nothing(db: None) -> None:
    assert services.hand_timeout(hand_id=999_999, turn=0, now=T0) is None


def test_a_task_for_a_turn_played_or_not_yet_expired_costs_one_read_and_no_transaction(
    seated: Table, django_assert_num_queries: Any
) -> None:
    # Most timeout tasks come for turns already played: no lock, no savepoint.
    hand = start(seated)
    old_turn = hand.version
    with django_assert_num_queries(1):
        assert services.hand_timeout(hand_id=hand.pk, turn=old_turn, now=T0) is None
    act(hand, "bring_in", T0 + seconds(1))
    with django_assert_num_queries(1):
        assert services.hand_timeout(hand_id=hand.pk, turn=old_turn, now=T0 + seconds(60)) is None


def test_the_next_turn_is_timed_from_the_move(seated: Table) -> None:
    hand = start(seated)
    hand = act(hand, "bring_in", T0 + seconds(3))
    assert hand.turn_deadline == T0 + seconds(3) + ACTION
    assert hand.turn_expires_at == T0 + seconds(3) + ACTION + EXTRA


# ------------------------------------------------------------ sitting out


def test_one_timeout_is_counted_and_a_move_forgives_it(no_bring_in: Stakes, seated: Table) -> None:
    hand = start(seated)
    first = player_to_act(hand)
    hand = expire(hand)
    assert seat_of(seated, first).timeouts_in_a_row == 1
    assert seat_of(seated, first).state == Seat.State.PLAYING
    at = hand.turn_expires_at
    hand = expire(hand)  # the other player's turn times out too: the street ends
    while player_to_act(hand) != first:
        hand = act(hand, "check", at)
    act(hand, "check", at)
    assert seat_of(seated, first).timeouts_in_a_row == 0


def test_two_timeouts_in_a_row_sit_the_player_out(
    no_bring_in: Stakes, seated: Table, alice: User
) -> None:
    """Alice never moves; bob only checks, so each of alice's timeouts is a check."""
    hand, at, timeouts = start(seated), T0, 0
    while timeouts < 2:
        hand.refresh_from_db()
        assert not hand.is_finished
        if player_to_act(hand) == alice.pk:
            at = hand.turn_expires_at
            hand, timeouts = expire(hand), timeouts + 1
        else:
            hand = act(hand, "check", at)
        if timeouts == 1:
            assert seat_of(seated, alice.pk).state == Seat.State.PLAYING
    assert seat_of(seated, alice.pk).state == Seat.State.SITTING_OUT
    assert last_move(hand).kind == "check"  # still in this hand, dealt out of the next


# ---------------------------------------------------------------- reconnect


def test_reconnecting_on_ones_turn_extends_it_once_per_hand(seated: Table) -> None:
    hand = start(seated)
    waiting = player_to_act(hand)
    extended = services.hand_reconnect(hand_id=hand.pk, player_id=waiting, now=T0 + seconds(5))
    assert extended is not None
    assert extended.turn_expires_at == T0 + ACTION + EXTRA + seconds(20)
    again = services.hand_reconnect(hand_id=hand.pk, player_id=waiting, now=T0 + seconds(6))
    assert again is None
    hand.refresh_from_db()
    assert hand.turn_expires_at == T0 + ACTION + EXTRA + seconds(20)


def test_an_extended_turn_times_out_only_at_its_new_expiry(seated: Table) -> None:
    hand = start(seated)
    services.hand_reconnect(hand_id=hand.pk, player_id=player_to_act(hand), now=T0)
    assert expire(hand, timeout_due(T0 + ACTION + EXTRA)) is None
    assert expire(hand, timeout_due(T0 + ACTION + EXTRA + seconds(20))) is not None


def test_reconnecting_off_ones_turn_extends_nothing(seated: Table, alice: User, bob: User) -> None:
    hand = start(seated)
    other = bob.pk if player_to_act(hand) == alice.pk else alice.pk
    assert services.hand_reconnect(hand_id=hand.pk, player_id=other, now=T0) is None
    hand.refresh_from_db()
    assert hand.turn_expires_at == T0 + ACTION + EXTRA


def test_reconnecting_after_the_turn_expired_extends_nothing(seated: Table) -> None:
    hand = start(seated)
    waiting = player_to_act(hand)
    at = T0 + ACTION + EXTRA
    assert services.hand_reconnect(hand_id=hand.pk, player_id=waiting, now=at) is None


# -------------------------------------------------------------------- sweep


def test_the_sweep_leaves_a_turn_alone_within_the_grace(seated: Table) -> None:
    hand = start(seated)
    # The grace counts from when the task was due, the timeout's wait after the expiry.
    due = timeout_due(T0 + ACTION + EXTRA)
    assert services.hands_expire_overdue(now=due + seconds(0.5)) == 0
    hand.refresh_from_db()
    assert hand.version == 0


def test_the_sweep_times_out_a_turn_whose_task_was_lost(seated: Table) -> None:
    """No task is sent here (no commit), which is just what a lost task looks like."""
    hand = start(seated)
    seen: list[int] = []
    expired = services.hands_expire_overdue(
        now=timeout_due(T0 + ACTION + EXTRA) + seconds(1), on_expired=lambda h: seen.append(h.pk)
    )
    assert (expired, seen) == (1, [hand.pk])
    assert last_move(hand).timed_out


def test_the_sweep_task_times_out_overdue_turns(seated: Table) -> None:
    hand = start(seated, now=timezone.now() - ACTION - EXTRA - seconds(5))
    assert sweep_overdue_turns() == 1
    assert sweep_overdue_turns() == 0  # the next turn has all its time
    hand.refresh_from_db()
    assert hand.version == 1 and last_move(hand).timed_out


def test_the_sweep_runs_on_the_beat_schedule(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-safety-nets"]
    assert entry["task"] == "tables.tasks.sweep_safety_nets"
    assert entry["schedule"] == 2
    assert entry["options"]["queue"] == settings.CARDROOM_TURN_QUEUE  # with the turns' own tasks
    assert sweep_overdue_turns in SAFETY_NETS


def test_beats_one_sweep_times_out_an_overdue_turn_and_runs_every_other_net(
    seated: Table,
) -> None:
    hand = start(seated, now=timezone.now() - ACTION - EXTRA - seconds(5))
    done = sweep_safety_nets()
    assert done == {net.name: 0 for net in SAFETY_NETS} | {sweep_overdue_turns.name: 1}
    hand.refresh_from_db()
    assert hand.version == 1 and last_move(hand).timed_out


def test_a_safety_net_that_fails_is_logged_and_the_rest_still_run(
    seated: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """As if the first net's query hit a deadlock: the turn waits for the next
    sweep, and the nets after it are not held up."""
    start(seated, now=timezone.now() - ACTION - EXTRA - seconds(5))

    def deadlocked(**kwargs: Any) -> int:
        raise DatabaseError("deadlock detected")

    monkeypatch.setattr(services, "hands_expire_overdue", deadlocked)
    done = sweep_safety_nets()
    assert done == {net.name: 0 for net in SAFETY_NETS} | {sweep_overdue_turns.name: None}
    assert "sweep_overdue_turns failed" in caplog.text


# ------------------------------------------------------ sending the tasks
# A turn's timeout task is sent only for a turn near its expiry: by the move
# that starts a turn shorter than the lookahead, otherwise by beat's claim.


def test_a_turn_far_from_its_expiry_gets_no_timeout_task_yet(seated: Table, settings: Any) -> None:
    settings.CARDROOM_TURN_TASKS = True
    hand = start(seated)
    hand.refresh_from_db()
    assert hand.turn_expires_at == T0 + ACTION + EXTRA and hand.timeout_sent_for is None


def test_a_turn_shorter_than_the_lookahead_gets_its_task_at_once(
    stakes: Stakes, seated: Table, settings: Any
) -> None:
    settings.CARDROOM_TURN_TASKS = True
    _short_clock(stakes, settings.CARDROOM_TURN_LOOKAHEAD_SECONDS)
    hand = start(seated)
    hand.refresh_from_db()
    expires = T0 + seconds(settings.CARDROOM_TURN_LOOKAHEAD_SECONDS)
    assert hand.turn_expires_at == hand.timeout_sent_for == expires


def test_beat_claims_a_turn_once_it_nears_its_expiry_and_only_once(
    seated: Table, settings: Any
) -> None:
    hand = start(seated)
    expires, lookahead = T0 + ACTION + EXTRA, seconds(settings.CARDROOM_TURN_LOOKAHEAD_SECONDS)
    assert services.turn_timeouts_claim_due(now=expires - lookahead - seconds(1)) == []
    due = [(hand.pk, 0, timeout_due(expires))]
    assert services.turn_timeouts_claim_due(now=expires - lookahead) == due
    assert services.turn_timeouts_claim_due(now=expires - seconds(1)) == []  # sent already
    hand.refresh_from_db()
    assert hand.timeout_sent_for == expires


def test_a_reconnect_moves_the_expiry_and_beat_claims_the_turn_again(seated: Table) -> None:
    hand = start(seated)
    expires = T0 + ACTION + EXTRA
    assert services.turn_timeouts_claim_due(now=expires) == [(hand.pk, 0, timeout_due(expires))]
    services.hand_reconnect(hand_id=hand.pk, player_id=player_to_act(hand), now=T0 + seconds(5))
    later = expires + seconds(20)
    assert services.turn_timeouts_claim_due(now=expires) == []  # not near the new expiry yet
    assert services.turn_timeouts_claim_due(now=later) == [(hand.pk, 0, timeout_due(later))]


def test_beat_claims_the_next_turn_of_a_hand_not_the_turn_played(seated: Table) -> None:
    hand = start(seated)
    act(hand, "bring_in", T0 + seconds(1))
    next_expiry = T0 + seconds(1) + ACTION + EXTRA
    due = [(hand.pk, 1, timeout_due(next_expiry))]
    assert services.turn_timeouts_claim_due(now=next_expiry) == due


def test_a_finished_hand_is_never_claimed(seated: Table) -> None:
    hand = start(seated)
    act(hand, "bring_in", T0 + seconds(1))
    assert act(hand, "fold", T0 + seconds(2)).is_finished
    assert services.turn_timeouts_claim_due(now=T0 + seconds(3600)) == []


def test_the_timeout_tasks_are_sent_on_the_beat_schedule(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["send-due-timeouts"]
    assert entry["task"] == "tables.tasks.send_due_timeouts"
    assert entry["schedule"] == 1


# ------------------------------------------------- a real worker and Redis


def _short_clock(stakes: Stakes, action_seconds: int) -> None:
    stakes.action_seconds, stakes.time_bank_seconds = action_seconds, 0
    stakes.save(update_fields=["action_seconds", "time_bank_seconds"])


def _hand_with_a_short_first_turn(stakes: Stakes, table: Table) -> Hand:
    """A new hand whose first turn has a second; the turns after it get an hour,
    so that on a busy machine none of them runs out while the test looks."""
    _short_clock(stakes, 1)
    hand = services.hand_start(table_id=table.pk)  # commits, which sends the task
    _short_clock(stakes, 3600)
    return hand


def _timed_out(hand: Hand) -> list[Move]:
    return [move for move in stored_moves(hand) if move.timed_out]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_times_out_an_unanswered_turn(
    start_worker: Callable[..., Worker], stakes: Stakes, seated: Table
) -> None:
    start_worker()
    hand = _hand_with_a_short_first_turn(stakes, seated)
    (move,) = wait_until(lambda: _timed_out(hand), "the turn to time out")
    assert (move.number, move.kind) == (1, "bring_in")  # a forced bet is posted


@pytest.mark.django_db(transaction=True)
def test_a_move_just_before_expiry_wins_and_the_real_late_task_does_nothing(
    start_worker: Callable[..., Worker], stakes: Stakes, seated: Table
) -> None:
    worker = start_worker()
    _short_clock(stakes, 3)
    hand = services.hand_start(table_id=seated.pk)
    # Move half a second before the turn expires.
    time.sleep(max(0.0, (hand.turn_expires_at - timezone.now()).total_seconds() - 0.5))
    act(hand, "bring_in", timezone.now())
    # The first turn's task fires at its expiry and finds the turn played; the
    # second turn's, three seconds after the move, times that turn out.
    (timed_out,) = wait_until(lambda: _timed_out(hand), "the second turn to time out")
    assert timed_out.number == 2
    first = stored_moves(hand)[0]
    assert (first.kind, first.timed_out) == ("bring_in", False)
    assert worker.wait_results("tables.tasks.expire_turn", 2) == ["False", "True"]


@pytest.mark.django_db(transaction=True)
def test_a_timeout_task_delivered_again_changes_nothing(
    start_worker: Callable[..., Worker], stakes: Stakes, seated: Table
) -> None:
    worker = start_worker()
    hand = _hand_with_a_short_first_turn(stakes, seated)
    wait_until(lambda: _timed_out(hand), "the turn to time out")
    hand.refresh_from_db()
    version = hand.version
    for _ in range(2):
        expire_turn.apply_async((hand.pk, 0), queue=worker.queue)
    wait_until(lambda: len(worker.results("tables.tasks.expire_turn")) >= 3, "the repeats to run")
    assert worker.results("tables.tasks.expire_turn")[:3] == ["True", "False", "False"]
    hand.refresh_from_db()
    assert hand.version == version and len(_timed_out(hand)) == 1


@pytest.mark.django_db(transaction=True)
def test_beats_sweep_times_out_a_turn_whose_task_was_lost(
    start_worker: Callable[..., Worker],
    stakes: Stakes,
    seated: Table,
    redis_url: str,
    settings: Any,
) -> None:
    worker = start_worker(beat=True)
    lost = f"test-timers-lost-{uuid4().hex}"  # a queue no worker reads
    settings.CARDROOM_TURN_QUEUE = lost
    client = redis.Redis.from_url(redis_url)
    try:
        hand = _hand_with_a_short_first_turn(stakes, seated)
        (move,) = wait_until(lambda: _timed_out(hand), "the sweep to time the turn out")
        assert move.number == 1
        assert client.llen(lost) == 1  # the turn's own task never left its queue
        # The sweep did it: one of its runs timed out one turn.
        sweep = "tables.tasks.sweep_overdue_turns"
        wait_until(lambda: 1 in worker.swept(sweep), "the sweep to report its timeout")
        assert worker.results("tables.tasks.expire_turn") == []
    finally:
        client.delete(lost)
        client.close()


@pytest.mark.django_db(transaction=True)
def test_beat_sends_the_task_that_times_out_a_turn_longer_than_the_lookahead(
    start_worker: Callable[..., Worker], stakes: Stakes, seated: Table, settings: Any
) -> None:
    worker = start_worker(beat=True)
    _short_clock(stakes, settings.CARDROOM_TURN_LOOKAHEAD_SECONDS + 2)
    hand = services.hand_start(table_id=seated.pk)  # commits, and sends no task
    hand.refresh_from_db()
    assert hand.timeout_sent_for is None
    (move,) = wait_until(lambda: _timed_out(hand)[:1], "the turn to time out")
    assert (move.number, move.kind) == (1, "bring_in")
    assert worker.wait_results("tables.tasks.expire_turn", 1) == ["True"]
    assert "1" in worker.results("tables.tasks.send_due_timeouts")
