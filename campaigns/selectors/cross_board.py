"""Links across two boards (RULES R2, R60: a `cross_board` shtick): those that touch one
board, for its page, as the viewer may see them now (R50: a link is seen when both its ends
are seen at least `known`, visibility.link_visible). Two queries, whatever the number."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Q

from campaigns.models import Board, Link, Membership
from campaigns.wording import TYPE_LABELS

from .visibility import level_of, link_visible, viewer_knowledge


@dataclass(frozen=True)
class CrossLink:
    supplier: str  # "The City Watch (The City of Tourmaline)"
    consumer: str
    resource: str
    outgoing: bool  # the supplier is on this board


def cross_links(board: Board, viewer: Membership) -> list[CrossLink]:
    rows = list(
        Link.objects.filter(Q(supplier__board=board) | Q(consumer__board=board))
        .exclude(supplier__board=F("consumer__board"))
        .select_related(
            "supplier__board", "consumer__board", "supplier__structure", "consumer__structure"
        )
        .order_by("supplier__name", "consumer__name", "pk")
    )
    if not rows:
        return []
    ids = {d for link in rows for d in (link.supplier_id, link.consumer_id)}
    knowledge = viewer_knowledge(viewer, pk__in=ids)
    found = []
    for link in rows:
        supplier, consumer = link.supplier, link.consumer
        if not link_visible(
            level_of(supplier, viewer, knowledge), level_of(consumer, viewer, knowledge)
        ):
            continue
        found.append(
            CrossLink(
                f"{supplier.name} ({supplier.board.name})",
                f"{consumer.name} ({consumer.board.name})",
                str(TYPE_LABELS.get(supplier.produces_type, supplier.produces_type)),
                supplier.board_id == board.pk,
            )
        )
    return found
