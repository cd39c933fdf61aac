"""Data steps of migrations: stored hands keep meaning what they meant."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.apps import apps
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Hand, HandResult, Seat, Stakes, Table
from tables.rules import HandState
from tables.selectors.history import ReplayMismatch, hand_access, hand_replay
from tables.services.clock import timeout_due
from tests.tables.clock import T0, act, expire, seconds, start
from tests.tables.test_history_access import (
    MUCK_DECK,
    deal_next,
    folds,
    make_staff,
    play_hand,
    seat,
    showdown,
)

pytestmark = pytest.mark.django_db

ALL_IN_OPENER = importlib.import_module("tables.migrations.0007_all_in_opener")
TURN_CLOCK = importlib.import_module("tables.migrations.0010_turn_clock")
DEALING_ORDER = importlib.import_module("tables.migrations.0013_hand_result_cards_in_dealing_order")
SEAT_AWAY = importlib.import_module("tables.migrations.0022_seat_away_and_sitting_out_next")


def stored_before_one_list(state: dict[str, Any]) -> dict[str, Any]:
    """A stored hand as the engine saved it before each player's cards were one
    list: the down cards and the upcards apart, no script step, no last raise,
    no record of what each player matched, no spread-limit raise option."""
    dropped = ("cards", "step", "raise_size", "acted_bet")
    old = {k: v for k, v in state.items() if k not in dropped}
    old["config"] = {k: v for k, v in state["config"].items() if k != "raise_at_least_last"}
    old["hole"] = [[card for card, up in cards if not up] for cards in state["cards"]]
    old["up"] = [[card for card, up in cards if up] for cards in state["cards"]]
    return old


def apps_at(migration: str) -> Apps:
    """The tables app's models as they were just after ``migration``."""
    return MigrationLoader(connection).project_state(("tables", migration)).apps


def test_hands_stored_before_the_all_in_opener_option_keep_the_old_rule(
    table, alice, bob, monkeypatch
):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    old, new = play_hand(table, showdown), play_hand(table, showdown)
    del old.state["config"]["all_in_opener"]  # as hands were stored before 0007
    old.save(update_fields=["state"])

    ALL_IN_OPENER.keep_the_old_rule(apps, None)

    old.refresh_from_db()
    assert old.state["config"]["all_in_opener"] == "best_still_betting"
    assert Hand.objects.get(pk=new.pk).state["config"]["all_in_opener"] == "next_seat"
    # The hand page replays the stored hand from its deck, and still can.
    replay = hand_replay(hand_access(alice, old), ["bob", "alice"])
    assert replay.final["phase"] == "over"


