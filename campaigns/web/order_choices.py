"""What the order forms offer (RULES R41-R47): the engine's legal choices
(campaigns.engine.legal, read through selectors.order_context.OrderContext) as the player may
see them (R50: targets they know at least as `known` and do not control, paths through
departments they know), named; and which kinds the orders page offers, and why not. The
attempt preview is in web/attempt_preview.py. No rules arithmetic here: every number comes
from the engine."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from campaigns.elections.web.election_choices import KINDS as ELECTION_KINDS
from campaigns.elections.web.election_choices import election_form_choices
from campaigns.engine.legal import (
    NO_FREE_TARGET,
    NO_TARGET,
    AttemptChoice,
    Legal,
    MoveChoice,
)
from campaigns.engine.legal_deals import NO_ROOM
from campaigns.intrigue.selectors.order_cross import Cross
from campaigns.intrigue.web.deal_choices import DEAL_KINDS, deal_choices
from campaigns.models import Order
from campaigns.reasons import site_refusal
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.visibility import Level
from campaigns.words import game

Choices = list[tuple[str, str]]
OTHER = "__other__"  # the function choice "something else" (R45)
RUMOURED_END = "#"  # a link end known only as a rumour, by id (no slug holds "#")
ARROW = " → "
# R50: when the engine offers targets (or paths) but none the player may see.
UNSEEN = {
    Order.Kind.ATTEMPT: site_refusal("unseen_targets"),
    Order.Kind.MOVE: site_refusal("unseen_way"),
    Order.Kind.NOMINATE: site_refusal("unseen_ticket"),
    Order.Kind.SUPPORT: site_refusal("unseen_candidate"),
    Order.Kind.VOTE: site_refusal("unseen_candidate"),
    Order.Kind.PERCEIVE: site_refusal("unseen_perceive"),
    Order.Kind.GIFT: site_refusal("unseen_gift"),
    Order.Kind.HANDOVER: site_refusal("no_receiver"),
}
# R62: the engine offers departments, but each is already offered to every other player
# (one pending hand-over per department and receiver, intrigue/selectors/handover_offers.py).
ALL_OFFERED = site_refusal("all_offered")


# The kinds the orders page offers a button for (a reinforcement answers a notice instead).
# The receiver's accept (R62) answers an offer, shown with its own button, likewise.
OFFERED_KINDS = (
    Order.Kind.ADD_LINK, Order.Kind.BREAK_LINK, Order.Kind.PRIORITY, Order.Kind.MOVE,
    Order.Kind.ATTEMPT, Order.Kind.FUNCTION, Order.Kind.PERCEIVE, Order.Kind.GIFT,
    Order.Kind.HANDOVER,
)  # fmt: skip


# --- the engine's choices, as the player may see them (R50), named ----------------------


def path_label(ctx: OrderContext, slugs: list[str] | tuple[str, ...]) -> str:
    return ARROW.join(ctx.name(s) for s in slugs)


def visible_routes(ctx: OrderContext, moves: list[MoveChoice]) -> Choices:
    """R42/R50: moves from the player's departments through departments they know."""
    return [
        (",".join([m.start, *m.path]), path_label(ctx, [m.start, *m.path]))
        for m in moves
        if ctx.controlled(m.start) and all(ctx.known(s) for s in m.path)
    ]


def crossing(ctx: OrderContext, legal: Legal) -> Cross | None:
    """R2, R60: the choices to another board, after the same queued orders as `legal`."""
    return ctx.cross(without=ctx.edited_by(legal))


def visible_pairs(ctx: OrderContext, legal: Legal) -> list[AttemptChoice]:
    """R43/R50: legal pairs whose target the player knows (`known`) and does not control;
    with a cross_board shtick, those whose target is on another board too (R60)."""
    cross = crossing(ctx, legal)
    return [
        c
        for c in [*legal.attempt, *(cross.attempt if cross else [])]
        if ctx.controlled(c.attacker) and ctx.known(c.target) and not ctx.controlled(c.target)
    ]


def end_value(ctx: OrderContext, slug: str) -> str | None:
    """A link end as a form value (R50): its slug where the player knows its card, else
    "#<its id>" (the other end of a link of theirs may be only `rumoured`: a name, never a
    slug); None for one they may not name here (another board's, not known)."""
    if ctx.known(slug):
        return slug
    if slug in ctx.pks and ctx.levels.get(slug, Level.UNKNOWN) >= Level.RUMOURED:
        return f"{RUMOURED_END}{ctx.pks[slug]}"
    return None


