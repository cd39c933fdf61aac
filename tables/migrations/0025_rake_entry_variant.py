"""Each rake entry names its hand's game, as it names the hand's table and
stakes, so the rake report groups by game from the ledger alone."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.models import OuterRef, Subquery

from tables.rules.games import variant_choices


def fill(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Hand = apps.get_model("tables", "Hand")
    RakeEntry = apps.get_model("tables", "RakeEntry")
    game = Hand.objects.filter(pk=OuterRef("hand_id")).values("variant")[:1]
    RakeEntry.objects.update(variant=Subquery(game))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0024_hand_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="rakeentry",
            name="variant",
            field=models.CharField(choices=variant_choices(), default="stud", max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
