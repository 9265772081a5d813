"""Links across two boards (RULES R2, R60: a `cross_board` shtick): those that touch one
board, for its page, as the viewer may see them now (R50: a link is seen when both its ends
are seen at least `known`, or one end is the viewer's own, visibility.link_visible). Three
queries, whatever the number."""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.models import Board, Link, Membership
from campaigns.selectors.visibility import (
    Level,
    level_of,
    link_visible,
    viewer_knowledge,
    with_own_links,
)
from campaigns.words.labels import TYPE_LABELS


@dataclass(frozen=True)
class CrossLink:
    supplier: str  # "The City Watch (The City of Tourmaline)"
    consumer: str
    resource: str
    outgoing: bool  # the supplier is on this board


def cross_links(board: Board, viewer: Membership) -> list[CrossLink]:
    """No query for a board read with `crosses` False (pages.board_for(crossing=True)): no
    link crosses its edge."""
    if not getattr(board, "crosses", True):
        return []
    # Outgoing and incoming read apart: "supplier on the board OR consumer on the board" in
    # one query made PostgreSQL scan every link and department of the site (32 ms on the
    # demo's board page beside a campaign of 10,000 departments); each half follows the
    # indexes from this board's departments.
    related = ("supplier__board", "consumer__board", "supplier__structure", "consumer__structure")
    outgoing = Link.objects.filter(supplier__board=board).exclude(consumer__board=board)
    incoming = Link.objects.filter(consumer__board=board).exclude(supplier__board=board)
    rows = sorted(
        [*outgoing.select_related(*related), *incoming.select_related(*related)],
        key=lambda link: (link.supplier.name, link.consumer.name, link.pk),
    )
    if not rows:
        return []
    ids = {d for link in rows for d in (link.supplier_id, link.consumer_id)}
    knowledge = viewer_knowledge(viewer, pk__in=ids)
    found = []
    for link in rows:
        supplier, consumer = link.supplier, link.consumer
        ends = {
            "from": level_of(supplier, viewer, knowledge),
            "to": level_of(consumer, viewer, knowledge),
        }
        ends = with_own_links(ends, [("from", "to")])  # R50: a link of theirs names its far end
        if not link_visible(ends["from"], ends["to"]):
            continue
        # The type it carries, from a card the viewer knows (a rumour is a name only).
        kind = supplier.produces_type if ends["from"] >= Level.KNOWN else consumer.consumes_type
        found.append(
            CrossLink(
                f"{supplier.name} ({supplier.board.name})",
                f"{consumer.name} ({consumer.board.name})",
                str(TYPE_LABELS.get(kind, kind)),
                supplier.board_id == board.pk,
            )
        )
    return found
