"""Drop the indexes on two columns written again and again, so those writes are
HOT updates: PostgreSQL puts the new row version on the old one's page and adds
no entry to the table's indexes.

A hand's ``turn_expires_at`` is written by nearly every move, and every index
on the hand took a new entry each time; the clock's sweeps find the running
hands through ``hand_ended_covering`` (ended_at null) instead. A connection's
``seen_at`` is written by every heartbeat; the stale sweep scans the live
sockets' rows.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0032_hand_state_lz4"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="hand",
            name="tables_hand_turn_ex_c6100c_idx",
        ),
        migrations.AlterField(
            model_name="tableconnection",
            name="seen_at",
            field=models.DateTimeField(),
        ),
    ]
