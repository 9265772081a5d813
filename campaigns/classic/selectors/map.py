"""A classic board's map (RULES R90-R99): the data campaigns/static/campaigns/board_map.js
draws with Cytoscape.js and its layered (dagre) layout, as on a standard board.

Each player's power structure is a tree from their Illuminati: a control arrow from each
parent to each child (R92), and, from a group with out-arrows still free, one dashed arrow to
a small node saying how many are free (a place a control attack or a move can use, R95, R97).
The groups on the table and the destroyed pile are each drawn in a box of their own, laid
out as a block; the deck is one node with its size only.

Built from the page's `ClassicBoardView` and nothing else: whatever R99 hides from the
viewer (another's treasury, a goal, the deck's cards and order) is not in the view-model, so
it cannot be in the map either. Node ids are the groups' slugs, public like the cards."""

from __future__ import annotations

import itertools
import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.classic.selectors.board_view import ClassicBoardView, GroupRow, StructureView

TABLE, DESTROYED, DECK = "pile-table", "pile-destroyed", "pile-deck"


def group_id(slug: str) -> str:
    return f"group-{slug}"


def card_line(row: GroupRow, *, treasury: bool = True) -> str:
    """Power/transferable, resistance, income and, where the viewer sees it (and `treasury`),
    the treasury: what a player weighs an attack by (R95), short enough for a node."""
    line: str
    if row.resistance is None:  # an Illuminati (R91)
        line = _("P %(power)s/%(transferable)s · I %(income)s")
    else:
        line = _("P %(power)s/%(transferable)s · R %(resistance)s · I %(income)s")
    line %= {
        "power": row.power,
        "transferable": row.transferable,
        "resistance": row.resistance,
        "income": row.income,
    }
    if treasury and row.treasury is not None:
        line += " · " + _("%(n)s MB") % {"n": row.treasury}
    return line


def group_node(
    row: GroupRow, *, level: str, colour: int | None, controller: str | None, mine: bool
) -> dict[str, Any]:
    """One group; `controller` its player's name, "" on the table (the map then says
    "uncontrolled"), None for a destroyed group (nobody's, and not on the table)."""
    node = {
        "id": group_id(row.slug),
        "label": row.name,
        "level": level,
        "colour": colour,
        "controller": controller,
        "mine": mine,
        "illuminati": row.illuminati,
        # A destroyed group's treasury went to the bank (R95): its table shows none either.
        "detail": card_line(row, treasury=level != "destroyed"),
    }
    if controller is None:
        del node["controller"]
    return node


def free_arrows(row: GroupRow, used: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The node and the dashed arrow that mark `row`'s free out-arrows, if it has any."""
    free = row.arrows - used
    if free <= 0:
        return None
    text = ngettext("%(n)s free arrow", "%(n)s free arrows", free) % {"n": free}
    node = {"id": f"free-{row.slug}", "label": text, "level": "free", "size": "small"}
    node["unlisted"] = True
    edge = {
        "id": f"free-arrow-{row.slug}",
        "source": group_id(row.slug),
        "target": node["id"],
        "kind": "open",
        "hint": _("%(group)s: %(free)s, still open") % {"group": row.name, "free": text},
    }
    return node, edge


def structure_parts(
    structure: StructureView, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]
) -> None:
    """One power structure: its groups, its control arrows, its free arrows."""
    used: dict[str, int] = {}
    names = {row.slug: row.name for row in structure.rows}
    for row in structure.rows:
        if row.parent is not None:
            used[row.parent] = used.get(row.parent, 0) + 1
    for row in structure.rows:
        nodes.append(
            group_node(
                row,
                level="group",
                colour=structure.colour,
                controller=structure.name,
                mine=structure.mine,
            )
        )
        if row.parent is not None and row.parent in names:
            edges.append(
                {
                    "id": f"control-{row.slug}",
                    "source": group_id(row.parent),
                    "target": group_id(row.slug),
                    "kind": "control",
                    "hint": _("%(parent)s controls %(child)s")
                    % {"parent": names[row.parent], "child": row.name},
                }
            )
        free = free_arrows(row, used.get(row.slug, 0))
        if free is not None:
            nodes.append(free[0])
            edges.append(free[1])


def pile(
    pile_id: str, label: str, rows: list[GroupRow], level: str
) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """The table or the destroyed pile: a box named for it around its groups (a compound
    node, `parent` of each), and the layout's own edges (never drawn) that chain them into
    rows of about the square root of their number, so that dagre lays the pile out as a
    block beside the structures and not as one rank as long as the pile."""
    nodes: list[dict[str, Any]] = [
        {"id": pile_id, "label": label, "level": "pile", "unlisted": True}
    ]
    for row in rows:
        controller = "" if level == "table" else None
        node = group_node(row, level=level, colour=None, controller=controller, mine=False)
        nodes.append(node | {"parent": pile_id})
    width = math.isqrt(max(len(rows) - 1, 0)) + 1  # ceil(sqrt(n)) for n >= 1
    ids = [group_id(row.slug) for row in rows]
    layout = [[a, b] for i, (a, b) in enumerate(itertools.pairwise(ids)) if (i + 1) % width]
    return nodes, layout


def classic_map(view: ClassicBoardView) -> dict[str, Any]:
    """The map's JSON: nodes and edges as board_map.js reads them, and the key's structures."""
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    layout: list[list[str]] = []
    for structure in view.structures:
        structure_parts(structure, nodes, edges)
    for pile_id, label, rows, level in (
        (TABLE, _("On the table (uncontrolled)"), view.table, "table"),
        (DESTROYED, _("Destroyed"), view.destroyed, "destroyed"),
    ):
        if rows:
            more, chained = pile(pile_id, label, rows, level)
            nodes += more
            layout += chained
    if nodes or view.deck_size:
        deck = ngettext(
            "Deck: %(n)s group, face down", "Deck: %(n)s groups, face down", view.deck_size
        ) % {"n": view.deck_size}
        nodes.append({"id": DECK, "label": deck, "level": "pile", "unlisted": True})
    return {
        "nodes": nodes,
        "edges": edges,
        "layout": layout,
        "legend": [
            {"name": s.name, "colour": s.colour, "mine": s.mine}
            for s in view.structures
            if s.colour >= 0
        ],
    }
