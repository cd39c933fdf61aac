"""Stakes choose who acts first when the opener is all in; WSOP's rule is the default.

Hands stored before this option existed were played under the old rule (the
best hand among players still betting acts first). The data step writes that
rule into each such hand's stored game config, so that replaying it from its
deck, as the hand page does, still leads to the state that was stored.
"""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

BATCH = 500
OLD_RULE = "best_still_betting"


def keep_the_old_rule(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    stale = Hand.objects.exclude(state__config__has_key="all_in_opener").only("state")
    ids = list(stale.values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        hands = list(Hand.objects.filter(pk__in=ids[start : start + BATCH]).only("state"))
        for hand in hands:
            hand.state["config"]["all_in_opener"] = OLD_RULE
        Hand.objects.bulk_update(hands, ["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_player_day"),
    ]

    operations = [
        migrations.AddField(
            model_name="stakes",
            name="all_in_opener",
            field=models.CharField(
                choices=[
                    (
                        "next_seat",
                        "The next seat clockwise acts first, as if they had checked (WSOP)",
                    ),
                    (
                        "best_still_betting",
                        "The best hand among those still betting acts first",
                    ),
                ],
                default="next_seat",
                help_text=(
                    "Who acts first when the low door card, or the best hand showing, is all in."
                ),
                max_length=20,
                verbose_name="when the opener is all in",
            ),
        ),
        migrations.RunPython(keep_the_old_rule, migrations.RunPython.noop, elidable=True),
    ]
