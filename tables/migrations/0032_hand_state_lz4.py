"""A running hand's state is written again at every move, several kilobytes of
JSON that PostgreSQL compresses: with lz4 rather than its default pglz, the
write costs it about 30% less CPU (bench/README.md, "The hand's state
compressed with lz4").

Only PostgreSQL compresses a column, and only a server built with lz4 (the
official images and Debian's are) has it: elsewhere this changes nothing.
Values already written keep their compression until they are written again.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def _state_compression(schema_editor: BaseDatabaseSchemaEditor, method: str) -> None:
    schema_editor.execute(f"ALTER TABLE tables_hand ALTER COLUMN state SET COMPRESSION {method}")


def _lz4_here(schema_editor: BaseDatabaseSchemaEditor) -> bool:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        (supported,) = cursor.fetchone()
    return bool(supported)


def lz4(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if _lz4_here(schema_editor):
        _state_compression(schema_editor, "lz4")


def server_default(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if _lz4_here(schema_editor):  # else the state was never given lz4
        _state_compression(schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0031_table_reopened_at"),
    ]

    operations = [
        migrations.RunPython(lz4, server_default),
    ]
