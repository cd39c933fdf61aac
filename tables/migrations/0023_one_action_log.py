"""One record of a hand's moves: the engine's action list in ``Hand.state``.

Each move was also a ``HandAction`` row. What only the rows held moves into the
action list before they go: the time of each move (``"at"``) and, for hands
played before the engine marked a move the turn clock made, that mark, on the
move's action and on its event, as the engine marks them now. A mark is copied
only where the move's event is found (the betting event of the same kind and
player, counted in order); a hand whose event isn't found keeps its record as
it was, so that it still replays to what was stored.

Going back rebuilds the rows from the action lists.
"""

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils.dateparse import parse_datetime

BATCH = 500
# The moves that each tell exactly one event of their own kind, in order
# (tables.rules.narration.BETTING, copied so that this migration keeps
# working whatever that module becomes).
BETTING = frozenset({"bring_in", "complete", "bet", "raise", "call", "check", "fold", "protect"})


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), BATCH):
        yield ids[start : start + BATCH]


def into_the_action_lists(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    HandAction = apps.get_model("tables", "HandAction")
    hand_ids = sorted(set(HandAction.objects.values_list("hand_id", flat=True)))
    for batch in _batches(hand_ids):
        moves: dict[int, list[tuple[int, datetime, bool]]] = {}
        rows = HandAction.objects.filter(hand_id__in=batch).order_by("hand_id", "seq")
        for hand_id, seq, at, timed_out in rows.values_list(
            "hand_id", "seq", "created_at", "timed_out"
        ):
            moves.setdefault(hand_id, []).append((seq, at, timed_out))
        hands = list(Hand.objects.filter(pk__in=batch).only("pk", "state"))
        for hand in hands:
            _copy_moves(hand.state, moves.get(hand.pk, []))
        Hand.objects.bulk_update(hands, ["state"])


def _copy_moves(state: dict[str, Any], moves: list[tuple[int, datetime, bool]]) -> None:
    actions = state.get("actions", [])
    for seq, at, timed_out in moves:
        if not 0 < seq <= len(actions):
            continue
        action = actions[seq - 1]
        action.setdefault("at", at.isoformat(timespec="milliseconds"))
        if timed_out and not action.get("timed_out"):
            _mark_timeout(state, seq - 1)


def _mark_timeout(state: dict[str, Any], index: int) -> None:
    actions, events = state["actions"], state.get("events", [])
    action = actions[index]
    if action.get("kind") not in BETTING:
        return
    count = sum(1 for earlier in actions[:index] if earlier.get("kind") in BETTING)
    betting = [event for event in events if event.get("type") in BETTING]
    if count >= len(betting):
        return
    event = betting[count]
    if event.get("type") != action["kind"] or event.get("player") != action.get("player"):
        return
    action["timed_out"] = event["timed_out"] = True


def into_rows(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    HandAction = apps.get_model("tables", "HandAction")
    hand_ids = list(Hand.objects.order_by("pk").values_list("pk", flat=True))
    for batch in _batches(hand_ids):
        rows = []
        for hand in Hand.objects.filter(pk__in=batch).only("pk", "state", "seating", "started_at"):
            players = hand.seating["players"]
            for seq, action in enumerate(hand.state.get("actions", []), start=1):
                player = action.get("player")
                if player is None:
                    continue
                at = action.get("at")
                rows.append(
                    HandAction(
                        hand_id=hand.pk,
                        seq=seq,
                        seat_number=players[player]["seat"],
                        player_id=players[player]["player"],
                        kind=action["kind"],
                        amount=action.get("amount"),
                        timed_out=action.get("timed_out") is True,
                        created_at=(at and parse_datetime(at)) or hand.started_at,
                    )
                )
        HandAction.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0022_seat_away_and_sitting_out_next"),
    ]

    operations = [
        # Rows written while going back are given their move's time.
        migrations.AlterField(
            model_name="handaction",
            name="created_at",
            field=models.DateTimeField(),
        ),
        migrations.RunPython(into_the_action_lists, into_rows),
        migrations.DeleteModel(name="HandAction"),
    ]
