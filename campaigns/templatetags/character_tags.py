"""The campaign page's character box (RULES R60, R61, R71, R72): the viewer's own shticks,
secret goals with their progress and a link to their dossier. Nobody else's (R51): the
selector gives a reader only what is theirs to read."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.models import Campaign, Membership, Turn
from campaigns.selectors.character import character_sheet

register = template.Library()


@register.inclusion_tag("campaigns/character/_sheet.html")
def character_box(campaign: Campaign, viewer: Membership, turn: Turn | None) -> dict[str, Any]:
    """`viewer` and `turn` (the campaign's current turn) as the campaign view read them."""
    if viewer.role != Membership.Role.PLAYER:
        return {"sheet": None}
    sheet = character_sheet(viewer, viewer)
    turn = turn if sheet.dossier else None
    # R71, R72: envelopes the last processed turn opened are news on the campaign page.
    fresh = turn is not None and sheet.latest_turn == turn.number - (
        turn.status == Turn.Status.OPEN
    )
    return {"campaign": campaign, "member": viewer, "sheet": sheet, "fresh": fresh}