def test_banks_the_old_clock_spent_are_whole_again_after_the_turn_clock_change(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    Seat.objects.filter(player=alice).update(time_bank_ms=0)  # spent, never to be refilled
    Seat.objects.filter(player=bob).update(time_bank_ms=12_345)

    TURN_CLOCK.make_every_bank_whole(apps, None)

    assert list(Seat.objects.values_list("time_bank_ms", flat=True)) == [None, None]


# ------------------------------------------- 0013: cards in dealing order

# alice's seven-card stud hand as 0004 stored it, and as it was dealt.
APART = {"down": ["As", "Kd", "Qh"], "up": ["7c", "7d", "2s", "9h"]}
AS_DEALT = [
    {"card": "As", "up": False},
    {"card": "Kd", "up": False},
    {"card": "7c", "up": True},
    {"card": "7d", "up": True},
    {"card": "2s", "up": True},
    {"card": "9h", "up": True},
    {"card": "Qh", "up": False},
]


def test_the_first_two_down_cards_come_before_the_upcards_and_the_last_after():
    assert DEALING_ORDER.in_dealing_order(APART) == AS_DEALT


def test_a_hand_folded_on_3rd_street_is_its_two_down_cards_then_its_door_card():
    folded = {"down": ["As", "Kd"], "up": ["7c"]}
    assert [held["up"] for held in DEALING_ORDER.in_dealing_order(folded)] == [False, False, True]


def test_splitting_the_cards_again_gives_back_what_was_stored():
    assert DEALING_ORDER.down_and_up(AS_DEALT) == APART
    assert DEALING_ORDER.in_dealing_order(DEALING_ORDER.down_and_up(AS_DEALT)) == AS_DEALT


def test_cards_already_in_the_new_shape_are_left_as_they_are():
    assert DEALING_ORDER.in_dealing_order(AS_DEALT) is AS_DEALT
    assert DEALING_ORDER.down_and_up(APART) is APART


def test_the_step_converts_every_stored_copy_and_the_reverse_step_restores_it(
    table, alice, bob, monkeypatch
):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    play_hand(table, showdown)
    # Copies of hand 1 as 0004 stored them (the cards made up), and then an empty one.
    HandResult.objects.filter(player=bob).update(
        cards={"down": ["Ac", "Ad", "5c"], "up": APART["up"]}
    )
    HandResult.objects.filter(player=alice).update(cards=APART)
    play_hand(table, showdown)  # bob, now engine player 1, is dealt alice's cards of hand 1
    HandResult.objects.filter(hand__number=2, player=alice).update(cards={})
    written = HandResult.objects.get(hand__number=2, player=bob).cards  # by the hand's end

    DEALING_ORDER.forwards(apps_at("0013_hand_result_cards_in_dealing_order"), None)

    by_hand = cards_by_hand()
    assert by_hand[1, alice.pk] == AS_DEALT
    assert [held["card"] for held in by_hand[1, bob.pk]] == ["Ac", "Ad", *APART["up"], "5c"]
    assert by_hand[2, alice.pk] == []
    assert by_hand[2, bob.pk] == written

    DEALING_ORDER.backwards(apps_at("0012_seat_chips_and_waiting_list"), None)

    restored = cards_by_hand()
    assert restored[1, alice.pk] == APART
    assert restored[1, bob.pk] == {"down": ["Ac", "Ad", "5c"], "up": APART["up"]}
    assert restored[2, alice.pk] == {"down": [], "up": []}
    assert restored[2, bob.pk] == {"down": ["3d", "4h", "8c"], "up": ["2c", "7s", "9h", "Jd"]}


def cards_by_hand() -> dict[tuple[int, int], Any]:
    results = HandResult.objects.select_related("hand")
    return {(r.hand.number, r.player_id): r.cards for r in results}


@pytest.mark.parametrize("how", ["showdown", "fold"])
def test_a_hand_stored_before_the_one_card_list_still_replays_as_it_was_played(
    table, alice, bob, monkeypatch, how
):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    # Shown down, the hand ends on the script's last step; bob folding to a
    # completion leaves a raise in the round: neither was stored then.
    hand = play_hand(table, showdown if how == "showdown" else folds(bob))
    now = hand_replay(hand_access(alice, hand), ["bob", "alice"])
    Hand.objects.filter(pk=hand.pk).update(state=stored_before_one_list(hand.state))
    hand.refresh_from_db()

    before = hand_replay(hand_access(alice, hand), ["bob", "alice"])

    assert before.steps == now.steps
    assert [s.lines for s in before.sections] == [s.lines for s in now.sections]


def test_an_edited_hand_stored_before_the_one_card_list_is_refused(table, alice, bob, monkeypatch):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(table, showdown)
    old = stored_before_one_list(hand.state)
    old["stacks"][0] += 1  # as if the stored result had been edited
    Hand.objects.filter(pk=hand.pk).update(state=old)
    hand.refresh_from_db()

    with pytest.raises(ReplayMismatch, match="does not replay to its stored state"):
        hand_replay(hand_access(alice, hand), ["bob", "alice"])


def test_the_admin_reads_a_hand_stored_before_the_one_card_list(table, alice, bob, monkeypatch):
    seat(table, (alice, 1), (bob, 2))
    deal_next(monkeypatch, MUCK_DECK)
    hand = play_hand(table, showdown)
    Hand.objects.filter(pk=hand.pk).update(state=stored_before_one_list(hand.state))
    assert HandState.from_dict(Hand.objects.get(pk=hand.pk).state).cards  # upgraded on load
    client = Client()
    client.force_login(make_staff())

    page = client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()

    assert "<td>bob</td><td><code>[Ac] [Ad] Ah Kc Kd Qs [5c]</code></td>" in page


def test_seats_away_when_their_time_began_to_be_kept_count_from_the_migration(table, alice, bob):
    seat(table, (alice, 1), (bob, 2))
    Seat.objects.filter(player=alice).update(state=Seat.State.DISCONNECTED, away_since=None)
    before = timezone.now()
    SEAT_AWAY.away_from_now(apps_at("0022_seat_away_and_sitting_out_next"), None)
    assert Seat.objects.get(player=alice).away_since >= before
    assert Seat.objects.get(player=bob).away_since is None  # playing: not away


# ------------------------------------------- 0023: one record of the moves

BEFORE_ONE_LOG = "0022_seat_away_and_sitting_out_next"
# When the rows say the moves were made: not when the test played them, and
# finer than the milliseconds the action list keeps.
ROW_TIMES = [datetime(2025, 6, 1, 9, 30, n, 123_456, tzinfo=UTC) for n in range(10)]


def migrate_to(targets: list[tuple[str, str]] | None = None) -> None:
    """Migrate to ``targets`` (default: every app's latest), with an executor
    made now, so it knows what is applied."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


@pytest.fixture
def migrating(transactional_db: None) -> Iterator[None]:
    """A test that migrates back and forth; it leaves the database at the latest."""
    yield
    migrate_to()


def play_a_clock_check(table: Table) -> Hand:
    """Heads-up: a bring-in and its call, then on 4th street the first to act
    leaves it to the clock, which checks (or protects them, under the all-in
    policy); a bet and a fold end the hand if it goes on."""
    hand = act(start(table), "bring_in", T0 + seconds(1))
    expired = expire(act(hand, "call", T0 + seconds(2)))
    assert expired is not None
    if expired.is_finished:
        return expired
    return act(act(expired, "bet", T0 + seconds(40), amount=5), "fold", T0 + seconds(41))


def stored_before_one_log(state: dict[str, Any]) -> dict[str, Any]:
    """A hand as stored before the engine marked the clock's moves and timed
    them: its rows held both."""

    def unmarked(entry: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in entry.items() if key not in ("at", "timed_out")}

    return {
        **state,
        "actions": [unmarked(action) for action in state["actions"]],
        "events": [unmarked(event) for event in state["events"]],
    }


def as_before_one_log(hand: Hand, clock: set[int], state: dict[str, Any] | None = None) -> None:
    """Store ``hand`` as it was before 0023 (at 0022): its state without the
    times and the marks (or ``state``), and a row per move, made at ROW_TIMES,
    the moves numbered in ``clock`` made by the clock. The hand is played at the
    latest schema, so going back has already rebuilt rows for it: they go first."""
    rows = apps_at(BEFORE_ONE_LOG).get_model("tables", "HandAction").objects
    rows.filter(hand_id=hand.pk).delete()
    for move, at in zip(hand.moves(), ROW_TIMES, strict=False):
        rows.create(
            hand_id=hand.pk,
            seq=move.number,
            seat_number=move.seat,
            player_id=move.player_id,
            kind=move.kind,
            amount=move.amount,
            timed_out=move.number in clock,
        )
        rows.filter(hand_id=hand.pk, seq=move.number).update(created_at=at)  # not auto_now_add's
    Hand.objects.filter(pk=hand.pk).update(state=state or stored_before_one_log(hand.state))


def timed(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with its moves timed as their rows were, to the millisecond."""
    actions = [
        {**action, "at": at.isoformat(timespec="milliseconds")}
        for action, at in zip(state["actions"], ROW_TIMES, strict=False)
    ]
    return {**state, "actions": actions}


@pytest.mark.django_db(transaction=True)
def test_each_move_takes_its_rows_time_and_the_clocks_move_its_mark(
    migrating: None, seated: Table
) -> None:
    hand = play_a_clock_check(seated)
    migrate_to([("tables", BEFORE_ONE_LOG)])
    marked = hand.state  # as the services store it now: the check marked, action and event
    as_before_one_log(hand, clock={3})

    migrate_to()

    hand.refresh_from_db()
    assert hand.state == timed(marked)
    assert HandState.replay(hand.state).to_dict() == hand.state
    at = [time.replace(microsecond=123_000) for time in ROW_TIMES]
    assert [(m.number, m.kind, m.timed_out, m.at) for m in hand.moves()] == [
        (1, "bring_in", False, at[0]),
        (2, "call", False, at[1]),
        (3, "check", True, at[2]),
        (4, "bet", False, at[3]),
        (5, "fold", False, at[4]),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_clocks_move_whose_event_is_not_found_is_left_unmarked(
    migrating: None, seated: Table
) -> None:
    hand = play_a_clock_check(seated)
    migrate_to([("tables", BEFORE_ONE_LOG)])
    # Stored with no event for the check, so no event can be marked as its.
    old = stored_before_one_log(hand.state)
    old["events"] = [event for event in old["events"] if event["type"] != "check"]
    as_before_one_log(hand, clock={3}, state=old)

    migrate_to()

    hand.refresh_from_db()
    assert hand.state == timed(old)  # timed, and otherwise as it was stored
    assert [m.timed_out for m in hand.moves()] == [False] * 5


@pytest.mark.django_db(transaction=True)
def test_a_protection_the_clock_made_is_marked_and_still_replays(
    migrating: None, stakes: Stakes, seated: Table
) -> None:
    stakes.timeout_policy = Stakes.TimeoutPolicy.ALL_IN
    stakes.save(update_fields=["timeout_policy"])
    hand = play_a_clock_check(seated)  # heads-up, 3 chips in each: protected
    migrate_to([("tables", BEFORE_ONE_LOG)])
    assert [m.kind for m in hand.moves()] == ["bring_in", "call", "protect"]
    as_before_one_log(hand, clock={3})

    migrate_to()

    hand.refresh_from_db()
    protect = next(event for event in hand.state["events"] if event["type"] == "protect")
    assert hand.state["actions"][2]["timed_out"] is protect["timed_out"] is True
    assert HandState.replay(hand.state).to_dict() == hand.state


@pytest.mark.django_db(transaction=True)
def test_going_back_rebuilds_a_row_per_move_from_the_action_list(
    migrating: None, seated: Table
) -> None:
    hand = play_a_clock_check(seated)
    moves = hand.moves()

    migrate_to([("tables", BEFORE_ONE_LOG)])

    rows = apps_at(BEFORE_ONE_LOG).get_model("tables", "HandAction").objects
    assert list(
        rows.filter(hand_id=hand.pk)
        .order_by("seq")
        .values_list("seq", "seat_number", "player_id", "kind", "amount", "timed_out", "created_at")
    ) == [(m.number, m.seat, m.player_id, m.kind, m.amount, m.timed_out, m.at) for m in moves]
    assert [m.timed_out for m in moves] == [False, False, True, False, False]
    assert [m.at for m in moves] == [
        T0 + seconds(1),
        T0 + seconds(2),
        # The turn's expiry (its action time and countdown), and the timeout's wait.
        timeout_due(T0 + seconds(32)),
        T0 + seconds(40),
        T0 + seconds(41),
    ]


# ---------------------------------------------------------------- the state's compression

BEFORE_LZ4 = "0031_table_reopened_at"


def compressed_with(table: str, column: str) -> str:
    """How PostgreSQL compresses what is written to ``column`` of ``table``:
    "lz4", "pglz", or "" for the server's default."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attname = %s",
            [table, column],
        )
        (method,) = cursor.fetchone()
    return {"l": "lz4", "p": "pglz", "": ""}[method]


@pytest.mark.django_db(transaction=True)
def test_a_hands_state_is_written_with_lz4_and_going_back_restores_the_servers_default(
    migrating: None, seated: Table
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL compresses a column")
    assert compressed_with("tables_hand", "state") == "lz4"
    hand = play_a_clock_check(seated)
    # A state past PostgreSQL's threshold (about 2 kB) is stored compressed, with lz4.
    Hand.objects.filter(pk=hand.pk).update(state={**hand.state, "padding": list(range(2000))})
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(state) FROM tables_hand WHERE id = %s", [hand.pk]
        )
        assert cursor.fetchone() == ("lz4",)

    migrate_to([("tables", BEFORE_LZ4)])

    assert compressed_with("tables_hand", "state") == ""


BEFORE_GAME_IN_INDEX = "0033_hot_updates"


def hand_indexes() -> dict[str, list[str]]:
    """The hand table's indexes, each with its columns (key and included), as
    the database has them."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, "tables_hand")
    return {name: each["columns"] for name, each in found.items() if each["index"]}


@pytest.mark.django_db(transaction=True)
def test_the_finished_hands_index_takes_the_game_and_going_back_leaves_it_out(
    migrating: None,
) -> None:
    # PostgreSQL builds the new index beside the old one (SQLite makes it
    # again); either way one index of that name is left, and no other.
    after = hand_indexes()
    migrate_to([("tables", BEFORE_GAME_IN_INDEX)])
    before = hand_indexes()
    migrate_to()

    assert hand_indexes() == after
    assert {name for name in after if "covering" in name} == {"hand_ended_covering"}
    assert before.keys() == after.keys()
    if connection.vendor == "postgresql":  # SQLite's introspection lists no included column
        assert after["hand_ended_covering"] == ["ended_at", "id", "table_id", "variant"]
        assert before["hand_ended_covering"] == ["ended_at", "id", "table_id"]
