"""The campaign page's link to the orders and the viewer's unread notices (R46)."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns.models import Campaign, Membership, Turn
from campaigns.selectors.deals import offers_to
from campaigns.selectors.intrigue import elections_coming
from campaigns.selectors.orders import notices_unread

register = template.Library()


@register.inclusion_tag("campaigns/orders/_notices.html", takes_context=True)
def orders_and_notices(
    context: dict[str, Any], campaign: Campaign, viewer: Membership, turn: Turn | None
) -> dict[str, Any]:
    """`viewer` and `turn` (the campaign's current turn) as the campaign view read them."""
    turn = turn if viewer.role == Membership.Role.PLAYER else None
    return {
        "campaign": campaign,
        "player": viewer,
        "notices": notices_unread(viewer),
        # R62: hand-overs offered to the player, each with its accept button.
        "offers": offers_to(viewer, turn) if turn else [],
        "turn_number": turn.number if turn else None,
        "csrf_token": context.get("csrf_token"),
        # Every time here in the viewer's zone (_instant.html), as on the page around it.
        "viewer_time_zone": context.get("viewer_time_zone", ""),
        # R80: the next election, if one is scheduled (the open turn's or a later one).
        "election": next(iter(elections_coming(campaign.pk)), None),
    }


@register.filter
def warning_for(pk: object, warnings: Any) -> str:
    """{{ order.pk|warning_for:warnings }}: why the engine would reject a queued order as
    things stand (web/election_warnings.py), or ""."""
    if not isinstance(warnings, dict):
        return ""
    return str(warnings.get(pk, ""))


@register.filter
def cost_for(pk: object, costs: Any) -> Any:
    """{{ order.pk|cost_for:costs }}: what a queued order spends and, for an attempt, its
    chance (web/order_costs.py), or None."""
    return costs.get(pk) if isinstance(costs, dict) else None
