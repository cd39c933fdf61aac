"""The live log's lines as snapshots carry them: each change's new events
told once per process (``tables.selectors.snapshots.LIVE_LINES``), in the
words a telling of the whole hand so far gives them.

Personas: alice (seat 1) and bob (seat 2) play heads up; the lines are told
from an observer's events, so the observer's snapshots are the ones read.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from accounts.models import User
from tables import services
from tables.models import Hand, Table
from tables.rules import GameConfig, HandState
from tables.rules.cards import FULL_DECK
from tables.rules.narration import Narrator
from tables.rules.views import events_for
from tables.selectors.snapshots import Cursor, LiveLines, build_snapshot, read_table
from tests.tables.conftest import bet_and_call, player_to_act

pytestmark = pytest.mark.django_db


def whole(state: HandState, names: list[str]) -> list[str | None]:
    """Every event so far told at once: what each change's lines must match."""
    return [told.text for told in Narrator(names, state).tell(events_for(state))]


def observed(table: Table, cursor: Cursor | None) -> tuple[list[dict[str, Any]], Cursor | None]:
    """The events an observer following the table from ``cursor`` is sent now."""
    snapshot = build_snapshot(read_table(table.pk), None, cursor, with_events=True)
    return snapshot.events, snapshot.cursor


def move(hand: Hand) -> None:
    hand.refresh_from_db()
    kind, amount = bet_and_call(HandState.from_dict(hand.state))
    player = player_to_act(hand)
    services.hand_act(
        hand_id=hand.pk, player_id=player, kind=kind, amount=amount, version=hand.version
    )


def names(hand: Hand, gone: tuple[int, ...] = ()) -> list[str]:
    """The live log's names for the hand's players, in engine order; ``gone``: seats left."""
    usernames = {1: "alice", 2: "bob"}
    return [
        f"Seat {p['seat']}" + ("" if p["seat"] in gone else f" ({usernames[p['seat']]})")
        for p in hand.seating["players"]
    ]


def test_each_changes_lines_are_the_whole_hand_so_far_told_at_once(seated: Table) -> None:
    hand = services.hand_start_if_ready(table_id=seated.pk)
    assert hand is not None
    events, cursor = observed(seated, None)
    while True:
        hand.refresh_from_db()
        state = HandState.from_dict(hand.state)
        first = len(state.events) - len(events)  # the first event not sent before
        assert [m["text"] for m in events] == whole(state, names(hand))[first:]
        assert [m["index"] for m in events] == list(range(first, len(state.events)))
        if state.finished:
            break
        move(hand)
        events, cursor = observed(seated, cursor)
    # A page opened now gets the whole hand, in the same words.
    assert [m["text"] for m in observed(seated, None)[0]] == whole(state, names(hand))


def test_a_player_who_left_is_named_by_seat_in_every_line_after_the_hand(
    seated: Table, alice: User
) -> None:
    hand = services.hand_start_if_ready(table_id=seated.pk)
    assert hand is not None
    _, cursor = observed(seated, None)
    services.seat_leave(table_id=seated.pk, player_id=alice.pk)  # she goes when it ends
    while not hand.is_finished:
        move(hand)
        hand.refresh_from_db()
    events, _ = observed(seated, cursor)
    state = HandState.from_dict(hand.state)
    gone = names(hand, gone=(1,))
    assert [m["text"] for m in events] == whole(state, gone)[len(state.events) - len(events) :]
    assert [m["text"] for m in observed(seated, None)[0]] == whole(state, gone)


def test_a_hand_whose_events_are_not_the_ones_told_is_told_afresh() -> None:
    # As when a test database gives a new hand an id this process told before.
    lines, players = LiveLines(), ["a", "b"]
    hand = SimpleNamespace(pk=1, deck_commitment="same")
    config = GameConfig(ante=1, bring_in=2, small_bet=5, big_bet=10)
    for seed in (1, 2):
        deck = list(FULL_DECK)
        random.Random(seed).shuffle(deck)
        state = HandState.new(config, [100, 100], deck)
        assert lines.between(hand, state, players, 0) == whole(state, players)
