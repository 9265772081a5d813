"""The groups other players give to the viewer this turn on a classic board (RULES R97): a
gift of a group needs the receiver's accept in the same turn, so the orders page lists each
offer with the one button that queues that accept, instead of leaving the receiver to find
the group among every group in play in the accept form. One query for every classic board."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db.models import Q

from campaigns.classic.selectors.orders import ClassicOrderContext
from campaigns.models import Membership, Order, Turn

Kind = Order.Kind


@dataclass(frozen=True)
class GroupOffer:
    """One group offered to the viewer; `parents` the accept form's choices ("<group>|<parent>",
    the parent's name), the Illuminati first: the viewer's groups with a free arrow."""

    board_slug: str
    board_name: str
    group: str  # its name
    giver: str
    parents: list[tuple[str, str]]
    # The form's one-time token: a button pressed twice queues one accept.
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def classic_gives(viewer: Membership, turn: Turn) -> list[Order]:
    """The turn's queued gifts of a group to `viewer` and the viewer's own queued accepts."""
    if viewer.role != Membership.Role.PLAYER or turn.status != Turn.Status.OPEN:
        return []
    mine = Q(player=viewer, kind=Kind.CLASSIC_ACCEPT)
    to_me = Q(kind=Kind.CLASSIC_GIVE, payload__to_player=viewer.player_id)
    return list(
        Order.objects.filter(turn=turn, status=Order.Status.QUEUED)
        .filter(mine | to_me)
        .select_related("player__user")
        .order_by("seq", "pk")
    )


def classic_group_offers(ctx: ClassicOrderContext, orders: list[Order]) -> list[GroupOffer]:
    """The offers on `ctx`'s board not accepted yet, each with where the group may hang.
    An offer the viewer cannot take (no free arrow) still shows, without parents: the
    template says why."""
    board = ctx.board
    accepted = {
        str(o.payload.get("group"))
        for o in orders
        if o.board_id == board.pk and o.kind == Kind.CLASSIC_ACCEPT
    }
    legal = ctx.legal
    offers = []
    for order in orders:
        slug = str(order.payload.get("group"))
        if order.board_id != board.pk or order.kind != Kind.CLASSIC_GIVE or slug in accepted:
            continue
        parents: list[tuple[str, str]] = []
        if legal is not None:
            fits = [
                o
                for o in ctx.options(Kind.CLASSIC_ACCEPT)
                if o.fields["group"] == slug and legal.board.free_arrow(o.fields["parent"])
            ]
            fits.sort(key=lambda o: not legal.board.groups[o.fields["parent"]].illuminati)
            parents = [(o.value, ctx.group_name(o.fields["parent"])) for o in fits]
        offers.append(
            GroupOffer(board.slug, board.name, ctx.group_name(slug), order.player.display_name,
                       parents)
        )  # fmt: skip
    return offers
