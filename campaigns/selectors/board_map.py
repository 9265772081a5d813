"""The board map's data: a board at one moment as nodes and arrows, holding only
what the viewer may see (RULES R50 now, R51 at a past turn), for
campaigns/static/campaigns/board_map.js to draw with Cytoscape.js.

Nodes are departments seen at least `rumoured`, under an opaque id (`node_key`); arrows run
from supplier to consumer for the links the viewer sees (both ends `known`, or one end their
own: its other end is then at least a rumoured node, R50). What a level hides is never put
in: a rumoured node is a name (an arrow to or from it carries the type its `known` end
says); the controller (and its colour) needs
`known`; home, status and stash need `controlled`; a priority needs the supplier controlled.

`map_layout` is the one graph the layout is computed on: the union of what the viewer has
seen of the board at any turn and now, so a department stays where it was from turn to turn.
It is a present view (everything in it the viewer has seen, each at its own turn) and holds
only opaque ids; a past turn's map data itself holds nothing learned later.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.elections.selectors.office_views import Posts
from campaigns.history.selectors.history_records import Recorded
from campaigns.models import Board, Campaign, Membership, Order
from campaigns.selectors.board_views import (
    Pair,
    Snapshot,
    edge_key,
    link_label,
    members_of,
    node_key,
)
from campaigns.selectors.report_board_changes import links_made
from campaigns.selectors.visibility import Level, sees_everything

PALETTE = 8  # structure colours: --map-colour-0 .. 7 in campaigns/static/campaigns/map.css


@dataclass(frozen=True)
class People:
    """Every member's display name and every player's structure colour, by engine player
    id: a palette index fixed per campaign (players by membership id), so a structure keeps
    its colour on every page."""

    names: dict[str, str]
    colours: dict[str, int]


def people_of(campaign: Campaign) -> People:
    """One query at most (board_views.members_of)."""
    members = members_of(campaign)
    players = [m for m in members if m.role == Membership.Role.PLAYER]
    return People(
        names={m.player_id: m.display_name for m in members},
        colours={m.player_id: i % PALETTE for i, m in enumerate(players)},
    )


@dataclass(frozen=True)
class TurnChanges:
    """What the turn itself did on a board (its record's `before` -> `state`, and the orders
    resolved), to mark on that turn's map."""

    changed_hands: set[str] = field(default_factory=set)  # slugs whose structure changed
    added: set[Pair] = field(default_factory=set)  # links made (and kept, or gone again)
    removed: set[Pair] = field(default_factory=set)  # links gone (or made and gone again)
    attempts: list[tuple[str, str, str]] = field(default_factory=list)  # attacker, target, status
    # R50, R51: links gone that were the viewer's while they were there (an end theirs
    # before the turn: one made by a department they captured in the turn never was).
    removed_own: set[Pair] = field(default_factory=set)


def pairs(state: dict[str, Any]) -> set[Pair]:
    return {(link["from"], link["to"]) for link in state.get("links", [])}


def turn_changes(record: Recorded, orders: list[Order], viewer: Membership) -> TurnChanges:
    """The marks of one turn. Attempts are those the viewer may know of: their own, those on
    a department of theirs (R46), or every one for whoever sees everything."""
    before, after = record.before, record.state
    owners_before = {d["slug"]: d.get("structure") for d in before.get("departments", [])}
    owners_after = {d["slug"]: d.get("structure") for d in after.get("departments", [])}
    made = links_made(orders)
    old, new = pairs(before), pairs(after)
    everything = sees_everything(viewer)
    attempts = []
    for order in orders:
        if order.kind != Order.Kind.ATTEMPT or order.status == Order.Status.REJECTED:
            continue
        target = str(order.payload.get("target"))
        if (
            everything
            or order.player_id == viewer.pk
            or owners_before.get(target) == viewer.player_id
        ):
            attempts.append((str(order.payload.get("attacker")), target, str(order.status)))
    mine_before = {slug for slug, owner in owners_before.items() if owner == viewer.player_id}
    removed = (old | made) - new
    return TurnChanges(
        removed_own={p for p in removed if set(p) & mine_before},
        changed_hands={
            slug for slug, owner in owners_after.items()
            if slug in owners_before and owners_before[slug] != owner
        },
        added=(new | made) - old,
        removed=removed,
        attempts=attempts,
    )  # fmt: skip


def controller_of(
    snapshot: Snapshot, slug: str, people: People
) -> tuple[int | None, str | None, bool]:
    """(structure colour, controller's name, the viewer's own) of a department the viewer
    knows (R50: its controller is part of its card); (None, None, False) if uncontrolled."""
    owner = snapshot.owner(slug)
    if not owner:
        return None, None, snapshot.mine(slug)
    return (
        people.colours.get(owner, -1),
        people.names.get(owner, str(_("a player"))),
        snapshot.mine(slug),
    )


def node_data(snapshot: Snapshot, slug: str, people: People) -> dict[str, Any]:
    """One department as a node, with what its level shows and nothing more (R50)."""
    data = snapshot.departments[slug]
    level = snapshot.level(slug)
    node: dict[str, Any] = {
        "id": node_key(snapshot.board_id, slug),
        "label": str(data.get("name", "")),
        # The level's code, not its label (which is in the reader's language): the script
        # draws by it.
        "level": level.name.lower(),
    }
    if level >= Level.KNOWN:
        node["colour"], node["controller"], node["mine"] = controller_of(snapshot, slug, people)
    if level >= Level.CONTROLLED:
        stash = data.get("stash") or {}
        node["home"] = bool(data.get("home"))
        node["status"] = str(snapshot.figures.get(slug, {}).get("status", ""))
        node["stash"] = [int(stash.get(kind, 0)) for kind in ("money", "people", "authority")]
    return node


