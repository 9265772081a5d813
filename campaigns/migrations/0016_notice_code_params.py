"""A notice is stored as a code with its parameters and put into words when read
(campaigns/notice_words.py), in the reader's language and zone; older rows keep their text.
A default in the database too: the release before still inserts notices while this runs."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0015_audit_running_and_last_seen'),
    ]

    operations = [
        migrations.AddField(
            model_name='notice',
            name='code',
            field=models.CharField(blank=True, db_default='', default='', max_length=40),
        ),
        migrations.AddField(
            model_name='notice',
            name='params',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
