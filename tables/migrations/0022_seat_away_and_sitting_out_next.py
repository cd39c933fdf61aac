# Seats away (disconnected or sitting out) are stood up after a while at an
# idle table, measured from when they went away; a sit-out asked mid-hand
# waits for the hand's end; hands keep their players' names.

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone


def away_from_now(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Seats already away when this runs have been so since an unknown time:
    counted from now, so no one is stood up the moment the sweep first runs."""
    Seat = apps.get_model("tables", "Seat")
    Seat.objects.exclude(state="playing").update(away_since=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0021_kept_time_bank'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='away_since',
            field=models.DateTimeField(blank=True, help_text='When the player disconnected or sat out. Empty while they play.', null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='sitting_out_next',
            field=models.BooleanField(default=False, help_text='The player sits out when the hand in play ends.'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='seating',
            field=models.JSONField(help_text='Engine player order: seat numbers, player ids and usernames.'),
        ),
        migrations.RunPython(away_from_now, migrations.RunPython.noop),
    ]
