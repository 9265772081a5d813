"""What the order pages say about the election (RULES R80) before the deadline: which of the
player's queued orders the engine would reject as things stand, so nothing is lost unseen (a
function roll of a department that doubled its support gives up its roll; an election order
the round no longer accepts, its ticket withdrawn, say), read from the engine's plan of the
player's board (engine/plan.py), never worked out here; and in a linking attempt's preview,
which of its two departments holds an office, whose alignment the target number counts."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaigns.elections.selectors.office_views import live_posts
from campaigns.engine.election import doubled_refusal
from campaigns.engine.refusals import parse
from campaigns.models import Order
from campaigns.selectors.order_checks import safe_reason
from campaigns.selectors.order_context import OrderContext
from campaigns.words import game

NO_TICKET = "no_such_ticket"  # the refusal of a ticket that is not nominated (R80)


def election_warnings(contexts: dict[str, OrderContext]) -> dict[int, str]:
    """Order id -> why the engine would reject that queued order, for each board whose
    round (R80) rejects some; R50-safe like every refusal."""
    warnings: dict[int, str] = {}
    for ctx in contexts.values():
        plan = ctx.legal().plan
        if plan.election is None:
            continue
        doubled = plan.election.doubled
        for order in ctx.queued(Order.Kind.FUNCTION):
            slug = order.get("department")
            if slug in doubled:
                names = {str(slug): ctx.name(str(slug))}
                warnings[int(order["id"])] = game.with_names(doubled_refusal(str(slug)), names)
        mine = {str(o["id"]) for o in ctx.state["orders"] if o["player"] == ctx.player.player_id}
        for order_id, reason in plan.election_refused.items():
            if order_id in mine:
                warnings[int(order_id)] = said(ctx, reason)
    return warnings


def said(ctx: OrderContext, reason: str) -> str:
    refusal = parse(reason)
    if refusal is not None and refusal.code == NO_TICKET:  # names a candidate whose ticket is gone
        return _("The ticket it names is not nominated now (R80).")
    return safe_reason(reason, board=ctx.board, player=ctx.player)


def preview_posts(ctx: OrderContext, payload: dict[str, object]) -> list[str]:
    """R80, R6: "The Guild Hall holds Mayor of Tourmaline (Government)" for the attacker and
    the target of an attempt's preview that hold an office (both are departments the player
    may see: their own, and a target they know). One query."""
    posts = live_posts(ctx.board)
    return [
        f"{ctx.name(str(slug))} {post.text}"
        for slug in (payload.get("attacker"), payload.get("target"))
        for post in posts.get(str(slug), [])
    ]
