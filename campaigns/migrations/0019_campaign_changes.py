"""The campaign versions of the page cache (models/changes.py): an append-only table
and, on every table a campaign page shows, triggers that add a row per changed campaign."""

from django.db import migrations, models

from campaigns.models.changes import drop_sql, triggers_recreate


def triggers_drop(apps, schema_editor):
    for statement in drop_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
        ('campaigns', '0018_classic_order_kinds'),
    ]

    operations = [
        migrations.CreateModel(
            name='CampaignChange',
            fields=[
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('campaign_id', models.IntegerField()),
            ],
            options={
                'indexes': [models.Index(fields=['campaign_id', 'id'], name='campaign_change_by_campaign')],
            },
        ),
        migrations.RunPython(triggers_recreate, triggers_drop),
    ]
