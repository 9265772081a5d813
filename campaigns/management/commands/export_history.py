"""`manage.py export_history SLUG [--board B] FILE.csv`: a campaign's history for reviewers:
one row per processed turn and department, read from the turn records, with
everything in it (the GM's view, RULES R50). `-` writes to standard output. Players download
their own, holding only what they saw, from the site (history/selectors/history_export.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.csv_cells import write_rows
from campaigns.history.selectors.history_export import history_rows
from campaigns.models import Campaign, Membership


class Command(BaseCommand):
    help = (
        "Write a campaign's history as CSV, one row per turn and department "
        "(turn,board,department,controller,status,chain_length,capacity,money,people,"
        "authority,suppliers,consumers), everything shown as the GM sees it. A classic "
        "board's file (--board) has a row per turn and group instead "
        "(turn,board,group,name,controller,parent,place,treasury_mb), the deck left out."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("file", help="the CSV file to write ('-': standard output)")
        parser.add_argument("--board", help="one board's slug (default: every board)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']!r}")
        board = None
        if options["board"]:
            board = campaign.boards.filter(slug=options["board"]).first()
            if board is None:
                raise CommandError(f"{campaign.slug} has no board {options['board']!r}")
        # The GM's eyes, without needing a GM among the members: everything (R50).
        gm = Membership(campaign=campaign, role=Membership.Role.GM)
        rows = history_rows(campaign, gm, board)
        if options["file"] == "-":
            write_rows(self.stdout, rows)
        else:
            try:
                with open(options["file"], "w", newline="", encoding="utf-8") as out:
                    written = write_rows(out, rows) - 1  # the header is no row of the history
            except OSError as error:
                raise CommandError(f"cannot write {options['file']}: {error.strerror}") from error
            self.stderr.write(f"{written} rows written to {options['file']}")
