"""The finished hands' index carries each hand's game as well as its table, so
the activity report counts hands per table, hour and game from the index
alone instead of reading every finished hand's row (bench/README.md, "History
pages"). The game is written once, when the hand is dealt: a move's update of
its hand stays HOT.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0033_hot_updates"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="hand",
            name="hand_ended_covering",
        ),
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(
                fields=["ended_at", "id"],
                include=("table", "variant"),
                name="hand_ended_covering",
            ),
        ),
    ]
