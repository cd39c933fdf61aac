"""Each hand records the game it was dealt, in fields the history, its filters,
the exports and the reports can query, so that changing a table's stakes (or,
later, its game hand by hand) changes no past hand.

The fields are filled from each hand's frozen config (``state["config"]``),
read by the rules engine, which loads the configs of every hand it has stored
(options added since take their defaults), and the seat count from its table.
A hand stored with no config (none are, outside tests) takes its table's game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from tables.rules.config import GameConfig
from tables.rules.errors import IllegalAction
from tables.rules.games import structure_choices, variant_choices

BATCH = 500
FIELDS = ("variant", "structure", "ante", "bring_in", "small_bet", "big_bet", "game", "seat_count")
# The table's stakes that make its game, as GameConfig names them.
STAKES_GAME = ("variant", "structure", "ante", "bring_in", "small_bet", "big_bet")


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), BATCH):
        yield ids[start : start + BATCH]


def _config(hand: Any) -> GameConfig:
    try:
        return GameConfig.from_dict(hand.state["config"])
    except (KeyError, TypeError, IllegalAction):
        stakes = hand.table.stakes
        return GameConfig(**{name: getattr(stakes, name) for name in STAKES_GAME})


def fill(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    ids = list(Hand.objects.order_by("pk").values_list("pk", flat=True))
    for batch in _batches(ids):
        hands = list(Hand.objects.filter(pk__in=batch).select_related("table__stakes"))
        for hand in hands:
            config = _config(hand)
            hand.variant, hand.structure = config.variant, config.structure
            hand.ante, hand.bring_in = config.ante, config.bring_in
            hand.small_bet, hand.big_bet = config.small_bet, config.big_bet
            hand.game, hand.seat_count = config.describe(), hand.table.stakes.seats
        Hand.objects.bulk_update(hands, FIELDS)


def _added(name: str, field: models.Field[Any, Any]) -> migrations.AddField:
    return migrations.AddField(
        model_name="hand", name=name, field=field, preserve_default=False
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0023_one_action_log"),
    ]

    operations = [
        _added(
            "variant",
            models.CharField(
                choices=variant_choices(), db_index=True, default="stud", max_length=32
            ),
        ),
        _added(
            "structure",
            models.CharField(choices=structure_choices(), default="fixed", max_length=8),
        ),
        _added("ante", models.PositiveBigIntegerField(default=0)),
        _added("bring_in", models.PositiveBigIntegerField(default=0)),
        _added("small_bet", models.PositiveBigIntegerField(default=1)),
        _added("big_bet", models.PositiveBigIntegerField(default=1)),
        _added(
            "game",
            models.CharField(
                default="",
                help_text="The game and its stakes in words, as the hand was dealt.",
                max_length=200,
            ),
        ),
        _added(
            "seat_count",
            models.PositiveSmallIntegerField(default=8, help_text="The seats the table had."),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
