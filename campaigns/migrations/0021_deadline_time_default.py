"""The default deadline time given by a function (models/campaign.py says why). On SQLite the
AlterField copies the campaign table into a new one, which drops its page-cache triggers
(models/changes.py): the last step makes them again. No-op reverse: 0020's triggers are the
same."""

from django.db import migrations, models

import campaigns.models.campaign
from campaigns.models.changes import triggers_recreate


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0020_campaign_played_on_after"),
    ]

    operations = [
        migrations.AlterField(
            model_name="campaign",
            name="deadline_time",
            field=models.TimeField(default=campaigns.models.campaign.default_deadline_time),
        ),
        migrations.RunPython(triggers_recreate, migrations.RunPython.noop),
    ]
