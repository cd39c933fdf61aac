# The per-address signup limit becomes one of several limits per key (an
# address or an email); the signups counted so far are kept.

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def signups_to_quotas(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    SignupQuota = apps.get_model("accounts", "SignupQuota")
    AddressQuota = apps.get_model("accounts", "AddressQuota")
    AddressQuota.objects.bulk_create(
        AddressQuota(
            purpose="signup", key=row.address, window_started=row.window_started, used=row.signups
        )
        for row in SignupQuota.objects.all()
    )


def quotas_to_signups(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    SignupQuota = apps.get_model("accounts", "SignupQuota")
    AddressQuota = apps.get_model("accounts", "AddressQuota")
    SignupQuota.objects.bulk_create(
        SignupQuota(address=row.key, window_started=row.window_started, signups=row.used)
        for row in AddressQuota.objects.filter(purpose="signup")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_top_up_transfers"),
    ]

    operations = [
        migrations.CreateModel(
            name="AddressQuota",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "purpose",
                    models.CharField(
                        choices=[
                            ("signup", "Signups from an address"),
                            ("reset_address", "Password reset mails asked from an address"),
                            ("reset_email", "Password reset mails asked for an email address"),
                        ],
                        max_length=16,
                    ),
                ),
                (
                    "key",
                    models.CharField(
                        help_text="The address, or the email, lower-cased.", max_length=254
                    ),
                ),
                ("window_started", models.DateTimeField()),
                ("used", models.PositiveIntegerField(default=0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("purpose", "key"), name="one_quota_per_key")
                ],
            },
        ),
        migrations.RunPython(signups_to_quotas, quotas_to_signups),
        migrations.DeleteModel(name="SignupQuota"),
    ]
