"""What the GM's editor of a classic board (RULES R90-R92, R53) reads: one group of the stored
document, one player's Illuminati and goal, and the groups a group may hang on. Groups in the
deck are face down to everyone, the GM included (R99: the deck's order is nobody's), so the
editor never reads one out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.models import Board, Membership
from campaigns.selectors.board_views import player_names


@dataclass(frozen=True)
class ClassicPlayer:
    """A player of the board: engine id, name, their Illuminati (None if they have none) and
    goal as stored."""

    pid: str
    name: str
    illuminati: dict[str, Any] | None
    goal: dict[str, Any] | None


def groups_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for g in state.get("groups") or [] if isinstance(g, dict)]


def editable_group(state: dict[str, Any], slug: str) -> dict[str, Any] | None:
    """The group `slug` unless it is in the deck (face down, R99)."""
    return next(
        (g for g in groups_of(state) if g.get("slug") == slug and g.get("place") != "deck"), None
    )


def parent_choices(
    state: dict[str, Any], slug: str, names: dict[str, str]
) -> list[tuple[str, str]]:
    """The groups in a structure another group may hang on (R92): slug -> "Name (player)".
    Whether it has a free arrow, or lies in the group's own subtree, is the engine's review."""
    return [
        (str(g["slug"]), f"{g.get('name')} ({names.get(str(g.get('controller')), '?')})")
        for g in groups_of(state)
        if g.get("place") == "structure" and g.get("slug") != slug
    ]


def classic_player(board: Board, state: dict[str, Any], pid: str) -> ClassicPlayer | None:
    """Player `pid` (an engine id) of the board, or None if the board has no such player.
    1 query (the names)."""
    entry = next(
        (p for p in state.get("players") or [] if isinstance(p, dict) and p.get("id") == pid),
        None,
    )
    if entry is None:
        return None
    illuminati = next(
        (
            g
            for g in groups_of(state)
            if g.get("illuminati") and g.get("controller") == pid and g.get("place") == "structure"
        ),
        None,
    )
    name = player_names(board.campaign).get(pid, pid)
    goal = entry.get("goal") if isinstance(entry.get("goal"), dict) else None
    return ClassicPlayer(pid=pid, name=name, illuminati=illuminati, goal=goal)


def user_name_ids(board: Board) -> dict[str, str]:
    """User name -> engine id of the campaign's players: the engine's reasons name players by
    engine id, the GM reads user names (classic/services/boards.py `named_back`)."""
    members = board.campaign.memberships.filter(role=Membership.Role.PLAYER)
    return {m.user.get_username(): m.player_id for m in members.select_related("user")}
