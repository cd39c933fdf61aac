"""bench/history.py's fill: its rows are the ones the services write for finished hands.

30 hands go into the test database, and each is checked against its own
engine state and against what ``tables.services`` would have written.
"""

from __future__ import annotations

import datetime
import importlib.util
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.db.models import Count

from tables.models import Hand, HandResult, RakeEntry
from tables.rules import HandState
from tables.rules.cards import card_str
from tables.services import deck_commitment
from tests.tables.conftest import player_days, player_days_from_results

HANDS = 30
END = datetime.datetime(2025, 3, 31, 12, tzinfo=datetime.UTC)


def load_script(name: str) -> ModuleType:
    """A script of bench/ as a module: bench/ is a folder of scripts, not a package."""
    path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


bench_history = load_script("history")


@pytest.fixture
def filled(db: None) -> Any:
    return bench_history.fill(HANDS, seed=7, end=END)


def hands() -> list[Hand]:
    return list(Hand.objects.select_related("table__stakes").order_by("started_at", "pk"))


def test_it_writes_the_hands_it_says(filled: Any) -> None:
    assert filled.hands == Hand.objects.count() == HANDS
    assert filled.actions == sum(len(hand.moves()) for hand in hands())
    assert filled.results == HandResult.objects.count()


def test_every_hand_is_finished_within_the_days_before_the_end(filled: Any) -> None:
    for hand in hands():
        assert hand.is_finished and HandState.from_dict(hand.state).finished
        assert END - datetime.timedelta(days=121) <= hand.started_at <= hand.ended_at < END
        assert hand.turn_deadline is None and hand.turn_expires_at is None


def test_each_state_replays_from_its_deck_and_moves(filled: Any) -> None:
    for hand in hands():
        replayed = HandState.replay(hand.state)

        assert replayed.to_dict() == hand.state
        assert hand.state["deck"] == hand.deck
        assert hand.deck_commitment == deck_commitment(hand.deck_salt, hand.deck)


def test_the_stakes_are_the_tables(filled: Any) -> None:
    for hand in hands():
        assert hand.state["config"] == hand.table.stakes.game_config().to_dict()


def test_every_action_is_a_timed_move_one_version_each(filled: Any) -> None:
    timed_out = 0
    for hand in hands():
        moves = hand.moves()

        assert hand.version == len(moves) == len(hand.state["actions"])
        assert [move.number for move in moves] == list(range(1, len(moves) + 1))
        for move in moves:
            if move.timed_out:  # what the clock does: check if free, else fold
                assert move.kind in ("check", "fold", "bring_in")
                timed_out += 1
        times = [move.at for move in moves if move.at is not None]
        assert len(times) == len(moves) and times == sorted(times)
        assert all(hand.started_at < t <= hand.ended_at for t in times)
    assert timed_out  # some turns were left to the clock


def test_results_are_the_engines_stacks_and_sum_to_minus_the_rake(filled: Any) -> None:
    for hand in hands():
        state = HandState.from_dict(hand.state)
        results = list(hand.results.order_by("seat_number"))
        seats = sorted(hand.seating["players"], key=lambda entry: entry["seat"])
        by_seat = {entry["seat"]: i for i, entry in enumerate(hand.seating["players"])}

        assert [(r.seat_number, r.player_id) for r in results] == [
            (entry["seat"], entry["player"]) for entry in seats
        ]
        for r in results:
            assert r.starting_stack == state.starting_stacks[by_seat[r.seat_number]]
            assert r.final_stack == state.stacks[by_seat[r.seat_number]]
            assert r.net == r.final_stack - r.starting_stack
            player = by_seat[r.seat_number]
            assert r.cards == [
                {"card": card_str(card), "up": up} for card, up in state.cards[player]
            ]
        assert sum(r.net for r in results) == -hand.rake_entry.amount


def test_each_hand_has_its_rake_entry_taken_when_it_ended(filled: Any) -> None:
    assert RakeEntry.objects.count() == HANDS
    for hand in hands():
        entry = hand.rake_entry

        assert entry.amount == hand.state["result"]["rake"]
        assert (entry.table_id, entry.stakes_id) == (hand.table_id, hand.table.stakes_id)
        assert entry.created_at == hand.ended_at


def test_the_activity_summary_agrees_with_the_results(filled: Any) -> None:
    assert player_days() == player_days_from_results()


def test_hands_at_a_table_follow_one_another_with_stacks_carried_over(filled: Any) -> None:
    by_table: dict[int, list[Hand]] = defaultdict(list)
    for hand in hands():
        by_table[hand.table_id].append(hand)
    for table_hands in by_table.values():
        assert [h.number for h in table_hands] == list(range(1, len(table_hands) + 1))
        for before, after in zip(table_hands, table_hands[1:], strict=False):
            assert before.ended_at < after.started_at
            finals = {r.player_id: r.final_stack for r in before.results.all()}
            for result in after.results.all():
                # In a session, someone who stayed carries on with what they had.
                if result.player_id in finals and after.started_at - before.ended_at < GAP:
                    assert result.starting_stack == finals[result.player_id]


# Hands further apart than this are in different sessions, where buy-ins are new.
GAP = datetime.timedelta(minutes=1)


def test_players_are_two_to_eight_with_one_seat_each(filled: Any) -> None:
    for hand in hands():
        players = hand.seating["players"]

        assert 2 <= len(players) <= 8
        assert (
            len({p["player"] for p in players}) == len({p["seat"] for p in players}) == len(players)
        )
        assert hand.seating["dealer"] in {p["seat"] for p in players}


def test_the_stakes_are_every_game(filled: Any) -> None:
    games = set(
        Hand.objects.values("table__stakes__variant")
        .annotate(n=Count("id"))
        .values_list("table__stakes__variant", flat=True)
    )

    assert games == {"stud", "razz", "stud8"}
