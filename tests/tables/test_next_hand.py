"""The next hand: dealt by a Celery task a few seconds after one ends, with beat's sweep behind it.

Alice (seat 1) and bob (seat 2) play heads up; a hand ends when one of them
folds. Most tests stand in for the broker by recording what would be sent and
running the task by hand; the last ones prove a real worker deals the next
hand, and that beat deals it when a crash has lost the task.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from tables import broadcast, services, tasks
from tables.models import Hand, Seat, Stakes, Table
from tables.services import clock
from tests.tables.conftest import (
    Worker,
    engine,
    forbid_hand_read_back,
    player_to_act,
    wait_until,
)
from tests.tables.test_mixed_games import mixed, sit


@pytest.fixture
def sent(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """A broker is configured; the start_next_hand tasks sent, as (args, options)."""
    settings.CARDROOM_TURN_TASKS = True
    settings.CARDROOM_NEXT_HAND_DELAY_SECONDS = 3
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.start_next_hand, "apply_async", lambda args, **options: calls.append((args, options))
    )
    monkeypatch.setattr(clock, "_schedule_timeout", lambda hand, now: None)  # not under test
    return calls


def move(hand: Hand, kind: str) -> None:
    """The player to act makes ``kind`` through the service the consumer calls."""
    hand.refresh_from_db()
    services.hand_play(
        table_id=hand.table_id,
        player_id=player_to_act(hand),
        kind=kind,
        amount=None,
        version=hand.version,
        hand_id=hand.pk,
    )


def fold_to_bring_in(hand: Hand) -> None:
    """The bring-in is posted and the other player folds: the hand is over."""
    move(hand, "bring_in")
    move(hand, "fold")
    assert engine(hand).finished


def pause_over(table: Table) -> None:
    """Let the pause after the table's last hand run out, as if its end were long ago."""
    last = table.hands.order_by("-number").first()
    Hand.objects.filter(pk=last.pk).update(ended_at=last.ended_at - timedelta(minutes=20))


def running(table: Table) -> Hand | None:
    return table.hands.filter(ended_at__isnull=True).first()


