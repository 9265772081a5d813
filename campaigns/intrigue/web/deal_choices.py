"""What the order forms of RULES parts 7 and 8 offer: perception checks (R70), gifts and
hand-overs (R62) and the receiver's accept. Every choice is one of the engine's
(engine/legal_deals.py, through selectors.order_context.OrderContext), kept only where the
player may see it (R50) and named. No rules arithmetic here: the Perception a check adds is
the engine's own sum (engine/sheets.py)."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.engine.legal import Legal
from campaigns.engine.legal_deals import GiftChoice
from campaigns.intrigue.selectors.handover_offers import offered_pairs
from campaigns.models import Order
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.visibility import Level

Choices = list[tuple[str, str]]
SEP = "|"
DEAL_KINDS = (Order.Kind.PERCEIVE, Order.Kind.GIFT, Order.Kind.HANDOVER, Order.Kind.ACCEPT)


def perceive_choices(ctx: OrderContext, legal: Legal) -> Choices:
    """R70: departments the player knows at least as `rumoured` and has not checked yet this
    turn (the engine offers every department of the board), by id: a rumoured department's
    slug may not reach the page (R50)."""
    return [
        (str(ctx.pks[c.department]), ctx.name(c.department))
        for c in legal.perceive
        if c.department in ctx.pks  # not another board's (a link's far end): check it there
        and ctx.levels.get(c.department, Level.UNKNOWN) >= Level.RUMOURED
    ]


# Each kind offers only the board's own departments: a link's far end on another board (its
# stub in the state, "<board>/<slug>") is ordered on its own board.


def gift_givers(ctx: OrderContext, legal: Legal) -> Choices:
    """R62: the player's departments with unmoved tokens."""
    return [
        (c.start, ctx.name(c.start))
        for c in legal.gift
        if c.start in ctx.pks and ctx.controlled(c.start)
    ]


def gift_receivers(ctx: OrderContext, legal: Legal) -> Choices:
    """R62/R50: departments of other players' structures the player knows at least as
    `known` (the level that shows who controls a department), as the engine offers them."""
    if not legal.gift:
        return []
    rooms = legal.gift[0].rooms  # every giver shares one (engine/legal_deals.py)
    return [
        (slug, ctx.name(slug))
        for slug in sorted(rooms, key=ctx.name)
        if slug in ctx.pks and ctx.known(slug) and not ctx.controlled(slug)
    ]


def gift_choice(legal: Legal, giver: str) -> GiftChoice | None:
    return next((c for c in legal.gift if c.start == giver), None)


def handover_departments(ctx: OrderContext, legal: Legal) -> Choices:
    """R62: the departments the engine lets the player hand over, less those already offered
    to every other player (intrigue/selectors/handover_offers.py: one pending hand-over per
    department
    and receiver), so the form never offers a department it can only refuse."""
    offered = handover_offered(ctx, legal)
    everyone = {player for player, _ in ctx.other_players()}
    return [
        (c.department, ctx.name(c.department))
        for c in legal.handover
        if c.department in ctx.pks and not everyone <= offered.get(c.department, set())
    ]


def handover_offered(ctx: OrderContext, legal: Legal) -> dict[str, set[str]]:
    """Department -> the players the player's queued hand-overs offer it to, less the order
    being edited (the one `legal` was computed without)."""
    return offered_pairs(ctx.queued(Order.Kind.HANDOVER), ctx.edited_by(legal))


def accept_choices(ctx: OrderContext, legal: Legal, players: dict[str, str]) -> Choices:
    """R62: the hand-overs offered to the player that their accept would take, each named
    by its department (which the offer made `rumoured` to them: its id, not its slug, R50)
    and its giver."""
    return [
        (
            f"{ctx.pks[c.department]}{SEP}{c.giver}",
            f"{ctx.name(c.department)} ({players.get(c.giver, '?')})",
        )
        for c in legal.accept
        if c.department in ctx.pks and ctx.levels.get(c.department, Level.UNKNOWN) >= Level.RUMOURED
    ]


def deal_choices(ctx: OrderContext, kind: str, legal: Legal) -> Choices:
    """The main select of one deal kind's form: empty when there is nothing to order."""
    match kind:
        case Order.Kind.PERCEIVE:
            return perceive_choices(ctx, legal)
        case Order.Kind.GIFT:
            return gift_givers(ctx, legal) if gift_receivers(ctx, legal) else []
        case Order.Kind.HANDOVER:
            return handover_departments(ctx, legal) if ctx.other_players() else []
        case Order.Kind.ACCEPT:
            return accept_choices(ctx, legal, dict(ctx.other_players()))
    return []


@dataclass(frozen=True)
class PerceptionBonus:
    """R70/R60: what a perception check adds to its 3d6, as the engine sums it."""

    dice: int  # more dice from `dice` shticks
    skill: int  # Perception, perception shticks and `skill` shticks


def perception_bonus(ctx: OrderContext, legal: Legal) -> PerceptionBonus:
    board = legal.plan.board
    me = ctx.player.player_id
    dice, skill = board.sheets.roll_bonus(me, "perception", "", board.departments)
    return PerceptionBonus(dice, skill + board.sheets.perception(me, board.departments))
