"""The next hand is dealt a few seconds after one ends, by a Celery task.

Alice (seat 1) and bob (seat 2) play heads up; a hand ends when one of them
folds. Most tests stand in for the broker by recording what would be sent and
running the task by hand; one proves a real worker deals the next hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from tables import consumers, services, tasks
from tables.models import Hand, Table
from tests.tables.conftest import Worker, engine, player_to_act


@pytest.fixture
def seated(table: Table, alice: User, bob: User) -> Table:
    """Alice and bob, heads up with 200 chips each."""
    for seat_number, player in enumerate((alice, bob), start=1):
        services.seat_take(
            table_id=table.pk, player_id=player.pk, seat_number=seat_number, buy_in=200
        )
    return table


@pytest.fixture
def sent(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """A broker is configured; the start_next_hand tasks sent, as (args, options)."""
    settings.CARDROOM_TURN_TASKS = True
    settings.CARDROOM_NEXT_HAND_DELAY_SECONDS = 3
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.start_next_hand, "apply_async", lambda args, **options: calls.append((args, options))
    )
    monkeypatch.setattr(services, "_schedule_timeout", lambda hand: None)  # not under test
    return calls


def move(hand: Hand, kind: str) -> None:
    """The player to act makes ``kind`` through the consumer's code path."""
    hand.refresh_from_db()
    consumers.do_act(
        hand.table_id,
        player_to_act(hand),
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
    Hand.objects.filter(pk=hand.pk).update(turn_expires_at=hand.started_at)  # long expired
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


def test_a_broker_that_refuses_the_task_gets_the_hand_dealt_at_once(
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
        fold_to_bring_in(hand)
    assert seated.hands.filter(ended_at__isnull=True).count() == 1


def test_the_task_deals_the_next_hand(seated: Table, sent: list) -> None:
    hand = services.hand_start(table_id=seated.pk)
    fold_to_bring_in(hand)
    assert tasks.start_next_hand(seated.pk) is True
    assert seated.hands.filter(ended_at__isnull=True).get().number == hand.number + 1


def test_the_task_deals_nothing_at_a_closed_table(seated: Table, sent: list) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    services.table_close(table_id=seated.pk)
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 1


def test_the_task_deals_nothing_with_one_player_left_in(
    seated: Table, sent: list, bob: User
) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    services.seat_sit_out(table_id=seated.pk, player_id=bob.pk)
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 1


def test_a_repeated_task_deals_only_one_hand(seated: Table, sent: list) -> None:
    fold_to_bring_in(services.hand_start(table_id=seated.pk))
    assert tasks.start_next_hand(seated.pk) is True
    assert tasks.start_next_hand(seated.pk) is False
    assert seated.hands.count() == 2


def test_the_task_for_a_missing_table_does_nothing(db: None) -> None:
    assert tasks.start_next_hand(987654) is False


def test_the_first_hand_still_starts_when_the_second_player_sits(
    table: Table, alice: User, bob: User, sent: list
) -> None:
    consumers.do_sit(table.pk, alice.pk, seat_number=1, buy_in=200)
    consumers.do_sit(table.pk, bob.pk, seat_number=2, buy_in=200)
    assert table.hands.filter(ended_at__isnull=True).count() == 1
    assert sent == []


# ------------------------------------------------- a real worker and Redis


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_deals_the_next_hand_after_the_delay(
    start_worker: Callable[..., Worker], settings: Any, seated: Table
) -> None:
    start_worker()
    settings.CARDROOM_NEXT_HAND_DELAY_SECONDS = 1
    hand = services.hand_start(table_id=seated.pk)  # commits: no transaction here
    ended = time.monotonic()  # just before: the task is sent as the fold commits
    fold_to_bring_in(hand)
    deadline = ended + 20  # the worker's start-up plus the one-second pause
    while not seated.hands.filter(ended_at__isnull=True).exists():
        assert time.monotonic() < deadline, "no next hand was dealt"
        time.sleep(0.1)
    assert time.monotonic() - ended >= 1
