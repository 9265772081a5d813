"""R62: the hand-overs offered to a player in the open turn, for the one-button accept on
the orders page and the campaign page. Two queries, whatever the number of offers.

The offer names its department by name and board (queuing it made the department `rumoured`
to the receiver, intrigue/services/deal_notices.py) and its giver; nothing else of the giver's
structure (R50). Whether the accept would take is the engine's to say when it is posted
(intrigue/web/deal_choices.py, engine/legal_deals.py)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from campaigns.models import Membership, Order, Turn
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level, department_rows, level_of, viewer_knowledge

SEP = "|"


@dataclass(frozen=True)
class Offer:
    board_slug: str
    board_name: str
    department: str  # its name, or UNNAMED where the GM has since lowered what they know
    giver: str
    value: str  # the accept form's choice: "<department id>|<giver's player id>" (R50: no slug)
    # The form's one-time token: a button pressed twice queues one accept.
    token: str = field(default_factory=lambda: uuid.uuid4().hex)


def offers_to(viewer: Membership, turn: Turn) -> list[Offer]:
    """The queued hand-overs of `turn` to `viewer` that they have not accepted yet."""
    if viewer.role != Membership.Role.PLAYER or turn.status != Turn.Status.OPEN:
        return []
    deals = Order.objects.filter(
        turn=turn, status=Order.Status.QUEUED, kind__in=[Order.Kind.HANDOVER, Order.Kind.ACCEPT]
    ).filter(player=viewer) | Order.objects.filter(
        turn=turn, status=Order.Status.QUEUED, kind=Order.Kind.HANDOVER,
        payload__to=viewer.player_id,
    )  # fmt: skip
    rows = list(deals.select_related("board", "player__user").order_by("seq", "pk"))
    accepted = {
        (o.board_id, o.payload.get("department"), o.payload.get("from"))
        for o in rows
        if o.kind == Order.Kind.ACCEPT
    }
    offered = [
        o
        for o in rows
        if o.kind == Order.Kind.HANDOVER
        and o.player_id != viewer.pk
        and (o.board_id, o.payload.get("department"), o.player.player_id) not in accepted
    ]
    if not offered:
        return []
    wanted = {(o.board_id, str(o.payload.get("department"))) for o in offered}
    depts = {
        (d.board_id, d.slug): d
        for d in department_rows(
            board__campaign_id=turn.campaign_id, slug__in={slug for _, slug in wanted}
        )
    }
    knowledge = viewer_knowledge(viewer, pk__in=[d.pk for d in depts.values()])
    offers = []
    for order in offered:
        slug = str(order.payload.get("department"))
        dept = depts.get((order.board_id, slug))
        if dept is None:
            continue
        named = level_of(dept, viewer, knowledge) >= Level.RUMOURED
        offers.append(
            Offer(
                order.board.slug,
                order.board.name,
                dept.name if named else str(UNNAMED),
                order.player.display_name,
                f"{dept.pk}{SEP}{order.player.player_id}",
            )
        )
    return offers
