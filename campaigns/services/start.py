"""Starting a campaign from its page (RULES R31): only once it can run."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Turn
from campaigns.selectors.start import start_problems

from .setup import SetupRefused
from .turns import campaign_start


def campaign_start_checked(*, campaign: Campaign) -> Turn:
    """Start `campaign` (services/turns.campaign_start) once every check of
    selectors/start.py passes; SetupRefused lists what is missing, and nothing starts."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.turns.exists():
            raise ValueError(_("%(campaign)s has already started.") % {"campaign": locked})
        problems = start_problems(locked)
        if problems:
            raise SetupRefused(problems)
        return campaign_start(campaign=locked)