def end_slug(ctx: OrderContext, value: str) -> str | None:
    """end_value's inverse."""
    if value.startswith(RUMOURED_END):
        return ctx.slug_of(value.removeprefix(RUMOURED_END))
    return value


def link_value(ctx: OrderContext, supplier: str, consumer: str) -> str | None:
    ends = end_value(ctx, supplier), end_value(ctx, consumer)
    return None if None in ends else "|".join(str(end) for end in ends)


def link_choices(ctx: OrderContext, legal: Legal, kind: str) -> Choices:
    """R41: links between two of the player's departments; with a cross_board shtick, to
    their departments of another board too (R60). To break: every link of one of their
    departments, whatever holds its other end (R50)."""
    cross = crossing(ctx, legal) if kind == Order.Kind.ADD_LINK else None
    return [
        (value, path_label(ctx, [c.supplier, c.consumer]))
        for c in [*legal.choices(kind), *(cross.add_link if cross else [])]
        if (value := link_value(ctx, c.supplier, c.consumer)) is not None
    ]


def priority_choices(ctx: OrderContext, legal: Legal) -> Choices:
    """R12/R41: each supplier's consumers in every order, each consumer as a link end
    (end_value: a consumer known only by rumour, the far end of a link of theirs, by its id,
    R50)."""
    choices = []
    for c in legal.priority:
        for ordering in c.orderings():
            ends = [end_value(ctx, s) for s in ordering]
            if None not in ends:
                label = f"{ctx.name(c.supplier)}: {', '.join(ctx.name(s) for s in ordering)}"
                choices.append((f"{c.supplier}|{','.join(str(e) for e in ends)}", label))
    return choices


def ordering_value(ctx: OrderContext, supplier: str, consumers: list[str]) -> str:
    """A queued priority order's consumers (slugs) as the form's value (priority_choices)."""
    return f"{supplier}|{','.join(end_value(ctx, s) or s for s in consumers)}"


def function_choices(ctx: OrderContext, legal: Legal) -> Choices:
    choices = []
    for c in legal.function:
        dept = ctx.name(c.department)
        for name, skill in c.functions:
            label = _("%(department)s: %(function)s (skill %(skill)s)")
            choices.append(
                (
                    f"{c.department}|{name}",
                    label % {"department": dept, "function": name, "skill": skill},
                )
            )
        choices.append(
            (f"{c.department}|{OTHER}", _("%(department)s: something else") % {"department": dept})
        )
    return choices


def form_choices(ctx: OrderContext, kind: str, legal: Legal | None = None) -> Choices:
    """The choices one kind's form offers (its main select)."""
    legal = legal or ctx.legal()
    match kind:
        case Order.Kind.ADD_LINK | Order.Kind.BREAK_LINK:
            return link_choices(ctx, legal, kind)
        case Order.Kind.PRIORITY:
            return priority_choices(ctx, legal)
        case Order.Kind.MOVE:
            return visible_routes(ctx, legal.move)
        case Order.Kind.ATTEMPT:
            return [(f"{c.attacker}|{c.target}", "") for c in visible_pairs(ctx, legal)]
        case Order.Kind.FUNCTION:
            return function_choices(ctx, legal)
        case kind if kind in DEAL_KINDS:
            return deal_choices(ctx, kind, legal)
    return election_form_choices(ctx, kind, legal)


@dataclass(frozen=True)
class KindOffer:
    """One order kind for the orders page: a button if `why_not` is None, else the reason."""

    kind: str
    label: str
    why_not: str | None


def why_not(ctx: OrderContext, kind: str, legal: Legal) -> str:
    """The engine's reason; where the engine's list is not empty but R50 hides it all, or
    the engine's reason is about departments outside the structure, the R50-safe one."""
    engine_reason = legal.why_not.get(kind)
    if engine_reason is None and kind == Order.Kind.HANDOVER and ctx.other_players():
        engine_reason = ALL_OFFERED
    if engine_reason is None or engine_reason in (NO_TARGET, NO_FREE_TARGET, NO_ROOM):
        engine_reason = UNSEEN.get(kind, site_refusal("unseen_anything"))
    return game.with_names(engine_reason, {})


def kinds_offered(ctx: OrderContext) -> list[KindOffer]:
    """Every kind the orders page offers on this board, and why not where it cannot; the
    election's kinds (R80) only on the board whose office is elected this turn."""
    legal = ctx.legal()
    kinds = [*OFFERED_KINDS, *(ELECTION_KINDS if ctx.state.get("election") else ())]
    return [
        KindOffer(
            kind,
            str(Order.Kind(kind).label),
            None if form_choices(ctx, kind, legal) else why_not(ctx, kind, legal),
        )
        for kind in kinds
    ]
