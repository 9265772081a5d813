"""What a GM does to a whole campaign from the campaign page (RULES R30, R31).

Thin wrappers over the turn job's services that first check the action makes sense now,
under the campaign row lock, so a stale page or a double click gets a clear error instead
of a second pause or a turn processed twice. Errors are ValueError with a message fit to
show the GM, as `campaign_start` raises.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.engine.board import DEFAULT_ALIGNMENTS
from campaigns.models import Alignment, Campaign, Turn

from .turns import campaign_set_status, turn_process


def campaign_status_change(*, campaign: Campaign, expect: str, status: str) -> None:
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status != expect:
            raise ValueError(f"{locked} is {locked.get_status_display().lower()}, not {expect}")
        campaign_set_status(campaign=locked, status=status)


def campaign_pause(*, campaign: Campaign) -> None:
    """R30: stop the clock; no turn is processed on schedule until resumed."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.RUNNING, status=Campaign.Status.PAUSED
    )


def campaign_resume(*, campaign: Campaign) -> None:
    """R30: restart the clock (a deadline that passed meanwhile moves to the next slot)."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.PAUSED, status=Campaign.Status.RUNNING
    )


def turn_process_now(*, campaign: Campaign, number: int) -> Turn:
    """R30, R31: the GM processes turn `number` before its deadline. Returns the turn that
    opens. `number` is the turn the GM confirmed: if the tick (or another GM) got there
    first, nothing happens twice and the GM is told."""
    if campaign.status == Campaign.Status.FINISHED:
        raise ValueError(f"{campaign} is finished")
    opened = turn_process(campaign_id=campaign.pk, number=number)
    if opened is None:
        raise ValueError(f"Turn {number} is not open (it may have been processed already)")
    return opened


def alignments_create_default(*, campaign: Campaign) -> None:
    """R5: give a new campaign the card game's ten alignments as its catalogue."""
    Alignment.objects.bulk_create(
        Alignment(
            campaign=campaign,
            name=str(entry["name"]),
            opposite=str(entry.get("opposite", "")),
            self_opposed=bool(entry.get("self_opposed")),
        )
        for entry in DEFAULT_ALIGNMENTS
    )