def test_a_hand_ended_by_a_move_schedules_the_next_after_the_delay(
    seated: Table, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    hand = services.hand_start(table_id=seated.pk)
    with django_capture_on_commit_callbacks(execute=True):
        fold_to_bring_in(hand)
    assert [(args, options["countdown"]) for args, options in sent] == [((seated.pk,), 3)]
    assert seated.hands.count() == 1  # not dealt yet: that is the task's job


def test_a_hand_ended_by_a_timeout_schedules_the_next(
    seated: Table, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    hand = services.hand_start(table_id=seated.pk)
    move(hand, "bring_in")
    hand.refresh_from_db()
    long_ago = hand.started_at - timedelta(minutes=1)
    Hand.objects.filter(pk=hand.pk).update(turn_expires_at=long_ago)  # long expired
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.expire_turn(hand.pk, hand.version)  # facing the bring-in: a fold
    assert engine(hand).finished
    assert [args for args, _ in sent] == [(seated.pk,)]


def test_a_move_that_does_not_end_the_hand_schedules_nothing(
    seated: Table, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    hand = services.hand_start(table_id=seated.pk)
    with django_capture_on_commit_callbacks(execute=True):
        move(hand, "bring_in")
    assert sent == []


def test_without_a_broker_the_next_hand_is_dealt_at_once(seated: Table, settings: Any) -> None:
    settings.CARDROOM_TURN_TASKS = False
    hand = services.hand_start(table_id=seated.pk)
    fold_to_bring_in(hand)
    assert seated.hands.filter(ended_at__isnull=True).get().number == hand.number + 1


def test_a_broker_that_refuses_the_task_leaves_the_deal_to_the_sweep(
    seated: Table,
    sent: list,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    def broker_down(*args: Any, **options: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.start_next_hand, "apply_async", broker_down)
    hand = services.hand_start(table_id=seated.pk)
    with django_capture_on_commit_callbacks(execute=True):
        fold_to_bring_in(hand)  # the move is saved all the same
    assert running(seated) is None  # the showdown stays on show for the pause
    hand.refresh_from_db()
    after_pause = hand.ended_at + timedelta(seconds=3)
    assert services.hands_start_due(now=after_pause) == 1
    assert running(seated).number == hand.number + 1


def test_the_task_deals_the_next_hand_once_the_pause_is_over(seated: Table, sent: list) -> None:
    hand = services.hand_start(table_id=seated.pk)
    fold_to_bring_in(hand)
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is True
    assert running(seated).number == hand.number + 1


def test_a_deal_reads_no_earlier_hands_deck_or_state(seated: Table, sent: list) -> None:
    hand = services.hand_start(table_id=seated.pk)
    fold_to_bring_in(hand)
    pause_over(seated)
    with CaptureQueriesContext(connection) as queries:
        assert tasks.start_next_hand(seated.pk) is True
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    table = Hand._meta.db_table
    assert any(f'FROM "{table}"' in sql for sql in reads)  # the last hand's number and button
    for column in ("deck", "deck_salt", "state"):
        assert not [sql for sql in reads if f'"{table}"."{column}"' in sql], column


@pytest.mark.usefixtures("postgresql")  # SQLite takes no row lock to find the reads after
def test_a_deal_under_the_lock_reads_the_seats_and_the_last_hand_once_and_writes_no_missed_hand(
    seated: Table, sent: list
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    pause_over(seated)
    with CaptureQueriesContext(connection) as queries:
        assert tasks.start_next_hand(seated.pk) is True
    sql = [q["sql"] for q in queries.captured_queries]
    lock = next(i for i, text in enumerate(sql) if "FOR UPDATE" in text)
    locked_reads = [text for text in sql[lock + 1 :] if text.startswith("SELECT")]
    seats, hands = (f'FROM "{model._meta.db_table}"' for model in (Seat, Hand))
    assert len([text for text in locked_reads if seats in text]) == 1
    assert len([text for text in locked_reads if hands in text]) == 1
    assert not [text for text in sql if "hands_missed" in text and text.startswith("UPDATE")]


def test_a_deal_and_its_checks_read_each_hand_in_one_query(
    seated: Table, sent: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    forbid_hand_read_back(monkeypatch)
    assert tasks.start_next_hand(seated.pk) is False  # the pause: checked, not dealt
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is True


def test_a_task_that_arrives_before_the_pause_is_over_deals_nothing(
    seated: Table, sent: list
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 1


def test_a_player_sitting_in_during_the_pause_is_dealt_in_after_it(
    seated: Table, sent: list, bob: User
) -> None:
    hand = services.hand_start(table_id=seated.pk)
    services.seat_sit_out(table_id=seated.pk, player_id=bob.pk)  # from the next hand
    fold_to_bring_in(hand)
    services.seat_sit_in_and_deal(
        table_id=seated.pk, player_id=bob.pk
    )  # the table is ready again, in the pause
    assert running(seated) is None
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is True
    assert bob.pk in [entry["player"] for entry in running(seated).seating["players"]]


def test_the_task_deals_nothing_at_a_closed_table(seated: Table, sent: list) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    services.table_close(table_id=seated.pk)
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 1


def test_the_task_deals_nothing_with_one_player_left_in(
    seated: Table, sent: list, bob: User
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    services.seat_sit_out(table_id=seated.pk, player_id=bob.pk)
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 1


def test_a_repeated_task_deals_only_one_hand(seated: Table, sent: list) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is True
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 2


def test_the_task_for_a_missing_table_does_nothing(db: None) -> None:
    assert tasks.start_next_hand(987654) is False


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tables whose viewers are told of a change (``broadcast.table_changed``), in order."""
    tables: list[int] = []
    monkeypatch.setattr(broadcast, "table_changed", tables.append)
    return tables


def test_the_task_tells_the_table_of_its_deal_and_a_task_that_deals_nothing_tells_nobody(
    seated: Table, sent: list, told: list[int]
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    told.clear()
    assert tasks.start_next_hand(seated.pk) is False  # the pause isn't over
    pause_over(seated)
    assert tasks.start_next_hand(seated.pk) is True
    assert tasks.start_next_hand(seated.pk) is False  # the hand is dealt already
    assert told == [seated.pk]


@pytest.mark.parametrize("dealer", ["task", "sweep"])
def test_a_call_begun_after_the_pause_is_told_and_a_call_going_on_is_not(
    stakes: Stakes, alice: User, bob: User, sent: list, told: list[int], dealer: str
) -> None:
    table = mixed(stakes, Table.Policy.DEALERS_CHOICE, ["stud", "razz"])
    sit(table, alice, bob)
    assert services.hand_start_if_ready(table_id=table.pk) is None  # alice, the dealer, calls
    fold_to_bring_in(services.game_call(table_id=table.pk, player_id=alice.pk, game=0))
    pause_over(table)
    told.clear()
    if dealer == "task":
        assert tasks.start_next_hand(table.pk) is False
    else:
        assert tasks.deal_due_hands() == 0
    table.refresh_from_db()
    assert table.call_player_id == bob.pk  # the next dealer calls the next hand's game
    assert told == [table.pk]
    assert tasks.start_next_hand(table.pk) is False  # bob is still calling: nothing new
    assert told == [table.pk]


def test_the_first_hand_still_starts_when_the_second_player_sits(
    table: Table, alice: User, bob: User, sent: list
) -> None:
    services.seat_take_and_deal(table_id=table.pk, player_id=alice.pk, seat_number=1, buy_in=200)
    services.seat_take_and_deal(table_id=table.pk, player_id=bob.pk, seat_number=2, buy_in=200)
    assert table.hands.filter(ended_at__isnull=True).count() == 1
    assert sent == []


# ----------------------------------------------------------- beat's sweep


def test_the_sweep_deals_at_a_table_idle_past_the_pause(seated: Table, sent: list) -> None:
    """As after a crash: the hand ended, and the task sent for the next one was lost."""
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    dealt: list[Hand] = []
    assert services.hands_start_due(on_started=dealt.append) == 0  # still in the pause
    pause_over(seated)
    assert services.hands_start_due(on_started=dealt.append) == 1
    assert dealt == [running(seated)]
    assert services.hands_start_due() == 0  # that hand is running now


def test_the_sweep_deals_at_a_ready_table_that_never_had_a_hand(
    table: Table, alice: User, bob: User, sent: list
) -> None:
    """As when the process died between a player sitting down and the deal."""
    for seat_number, player in enumerate((alice, bob), start=1):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=seat_number, buy_in=200
        )
    assert services.hands_start_due() == 1
    assert running(table).number == 1


def test_the_sweep_passes_over_closed_tables_and_lone_players(
    seated: Table, sent: list, stakes: Stakes, carol: User
) -> None:
    services.table_close(table_id=seated.pk)
    alone = Table.objects.create(name="Table 2", stakes=stakes)
    services.seat_take(table_id=alone.pk, player_id=carol.pk, seat_number=1, buy_in=200)
    assert services.hands_start_due() == 0
    assert not Hand.objects.exists()


def test_the_sweep_task_deals_and_schedules_after_a_hand_that_ends_as_it_is_dealt(
    table: Table, alice: User, bob: User, sent: list, django_capture_on_commit_callbacks: Any
) -> None:
    """Both all in on the antes: the engine runs the board out, so the next hand is due too."""
    for seat_number, player in enumerate((alice, bob), start=1):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=seat_number, buy_in=200
        )
    Seat.objects.filter(table=table).update(stack=1)  # one chip each: the ante
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.deal_due_hands() == 1
    assert table.hands.get().is_finished
    assert [args for args, _ in sent] == [(table.pk,)]


def test_beat_runs_the_sweep_with_the_turn_sweep(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-safety-nets"]
    assert entry["task"] == "tables.tasks.sweep_safety_nets"
    assert tasks.SAFETY_NETS.index(tasks.deal_due_hands) > tasks.SAFETY_NETS.index(
        tasks.sweep_overdue_turns
    )  # a hand that a timeout ends is dealt again by the same sweep


# ------------------------------------------------- a real worker and Redis


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_deals_the_next_hand_after_the_delay(
    start_worker: Callable[..., Worker], settings: Any, seated: Table
) -> None:
    start_worker(env={"CARDROOM_NEXT_HAND_DELAY_SECONDS": "1"})  # the worker waits it out too
    settings.CARDROOM_NEXT_HAND_DELAY_SECONDS = 1
    hand = services.hand_start(table_id=seated.pk)  # commits: no transaction here
    ended = time.monotonic()  # just before: the task is sent as the fold commits
    fold_to_bring_in(hand)
    deadline = ended + 20  # the worker's start-up plus the one-second pause
    while not seated.hands.filter(ended_at__isnull=True).exists():
        assert time.monotonic() < deadline, "no next hand was dealt"
        time.sleep(0.1)
    assert time.monotonic() - ended >= 1


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_holding_the_next_hands_task_is_restarted_and_beat_deals_it(
    start_worker: Callable[..., Worker], seated: Table
) -> None:
    first = start_worker(beat=True)
    hand = services.hand_start(table_id=seated.pk)
    fold_to_bring_in(hand)  # sends start_next_hand, due after the 3-second pause
    task = "tables.tasks.start_next_hand["
    wait_until(lambda: task in first.log.read_text(), "the worker to take the task")
    # It held the task, unacknowledged: Redis gives it to no worker for an hour.
    first.kill()
    assert running(seated) is None
    second = start_worker(beat=True, queue=first.queue)
    restarted = time.monotonic()
    dealt = wait_until(lambda: running(seated), "the next hand after the restart")
    assert dealt.number == hand.number + 1
    assert time.monotonic() - restarted < 10  # the pause, and a sweep or two
    # Beat's sweep dealt it, not the lost task.
    sweep = "tables.tasks.deal_due_hands"
    wait_until(lambda: 1 in second.swept(sweep), "the sweep to report its deal")
    assert task not in second.log.read_text()
