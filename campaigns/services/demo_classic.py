"""The classic demo campaign "The Underside of Tourmaline" (RULES part 10): the same GM and
three players as Tourmaline, one classic board (campaigns/demo/classic.json: three Illuminati,
27 groups, a goal each), turn 1 open. Made beside Tourmaline so a new user can try the card
game's rules at once; the board goes through the same importer a GM's classic file does
(classic/services/boards.py)."""

from __future__ import annotations

from django.db import transaction

from campaigns.classic.services.boards import classic_board_import
from campaigns.demo import demo_file
from campaigns.models import Campaign, Membership
from campaigns.services.demo import demo_campaign_made
from campaigns.services.turns import campaign_start

CLASSIC_DEMO_SLUG = "underside"
CLASSIC_DEMO_NAME = "The Underside of Tourmaline"


def classic_demo_exists() -> bool:
    return Campaign.objects.filter(slug=CLASSIC_DEMO_SLUG).exists()


@transaction.atomic
def classic_demo_create() -> Campaign:
    """Create the classic demo and start it (turn 1 open: income paid, three groups drawn).
    Users are reused if they exist (Tourmaline makes them first)."""
    campaign, members = demo_campaign_made(CLASSIC_DEMO_NAME, CLASSIC_DEMO_SLUG)
    players = {n: m for n, m in members.items() if m.role == Membership.Role.PLAYER}
    classic_board_import(campaign=campaign, data=demo_file("classic.json"), players=players)
    campaign_start(campaign=campaign)
    return campaign
