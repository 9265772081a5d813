"""A classic board's page (RULES R90-R99): each power structure as a tree from its
Illuminati, the groups on the table, the destroyed pile and the deck's size, as one viewer may
see them. Everything about a card, its place and its controller is public (R99); treasuries
(to their controller) and goals (to their player) are decided by visibility.py's
`sees_classic_secret`, here and nowhere else; the deck's order is never read into the
view-model. The state is the board now (classic/selectors/state.py) or a turn's record
(classic/selectors/board_turns.py). A fixed number of queries whatever the number of groups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.engine.classic.state import default_win_groups
from campaigns.models import Campaign, Membership
from campaigns.selectors.board_map import people_of
from campaigns.selectors.visibility import sees_classic_secret
from campaigns.words.classic import bonus_text, goal_text


@dataclass(frozen=True)
class GroupRow:
    """One card (R91) as the viewer sees it; `treasury` None where it is hidden (R99)."""

    slug: str
    name: str
    depth: int
    power: int
    transferable: int
    resistance: int | None
    income: int
    arrows: int
    alignments: tuple[str, ...]
    bonuses: tuple[str, ...]
    illuminati: bool
    treasury: int | None
    parent: str | None


@dataclass
class StructureView:
    """One player's power structure (R92), rows in tree order from the Illuminati."""

    player: str
    name: str
    mine: bool
    goal: str | None  # None: hidden from the viewer (R99)
    colour: int  # the player's structure colour on every map (board_map.people_of)
    rows: list[GroupRow] = field(default_factory=list)


@dataclass
class ClassicBoardView:
    structures: list[StructureView]
    table: list[GroupRow]
    destroyed: list[GroupRow]
    deck_size: int
    win_groups: int
    destroyed_by: dict[str, int]


def classic_view_of(
    state: dict[str, Any], campaign: Campaign, viewer: Membership
) -> ClassicBoardView:
    """`state` (the board now, or as a turn's record left it) as `viewer` may see it: R99 is
    decided by who controlled each group in that state. 1 query at most (the members)."""
    people = people_of(campaign)
    names = people.names
    groups = [g for g in state.get("groups", []) if isinstance(g, dict)]
    players = [p for p in state.get("players", []) if isinstance(p, dict)]
    settings = state.get("settings") or {}
    win = settings.get("win_groups") or default_win_groups(len(players))
    children: dict[str | None, list[dict[str, Any]]] = {}
    for group in groups:
        if group.get("place") == "structure":
            children.setdefault(group.get("parent"), []).append(group)
    structures = []
    for player in players:
        pid = str(player.get("id"))
        seen = sees_classic_secret(viewer, pid)
        view = StructureView(
            player=pid,
            name=names.get(pid, pid),
            mine=pid == viewer.player_id and viewer.role == Membership.Role.PLAYER,
            goal=goal_text(player.get("goal"), win) if seen else None,
            colour=people.colours.get(pid, -1),
        )
        roots = [g for g in children.get(None, []) if g.get("controller") == pid]
        view.rows = tree_rows(roots, children, viewer)
        structures.append(view)
    return ClassicBoardView(
        structures=structures,
        table=[row_of(g, 0, viewer) for g in groups if g.get("place") == "table"],
        destroyed=[row_of(g, 0, viewer) for g in groups if g.get("place") == "destroyed"],
        deck_size=sum(1 for g in groups if g.get("place") == "deck"),
        win_groups=win,
        destroyed_by={names.get(p, p): n for p, n in (state.get("destroyed_by") or {}).items()},
    )


def tree_rows(
    roots: list[dict[str, Any]],
    children: dict[str | None, list[dict[str, Any]]],
    viewer: Membership,
) -> list[GroupRow]:
    """R92: depth-first from the Illuminati, children in the state's order; walked without
    recursion (the engine refuses cycles, and a stack bounds nothing by depth anyway)."""
    rows: list[GroupRow] = []
    stack = [(group, 0) for group in reversed(roots)]
    while stack:
        group, depth = stack.pop()
        rows.append(row_of(group, depth, viewer))
        stack += [(child, depth + 1) for child in reversed(children.get(group.get("slug"), []))]
    return rows


def row_of(group: dict[str, Any], depth: int, viewer: Membership) -> GroupRow:
    controller = group.get("controller") if group.get("place") == "structure" else None
    return GroupRow(
        slug=str(group.get("slug")),
        name=str(group.get("name")),
        depth=depth,
        power=int(group.get("power") or 0),
        transferable=int(group.get("transferable") or 0),
        resistance=group.get("resistance"),
        income=int(group.get("income") or 0),
        arrows=int(group.get("arrows") or 0),
        alignments=tuple(str(a) for a in group.get("alignments") or ()),
        bonuses=tuple(bonus_text(b) for b in group.get("bonuses") or () if isinstance(b, dict)),
        illuminati=bool(group.get("illuminati")),
        treasury=int(group.get("treasury") or 0)
        if sees_classic_secret(viewer, controller)
        else None,
        parent=group.get("parent"),
    )
