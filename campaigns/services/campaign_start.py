"""Starting a campaign from its page (RULES R31): only once it can run."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import AuditEntry, Campaign, Turn
from campaigns.selectors.start_problems import start_problems
from campaigns.services.audit import audit_record
from campaigns.services.setup import SetupRefused
from campaigns.services.turns import campaign_start


def campaign_start_checked(*, campaign: Campaign, actor: AbstractBaseUser | None = None) -> Turn:
    """Start `campaign` (services/turns.campaign_start) once every check of
    selectors/start_problems.py passes; SetupRefused lists what is missing, and nothing
    starts. The start is in the audit log (R53), written with it."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.turns.exists():
            raise ValueError(_("%(campaign)s has already started.") % {"campaign": locked})
        problems = start_problems(locked)
        if problems:
            raise SetupRefused(problems)
        before = locked.status
        turn = campaign_start(campaign=locked)
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.SCHEDULE,
            target="campaign started", before={"status": before},
            after={"status": Campaign.Status.RUNNING, "turn": turn.number,
                   "deadline": turn.deadline.astimezone(dt.UTC).isoformat()},
        )  # fmt: skip
        return turn
