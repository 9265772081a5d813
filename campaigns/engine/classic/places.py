"""Moving groups between places (RULES R92, R95, R97): a group always moves with its subtree."""

from __future__ import annotations

from .state import Classic, Group


def hang(board: Classic, group: Group, parent: str, player: str) -> None:
    """R92: `group`, with its subtree and their treasuries, hangs on `parent` of `player`."""
    for member in (group, *board.subtree(group.slug)):
        member.controller = player
    group.parent = parent
    group.place = "structure"


def to_table(board: Classic, group: Group) -> None:
    """R95/R97: `group` and its subtree go to the table, their treasuries to the bank."""
    for member in (group, *board.subtree(group.slug)):
        member.place, member.controller, member.parent, member.treasury = "table", None, None, 0


def destroy(board: Classic, group: Group) -> None:
    """R95: the group is destroyed, its subtree goes to the table; treasuries to the bank."""
    for child in board.children(group.slug):
        to_table(board, child)
    group.place, group.controller, group.parent, group.treasury = "destroyed", None, None, 0
