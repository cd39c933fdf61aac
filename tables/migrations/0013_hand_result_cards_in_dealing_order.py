"""Each HandResult's copy of its player's cards becomes one list in dealing order.

Before, the copy kept the down cards and the upcards apart, ``{"down": [...],
"up": [...]}``, and a page put them back in the order seven-card stud deals
them, the only game there was: the first two down cards, then the upcards,
then any later down card. Now it is ``[{"card": "Ah", "up": false}, ...]`` in
dealing order, as the engine keeps a player's cards, so no reader needs to
know how a game deals. The data step puts every stored copy in that order; the
reverse step splits it again.
"""

from collections.abc import Callable
from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

# A result's cards, as stored before or after this migration.
Cards = dict[str, list[Any]] | list[dict[str, Any]]
BATCH = 1000
# Seven-card stud dealt this many down cards before its first upcard, and
# every hand stored before this migration was seven-card stud dealt so.
DOWN_BEFORE_UP = 2


def in_dealing_order(cards: Cards) -> Cards:
    """A copy stored as ``{"down": [...], "up": [...]}``, as one list as dealt.

    A copy already in dealing order is returned as it is, so the step may run
    again after a partial run.
    """
    if isinstance(cards, list):
        return cards
    down, up = cards.get("down", []), cards.get("up", [])
    return (
        [{"card": card, "up": False} for card in down[:DOWN_BEFORE_UP]]
        + [{"card": card, "up": True} for card in up]
        + [{"card": card, "up": False} for card in down[DOWN_BEFORE_UP:]]
    )


def down_and_up(cards: Cards) -> Cards:
    """The copy as it was stored before: the down cards and the upcards apart."""
    if isinstance(cards, dict):
        return cards
    return {
        "down": [held["card"] for held in cards if not held["up"]],
        "up": [held["card"] for held in cards if held["up"]],
    }


def _convert(apps: Apps, change: Callable[[Cards], Cards]) -> None:
    HandResult = apps.get_model("tables", "HandResult")
    changed = []
    for result in HandResult.objects.only("pk", "cards").order_by("pk").iterator(BATCH):
        cards = change(result.cards)
        if cards != result.cards:
            result.cards = cards
            changed.append(result)
        if len(changed) >= BATCH:
            HandResult.objects.bulk_update(changed, ["cards"])
            changed = []
    HandResult.objects.bulk_update(changed, ["cards"])


def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _convert(apps, in_dealing_order)


def backwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _convert(apps, down_and_up)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_seat_chips_and_waiting_list"),
    ]

    operations = [
        migrations.AlterField(
            model_name="handresult",
            name="cards",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text=(
                    "The player's own cards in dealing order, each face up or down: "
                    '[{"card": "Ah", "up": false}, ...].'
                ),
            ),
        ),
        migrations.RunPython(forwards, backwards, elidable=True),
    ]
