"""After a classic board's win the GM ends the campaign or plays on (RULES R98). Ending is
services/campaigns.py's campaign_end; playing on is here: it only records that the GM chose
to go on after that turn's win, so the campaign page stops asking (a later turn's win asks
again)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.classic.selectors.wins import classic_wins
from campaigns.models import AuditEntry, Campaign, Turn
from campaigns.services.audit import audit_record


def campaign_play_on(*, campaign: Campaign, actor: AbstractBaseUser, number: int) -> None:
    """R98: the GM plays on after the win of turn `number`, which must be the last processed
    turn (the number the GM saw, so a stale page cannot dismiss a later win) and hold a win.
    ValueError, nothing changed, otherwise. Takes the campaign row lock like the turn job."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
            raise ValueError(
                _("%(campaign)s is %(status)s: only a running or paused campaign plays on.")
                % {"campaign": locked, "status": str(locked.get_status_display()).lower()}
            )
        last = (
            locked.turns.filter(status=Turn.Status.PROCESSED).order_by("-number").first()
        )  # fmt: skip
        if last is None or last.number != number or not classic_wins(locked, last.number):
            raise ValueError(
                _("Turn %(n)s is not the last processed turn with a win: nothing changed.")
                % {"n": number}
            )
        if locked.played_on_after == number:
            raise ValueError(_("You already play on after turn %(n)s's win.") % {"n": number})
        before = locked.played_on_after
        locked.played_on_after = number
        locked.save(update_fields=["played_on_after"])
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.SCHEDULE,
            target=f"played on after turn {number}'s win",
            before={"played_on_after": before},
            after={"played_on_after": number},
        )
