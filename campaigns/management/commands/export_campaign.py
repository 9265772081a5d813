"""`manage.py export_campaign SLUG FILE`: the full archive of a campaign, everything in it,
private conversations and members' email addresses too (docs/campaign-archive.md), for moving
a campaign between servers. Only whoever runs the server's commands can write it; the GM's
download on the site holds only what the GM may read. `-` as FILE writes to standard output."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.archive.selectors.archive import archive_text, campaign_archive
from campaigns.models import Campaign


class Command(BaseCommand):
    help = (
        "Write the full archive of a campaign (settings, boards, members, knowledge, every "
        "turn, every conversation, audit log) to FILE."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("file", help="where to write the archive (- for standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']!r}")
        text = archive_text(campaign_archive(campaign))
        if options["file"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["file"]).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {options['file']}: {error.strerror}") from None
        self.stderr.write(f"{campaign} written to {options['file']}")
