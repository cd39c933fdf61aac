"""Each HandResult keeps a copy of its player's own cards, for the list of past hands.

The data step fills the copy for hands finished before this field existed, from
each hand's stored engine state, a batch of hands at a time.
"""

from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

BATCH = 500
RANKS, SUITS = "23456789TJQKA", "cdhs"


def _code(card: int) -> str:
    # The engine's card numbering (tables.rules.cards), copied so that this
    # migration keeps working whatever that module becomes.
    return RANKS[card >> 2] + SUITS[card & 3]


def _held(state: dict[str, Any], player: int) -> dict[str, list[str]]:
    return {
        "down": [_code(card) for card in state["hole"][player] if card >= 0],
        "up": [_code(card) for card in state["up"][player]],
    }


def fill_cards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    HandResult = apps.get_model("tables", "HandResult")
    hand_ids = list(
        HandResult.objects.filter(cards={}).values_list("hand_id", flat=True).distinct()
    )
    for start in range(0, len(hand_ids), BATCH):
        batch = hand_ids[start : start + BATCH]
        hands = Hand.objects.filter(pk__in=batch).only("state", "seating").in_bulk()
        results = list(HandResult.objects.filter(hand_id__in=batch, cards={}))
        for result in results:
            hand = hands[result.hand_id]
            players = [entry["player"] for entry in hand.seating["players"]]
            result.cards = _held(hand.state, players.index(result.player_id))
        HandResult.objects.bulk_update(results, ["cards"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_sit_out_limit"),
    ]

    operations = [
        migrations.AddField(
            model_name="handresult",
            name="cards",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text='The player\'s own cards: {"down": ["Ah", ...], "up": ["Kd", ...]}.',
            ),
        ),
        migrations.RunPython(fill_cards, migrations.RunPython.noop, elidable=True),
    ]
