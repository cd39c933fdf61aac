"""The finished hands' index carries each hand's game as well as its table, so
the activity report counts hands per table, hour and game from the index
alone instead of reading every finished hand's row (bench/README.md, "History
pages"). The game is written once, when the hand is dealt: a move's update of
its hand stays HOT.

On PostgreSQL the new index is built beside the old one without locking the
hands against writes (``CREATE INDEX CONCURRENTLY``), so tables keep dealing
while a big room migrates; then it takes the old one's name. Elsewhere
(SQLite) the index is simply made again.
"""

from typing import Any

from django.db import migrations, models

NAME = "hand_ended_covering"
OLD = models.Index(fields=["ended_at", "id"], include=["table"], name=NAME)
NEW = models.Index(fields=["ended_at", "id"], include=["table", "variant"], name=NAME)
BUILDING = f"{NAME}_new"


def _replace(apps: Any, schema_editor: Any, index: models.Index, *, old: models.Index) -> None:
    hand = apps.get_model("tables", "Hand")
    if schema_editor.connection.vendor != "postgresql":
        schema_editor.remove_index(hand, old)
        schema_editor.add_index(hand, index)
        return
    columns = ", ".join(f'"{hand._meta.get_field(f).column}"' for f in index.fields)
    include = ", ".join(f'"{hand._meta.get_field(f).column}"' for f in index.include)
    table = hand._meta.db_table
    # Each step can be run again after a run cut short (IF EXISTS): an index
    # left half built is dropped, as is the old one if it is still there.
    schema_editor.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{BUILDING}"')
    schema_editor.execute(
        f'CREATE INDEX CONCURRENTLY "{BUILDING}" ON "{table}" ({columns}) INCLUDE ({include})'
    )
    schema_editor.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{NAME}"')
    schema_editor.execute(f'ALTER INDEX "{BUILDING}" RENAME TO "{NAME}"')


def forwards(apps: Any, schema_editor: Any) -> None:
    _replace(apps, schema_editor, NEW, old=OLD)


def backwards(apps: Any, schema_editor: Any) -> None:
    _replace(apps, schema_editor, OLD, old=NEW)


class Migration(migrations.Migration):
    atomic = False  # PostgreSQL builds an index concurrently only outside a transaction

    dependencies = [
        ("tables", "0033_hot_updates"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forwards, backwards)],
            state_operations=[
                migrations.RemoveIndex(model_name="hand", name=NAME),
                migrations.AddIndex(model_name="hand", index=NEW),
            ],
        ),
    ]
