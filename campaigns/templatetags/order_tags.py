"""The campaign page's link to the orders and the viewer's unread notices (R46)."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.models import Campaign
from campaigns.selectors.deals import offers_to
from campaigns.selectors.intrigue import elections_coming
from campaigns.selectors.orders import notices_unread
from campaigns.selectors.pages import current_turn, membership_for

register = template.Library()


@register.inclusion_tag("campaigns/orders/_notices.html", takes_context=True)
def orders_and_notices(context: dict[str, Any], campaign: Campaign) -> dict[str, Any]:
    user = context["request"].user
    player = membership_for(user, campaign)
    turn = current_turn(campaign) if player and player.role == "player" else None
    return {
        "campaign": campaign,
        "player": player,
        "notices": notices_unread(player) if player else [],
        # R62: hand-overs offered to the player, each with its accept button.
        "offers": offers_to(player, turn) if player and turn else [],
        "turn_number": turn.number if turn else None,
        "csrf_token": context.get("csrf_token"),
        # R80: the next election, if one is scheduled (the open turn's or a later one).
        "election": next(iter(elections_coming(campaign.pk)), None) if player else None,
    }


@register.filter
def warning_for(pk: object, warnings: Any) -> str:
    """{{ order.pk|warning_for:warnings }}: why the engine would reject a queued order as
    things stand (web/election_warnings.py), or ""."""
    if not isinstance(warnings, dict):
        return ""
    return str(warnings.get(pk, ""))
