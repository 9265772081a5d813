"""`manage.py seed_demo [--if-empty]`: the demo campaign Tourmaline and the classic demo
beside it (RULES part 10), with printed logins."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns.demo import demo_campaign
from campaigns.models import Membership
from campaigns.services.demo import DEMO_PASSWORD, demo_create, demo_exists
from campaigns.services.demo_classic import (
    CLASSIC_DEMO_NAME,
    classic_demo_create,
    classic_demo_exists,
)


class Command(BaseCommand):
    help = (
        "Create the demo campaign Tourmaline (a GM, three players, two boards, turn 1) and "
        "the classic demo beside it (one classic board)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if the demo already exists"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if demo_exists():
            if not options["if_empty"]:
                raise CommandError("the demo campaign already exists")
        else:
            demo_create()
            self.stdout.write("Created the demo campaign Tourmaline; turn 1 is open.")
        if not classic_demo_exists():
            # Beside Tourmaline, also for a database made before the classic demo existed.
            classic_demo_create()
            self.stdout.write(
                f"Created the classic demo {CLASSIC_DEMO_NAME} (the card game's rules); "
                "turn 1 is open."
            )
        self.stdout.write(f"Log in as any of these (password: {DEMO_PASSWORD}):")
        for person in demo_campaign()["people"]:
            role = str(Membership.Role(person["role"]).label)
            self.stdout.write(f"  {person['username']:<6} {role:<12} {person['character_name']}")
