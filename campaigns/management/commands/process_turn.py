"""`manage.py process_turn CAMPAIGN [--turn N]`: run the turn job (RULES R30-R31).

Without --turn it processes the open turn only if it is due, exactly as the tick would, so
it is safe to repeat (or to run from cron next to the tick). Processing a turn early takes
its number: --turn N says which turn is meant, so a second run cannot take the next one.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaigns.models import Campaign, Turn
from campaigns.selectors.turns import scheduled_turn_is_due
from campaigns.services.turns import turn_process


class Command(BaseCommand):
    help = (
        "Process a campaign's open turn if it is due (deadline passed, or every player "
        "ready), as the scheduled job does; with --turn N, process turn N now even if it "
        "is early. Safe to repeat."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign", help="campaign slug")
        parser.add_argument(
            "--turn",
            type=int,
            help="process this turn now, due or not (default: the open turn, only if it is due)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"no campaign {options['campaign']!r}")
        number = options["turn"]
        if number is None:
            self.process_if_due(campaign)
            return
        self.report(number, turn_process(campaign_id=campaign.pk, number=number))

    def process_if_due(self, campaign: Campaign) -> None:
        """R30-R31: the tick's decision. It is read here for a plain message and decided
        again under the campaign lock (running_only), where a concurrent run that got there
        first leaves this one nothing to do."""
        turn = campaign.turns.filter(status=Turn.Status.OPEN).first()
        if turn is None:
            raise CommandError(f"{campaign.slug} has no open turn")
        retry = f"--turn {turn.number}"
        if campaign.status != Campaign.Status.RUNNING:
            self.stdout.write(
                f"{campaign.slug} is {campaign.get_status_display().lower()}; nothing "
                f"processed. To process turn {turn.number} now: {retry}"
            )
            return
        if not scheduled_turn_is_due(campaign, turn, timezone.now()):
            self.stdout.write(
                f"turn {turn.number} of {campaign.slug} is not due until "
                f"{turn.deadline:%Y-%m-%d %H:%M} UTC; nothing processed. "
                f"To process it now: {retry}"
            )
            return
        opened = turn_process(campaign_id=campaign.pk, number=turn.number, running_only=True)
        self.report(turn.number, opened)

    def report(self, number: int, opened: Turn | None) -> None:
        if opened is None:
            self.stdout.write(f"turn {number} was already processed (or is not open): nothing done")
        else:
            self.stdout.write(
                f"turn {number} processed; turn {opened.number} open until "
                f"{opened.deadline:%Y-%m-%d %H:%M} UTC"
            )
