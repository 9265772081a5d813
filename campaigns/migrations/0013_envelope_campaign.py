"""IntelEnvelope.campaign: the campaign of the envelope's department, so that asking whether a
campaign has any envelopes (before every order check) is one index lookup. Added empty, filled
from each envelope's department, then required."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill(apps, schema_editor) -> None:
    envelope = apps.get_model("campaigns", "IntelEnvelope")
    department = apps.get_model("campaigns", "Department")
    campaign_of = department.objects.filter(pk=OuterRef("department_id")).values(
        "board__campaign_id"
    )
    envelope.objects.update(campaign_id=Subquery(campaign_of[:1]))


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0012_turn_records_lz4")]

    operations = [
        migrations.AddField(
            model_name="intelenvelope",
            name="campaign",
            field=models.ForeignKey(
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="intelenvelope",
            name="campaign",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
            ),
        ),
    ]
