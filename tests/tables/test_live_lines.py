"""The live log's lines as snapshots carry them: each change's new events
told once per process (``tables.selectors.snapshots.LIVE_LINES``), in the
words a telling of the whole hand so far gives them.

Personas: alice (seat 1) and bob (seat 2) play heads up; the lines are told
from an observer's events, so the observer's snapshots are the ones read.
"""

from __future__ import annotations

import random
import re
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


def names(hand: Hand) -> list[str]:
    """The live log's names for the hand's players, in engine order."""
    usernames = {1: "alice", 2: "bob"}
    return [f"Seat {p['seat']} ({usernames[p['seat']]})" for p in hand.seating["players"]]


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


def play_to_the_end_leaving(table: Table, hand: Hand, *leavers: User) -> Cursor | None:
    """Each of ``leavers`` ticks "Leave after this hand"; the hand is played out.
    The cursor of an observer who followed it up to the first move."""
    _, cursor = observed(table, None)
    for player in leavers:
        assert services.seat_leave(table_id=table.pk, player_id=player.pk) is None
    while not hand.is_finished:
        move(hand)
        hand.refresh_from_db()
    return cursor


def test_players_who_left_after_the_hand_keep_their_names_in_every_line_of_it(
    seated: Table, alice: User, bob: User
) -> None:
    hand = services.hand_start_if_ready(table_id=seated.pk)
    assert hand is not None
    cursor = play_to_the_end_leaving(seated, hand, alice, bob)
    assert not seated.seat_set.exists()  # both stood up as it ended
    events, _ = observed(seated, cursor)
    state = HandState.from_dict(hand.state)
    told = whole(state, names(hand))
    assert [m["text"] for m in events] == told[len(state.events) - len(events) :]
    assert [m["text"] for m in observed(seated, None)[0]] == told
    assert any(re.search(r"Seat \d \((alice|bob)\) wins", line or "") for line in told)
    assert not [line for line in told if re.search(r"Seat \d(?! \((alice|bob)\))", line or "")]
    # The page's own words (the last hand's box, whose turn it was) name them too.
    snapshot = build_snapshot(read_table(seated.pk), None, None, with_events=False)
    usernames = {1: "alice", 2: "bob"}
    assert snapshot.payload["hand_info"]["names"] == [
        usernames[entry["seat"]] for entry in hand.seating["players"]
    ]


def test_a_hand_kept_before_names_were_names_its_players_from_their_accounts(
    seated: Table, alice: User
) -> None:
    hand = services.hand_start_if_ready(table_id=seated.pk)
    assert hand is not None
    for entry in hand.seating["players"]:
        del entry["name"]  # as hands were stored before
    hand.save(update_fields=["seating"])
    play_to_the_end_leaving(seated, hand, alice)
    state = HandState.from_dict(hand.state)
    assert [m["text"] for m in observed(seated, None)[0]] == whole(state, names(hand))
    snapshot = build_snapshot(read_table(seated.pk), None, None, with_events=False)
    assert sorted(snapshot.payload["hand_info"]["names"]) == ["alice", "bob"]


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
