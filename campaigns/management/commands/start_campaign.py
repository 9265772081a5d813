"""`manage.py start_campaign CAMPAIGN`: the first spawn and turn 1 (RULES R31)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from campaigns.services.turns import campaign_start


class Command(BaseCommand):
    help = "Start a campaign: initial spawn-and-consume on every board, then open turn 1."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", help="campaign slug")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']!r}")
        try:
            turn = campaign_start(campaign=campaign)
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"{campaign} started; turn 1 open until {turn.deadline:%Y-%m-%d %H:%M} UTC"
        )
