"""Profile.last_seen, the user's last visit (the roster's "last seen"), and the
audit log's two new kinds of entry (the running campaign's clock, announcements: R53). The
choices change no table."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0014_min_turn_hours'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='last_seen',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('settings', 'Settings'), ('alignments', 'Alignment catalogue'), ('board', 'Board'), ('members', 'Players and invitations'), ('rollback', 'Turn undone'), ('campaign', 'Campaign ended or opened'), ('department', 'Department'), ('link', 'Link'), ('structure', 'Structures'), ('knowledge', 'Knowledge'), ('press', 'Press rules and hidden messages'), ('shticks', 'Shticks'), ('envelopes', 'Envelopes'), ('goals', 'Secret goals'), ('offices', 'Offices and elections'), ('schedule', 'Start, pause, deadlines and processing'), ('announcement', 'Announcements')], max_length=20),
        ),
    ]
