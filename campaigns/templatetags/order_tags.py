"""The campaign page's link to the orders and the viewer's unread notices (R46), as the view
read them (selectors/campaign_boxes.py), and the orders page's filters."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("campaigns/orders/_notices.html", takes_context=True)
def orders_and_notices(context: dict[str, Any], box: Any) -> dict[str, Any]:
    """`box`: a campaign_boxes.NoticesBox, read by the view."""
    return {
        "campaign": box.campaign,
        "player": box.player,
        "notices": box.notices,
        # R62: hand-overs offered to the player, each with its accept button.
        "offers": box.offers,
        "turn_number": box.turn_number,
        "orders_open": box.orders_open,
        "csrf_token": context.get("csrf_token"),
        # Every time here in the viewer's zone (_instant.html), as on the page around it.
        "viewer_time_zone": context.get("viewer_time_zone", ""),
        # R80: the next election, if one is scheduled (the open turn's or a later one).
        "election": box.election,
    }


@register.filter
def warning_for(pk: object, warnings: Any) -> str:
    """{{ order.pk|warning_for:warnings }}: why the engine would reject a queued order as
    things stand (elections/web/election_warnings.py), or ""."""
    if not isinstance(warnings, dict):
        return ""
    return str(warnings.get(pk) or "")


@register.filter
def cost_for(pk: object, costs: Any) -> Any:
    """{{ order.pk|cost_for:costs }}: what a queued order spends and, for an attempt, its
    chance (web/order_costs.py), or None."""
    return costs.get(pk) if isinstance(costs, dict) else None
