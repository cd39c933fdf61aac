"""The turn clock's extra time is a fresh countdown every turn by default; a
time bank refilled every few hands is a stakes option.

Every stakes moves to the per-turn countdown (the field's default). Banks that
the old clock spent and never refilled are made whole again, so stakes later
set to a time bank start everyone with all of it.
"""

import django.core.validators
from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def make_every_bank_whole(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Seat = apps.get_model("tables", "Seat")
    Seat.objects.exclude(time_bank_ms=None).update(time_bank_ms=None)


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0009_stakes_bounds_and_labels'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='hands_since_refill',
            field=models.PositiveSmallIntegerField(default=0, help_text='Hands dealt to this player since their time bank was last refilled.'),
        ),
        migrations.AddField(
            model_name='stakes',
            name='bank_refill_hands',
            field=models.PositiveSmallIntegerField(default=5, help_text='With a time bank: the hands a player is dealt into between refills: 1 to 100.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(100)], verbose_name='hands per refill'),
        ),
        migrations.AddField(
            model_name='stakes',
            name='bank_refill_seconds',
            field=models.PositiveSmallIntegerField(default=5, help_text="With a time bank: seconds added to a player's bank every few hands they are dealt into, up to its size. 0: never refilled. 0 to 600.", validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(600)], verbose_name='time bank refill'),
        ),
        migrations.AddField(
            model_name='stakes',
            name='clock',
            field=models.CharField(choices=[('per_turn', 'A fresh countdown every turn'), ('time_bank', 'A time bank spent across hands, refilled every few hands')], default='per_turn', help_text='What a player gets once the action time is up.', max_length=12, verbose_name='extra time'),
        ),
        migrations.AlterField(
            model_name='stakes',
            name='action_seconds',
            field=models.PositiveSmallIntegerField(default=10, help_text='Seconds a player has for each move before the countdown or their time bank runs: 5 to 300.', validators=[django.core.validators.MinValueValidator(5), django.core.validators.MaxValueValidator(300)], verbose_name='action time'),
        ),
        migrations.AlterField(
            model_name='stakes',
            name='time_bank_seconds',
            field=models.PositiveSmallIntegerField(default=20, help_text='Seconds of the countdown each turn; with a time bank, the seconds each player starts with and the most the bank can hold: 0 to 600.', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(600)], verbose_name='countdown or time bank'),
        ),
        migrations.AlterField(
            model_name='stakes',
            name='timeout_policy',
            field=models.CharField(choices=[('check_fold', 'Check if checking is free, otherwise fold'), ('all_in', 'Disconnect protection: a player with chips in the pot beyond the ante goes all in for what they have put in; anyone else checks or folds')], default='check_fold', help_text='What the server does for a player whose action time and extra time are up.', max_length=12, verbose_name='when time runs out'),
        ),
        migrations.RunPython(make_every_bank_whole, migrations.RunPython.noop),
    ]