def edge_data(
    snapshot: Snapshot, supplier: str, consumer: str, priority: int | None
) -> dict[str, Any]:
    """One link as an arrow: its type (what the supplier produces, R10), its priority only
    for the supplier's controller (R12), and whether the consumer was funded (R34) only
    where the viewer controls the consumer (its status is private, R50)."""
    edge: dict[str, Any] = {
        "id": edge_key(snapshot.board_id, supplier, consumer),
        "source": node_key(snapshot.board_id, supplier),
        "target": node_key(snapshot.board_id, consumer),
        "type": link_label(snapshot, supplier, consumer),
        "priority": priority if snapshot.level(supplier) >= Level.CONTROLLED else None,
        "funded": None,
    }
    if snapshot.level(consumer) >= Level.CONTROLLED:
        status = snapshot.figures.get(consumer, {}).get("status")
        edge["funded"] = {"funded": True, "unfunded": False}.get(str(status))
    return edge


def map_data(
    snapshot: Snapshot,
    people: People,
    changes: TurnChanges | None = None,
    posts: Posts | None = None,
) -> dict[str, Any]:
    """The map of `snapshot` (JSON-ready), with `changes` marked: departments that changed
    hands (seen at least `known`: who controls a department is part of its card), links
    made and broken (seen as any link is), and attempts as dashed arrows between drawn
    departments; and the holders and deputies of the board's offices (`posts`, R80). No
    query."""
    changes = changes or TurnChanges()
    posts = posts or {}
    snapshot = with_gone_ends(snapshot, changes.removed_own)
    shown = {slug for slug in snapshot.departments if snapshot.level(slug) >= Level.RUMOURED}
    nodes = []
    for slug in sorted(shown):
        node = node_data(snapshot, slug, people)
        if slug in changes.changed_hands and snapshot.level(slug) >= Level.KNOWN:
            node["changed_hands"] = True
        if slug in posts:
            node["posts"] = [post.text for post in posts[slug]]
            node["office"] = "holder" if any(p.holder for p in posts[slug]) else "deputy"
        nodes.append(node)
    edges = []
    for supplier, consumer, priority in sorted(snapshot.visible_links()):
        edge = edge_data(snapshot, supplier, consumer, priority)
        if (supplier, consumer) in changes.added:
            edge["change"] = "new"
        edges.append(edge)
    current = pairs(snapshot.state)
    for supplier, consumer in sorted(changes.removed - current):
        both_known = min(snapshot.level(supplier), snapshot.level(consumer)) >= Level.KNOWN
        if both_known or (supplier, consumer) in changes.removed_own:
            edge = edge_data(snapshot, supplier, consumer, None)
            made_and_gone = (supplier, consumer) in changes.added
            edges.append({**edge, "change": "undone" if made_and_gone else "broken"})
    for i, (attacker, target, status) in enumerate(changes.attempts):
        if {attacker, target} <= shown and status != Order.Status.SUCCEEDED:
            edges.append({
                "id": f"attempt-{i}",
                "source": node_key(snapshot.board_id, attacker),
                "target": node_key(snapshot.board_id, target),
                "change": "attempt",
                "status": status,
            })  # fmt: skip
    return {"nodes": nodes, "edges": edges, "legend": legend(nodes)}


def with_gone_ends(snapshot: Snapshot, gone: set[Pair]) -> Snapshot:
    """R50, R51: the far end of a link of the viewer's that the turn broke was named to them
    while the link was there, so the turn's map draws it (as a rumour at least) beside the
    broken arrow. The map's layout has it already: it was there the turn before."""
    ends = {slug for pair in gone for slug in pair if slug in snapshot.departments}
    levels = {**snapshot.levels}
    for slug in ends:
        levels[slug] = max(snapshot.level(slug), Level.RUMOURED)
    return dataclasses.replace(snapshot, levels=levels) if ends else snapshot


def legend(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The structures the map colours, by colour: only controllers it shows (`known`), the
    viewer's own said so."""
    seen = {(n["colour"], n["controller"], n["mine"]) for n in nodes if n.get("controller")}
    return legend_of(seen)


def legend_of(seen: set[tuple[Any, Any, bool]]) -> list[dict[str, Any]]:
    """(colour, name, the viewer's own) of each structure shown, as the map's key."""
    return [{"colour": c, "name": name, "mine": mine} for c, name, mine in sorted(seen)]


def map_summary(snapshot: Snapshot, people: People) -> dict[str, Any]:
    """What the page of a big board holds of its map, which it fetches on its own (a map of
    1,000 departments is 400 KB of JSON): how many departments it draws and its key, the same
    as map_data's. No query."""
    shown = [slug for slug in snapshot.departments if snapshot.level(slug) >= Level.RUMOURED]
    seen = {
        controller_of(snapshot, slug, people)
        for slug in shown
        if snapshot.level(slug) >= Level.KNOWN and snapshot.owner(slug)
    }
    return {
        "summary": True,
        "count": len(shown),
        "legend": legend_of(seen),
    }


def map_layout(board: Board, snapshots: list[Snapshot]) -> dict[str, Any]:
    """The graph the layout is computed on: every department and link `snapshots` (every
    recorded turn of the board and now, each as the viewer saw it) show, as opaque ids."""
    nodes: set[str] = set()
    edges: set[tuple[str, str]] = set()
    for snapshot in snapshots:
        for slug in snapshot.departments:
            if snapshot.level(slug) >= Level.RUMOURED:
                nodes.add(node_key(board.pk, slug))
        for supplier, consumer, __ in snapshot.visible_links():
            edges.add((node_key(board.pk, supplier), node_key(board.pk, consumer)))
    return {"nodes": sorted(nodes), "edges": [list(e) for e in sorted(edges)]}
