"""Each row of the activity summary names the game its player played, so the
activity report counts players per game; at a mixed table a player has a row
per game per day.

The rows already there were written when every table dealt one game: each
takes the game of its table's last hand ended by the end of its day (the
table stakes' game if none), which is the game the player was dealt unless
staff changed the stakes' game that day.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import Min, OuterRef, Subquery
from django.db.models.functions import Coalesce

from tables.rules.games import variant_choices


def fill(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    PlayerDay = apps.get_model("tables", "PlayerDay")
    Stakes = apps.get_model("tables", "Stakes")
    last_hand = (
        Hand.objects.filter(table_id=OuterRef("table_id"), ended_at__date__lte=OuterRef("day"))
        .order_by("-ended_at")
        .values("variant")[:1]
    )
    stakes = Stakes.objects.filter(pk=OuterRef("stakes_id")).values("variant")[:1]
    PlayerDay.objects.update(variant=Coalesce(Subquery(last_hand), Subquery(stakes)))


def merge(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Going back: one row per player, table and day again (the first of its games)."""
    PlayerDay = apps.get_model("tables", "PlayerDay")
    kept = PlayerDay.objects.values("day", "table_id", "player_id").annotate(first=Min("pk"))
    PlayerDay.objects.exclude(pk__in=[row["first"] for row in kept]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0026_mixed_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerday",
            name="variant",
            field=models.CharField(choices=variant_choices(), default="stud", max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="playerday", name="one_player_day"),
        migrations.RunPython(migrations.RunPython.noop, merge),
        migrations.AddConstraint(
            model_name="playerday",
            constraint=models.UniqueConstraint(
                fields=("day", "table", "player", "variant"), name="one_player_day_per_game"
            ),
        ),
    ]
