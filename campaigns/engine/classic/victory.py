"""Victory on a classic board (RULES R98): by the number of groups, or by the goal."""

from __future__ import annotations

from typing import Any

from .state import Classic, Goal


def winners(board: Classic) -> list[dict[str, Any]]:
    """R98: every player meeting a condition, sorted, with the conditions met, sorted."""
    found = []
    for player in sorted(board.players):
        by = []
        goal = board.goals[player]
        if goal is not None and goal_met(board, player, goal):
            by.append("goal")
        if sum(1 for _ in board.structure(player)) >= board.win_groups:
            by.append("groups")
        if by:
            found.append({"player": player, "by": by})
    return found


def goal_met(board: Classic, player: str, goal: Goal) -> bool:
    """R98: each goal kind counted on the player's structure, their Illuminati included
    (`in_play`: every structure and the table; `groups`: no goal beyond the groups)."""
    own = list(board.structure(player))
    if goal.kind == "power":
        return sum(g.power for g in own) >= goal.amount
    if goal.kind == "transferable":
        return sum(g.transferable for g in own) >= goal.amount
    if goal.kind == "money":
        return sum(g.treasury for g in own) >= goal.amount
    if goal.kind == "alignment":
        return sum(1 for g in own if goal.alignment in g.alignments) >= goal.amount
    if goal.kind == "every_alignment":
        return all(any(a in g.alignments for g in own) for a in goal.alignments)
    if goal.kind == "destroyed":
        return board.destroyed_by.get(player, 0) >= goal.amount
    if goal.kind == "in_play":
        in_play = (g for g in board.groups.values() if g.place in ("structure", "table"))
        return sum(1 for g in in_play if goal.alignment in g.alignments) >= goal.amount
    return False  # "groups": R98's count of groups is the only condition
