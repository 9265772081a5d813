"""`manage.py import_campaign FILE --slug NEW`: a new campaign from an archive written by
export_campaign. A damaged, changed or incomplete archive exits 1 with one line and creates
nothing."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.archive.services.archive import ArchiveError, campaign_import


class Command(BaseCommand):
    help = "Make a new campaign from an archive written by export_campaign."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the archive (- for standard input)")
        parser.add_argument("--slug", required=True, help="the new campaign's slug")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            text = self.stdin_text() if name == "-" else Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {name}: {error}") from None
        try:
            data = json.loads(text)
        except ValueError as error:
            raise CommandError(f"{name} is not a complete JSON archive: {error}") from None
        except RecursionError:
            raise CommandError(f"{name}: the JSON is nested too deeply to read") from None
        try:
            campaign = campaign_import(data=data, slug=options["slug"])
        except ArchiveError as error:
            raise CommandError(f"{name}: {error}") from None
        self.stdout.write(
            f"Imported {campaign.name} as {campaign.slug}: "
            f"{campaign.boards.count()} boards, {campaign.turns.count()} turns."
        )

    def stdin_text(self) -> str:
        import sys

        return sys.stdin.read()
