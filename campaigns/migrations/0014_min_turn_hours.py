"""Campaign.min_turn_hours (RULES R30): the minimum length of the turn that opens after a turn
processed early. Every existing campaign gets the default, 72 hours."""

import campaigns.models.campaign
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0013_envelope_campaign'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='min_turn_hours',
            field=models.PositiveSmallIntegerField(default=72, validators=[campaigns.models.campaign.validate_min_turn_hours]),
        ),
    ]
