"""`manage.py process_due_turns`: the beat tick for cron, run in this process."""

from typing import Any

from django.core.management.base import BaseCommand

from campaigns.selectors.turns import turns_due
from campaigns.services.turns import turn_process_safely


class Command(BaseCommand):
    help = "Process every running campaign's turn whose deadline has passed (RULES R31)."

    def handle(self, *args: Any, **options: Any) -> None:
        processed = 0
        # Loop until nothing is due: a turn opened by catch-up may itself be past due.
        while due := turns_due():
            progress = False
            for campaign_id, number in due:
                if turn_process_safely(campaign_id=campaign_id, number=number):
                    processed += 1
                    progress = True
            if not progress:
                break
        self.stdout.write(f"processed {processed} turn(s)")
