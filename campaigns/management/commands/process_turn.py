"""`manage.py process_turn CAMPAIGN [--turn N]`: run the turn job now (idempotent)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign, Turn
from campaigns.services.turns import turn_process


class Command(BaseCommand):
    help = "Process one turn of a campaign now (default: its open turn). Safe to repeat."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument("--turn", type=int, help="turn number (default: the open turn)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']!r}")
        number = options["turn"]
        if number is None:
            turn = campaign.turns.filter(status=Turn.Status.OPEN).first()
            if turn is None:
                raise CommandError(f"{campaign} has no open turn")
            number = turn.number
        opened = turn_process(campaign_id=campaign.pk, number=number)
        if opened is None:
            self.stdout.write(f"turn {number} was already processed (or is not open): nothing done")
        else:
            self.stdout.write(
                f"turn {number} processed; turn {opened.number} open until "
                f"{opened.deadline:%Y-%m-%d %H:%M} UTC"
            )
