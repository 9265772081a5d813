"""`manage.py send_reminders`: the reminder tick for cron, run in this process."""

from typing import Any

from django.core.management.base import BaseCommand

from campaigns.services.reminders import reminders_send


class Command(BaseCommand):
    help = "Remind players with no orders before the deadline (once per deadline)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"sent {reminders_send()} reminder(s)")
