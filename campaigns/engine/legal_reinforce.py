"""R46: why a player has no reinforcement of their attacked department, in words that name no
department. A reinforcement is a move (R42) ending at the target, so a player who was told
"you may reinforce" and then finds no route deserves to know which part of R42 stands in the
way: no link reaches the target, nothing unmoved to send, too few tokens for the way, or
capacity (R36). Legal.reinforce_why_not asks these in turn, most basic first."""

from __future__ import annotations

from collections import deque

from .board import Board
from .orders import room, unmoved
from .refusals import refuse

NOT_CONTROLLER = refuse("not_controller")
NO_LINK = refuse("no_link_to_target")
NOTHING_UNMOVED = refuse("nothing_unmoved_near")
TARGET_FULL = refuse("target_full")
TOO_FEW = refuse("too_few_for_way")
FULL_ON_WAY = refuse("full_on_way")


def links_to(board: Board, target: str) -> dict[str, int]:
    """Department -> the fewest links from it to `target` (breadth first, against the
    links' direction). A shortest path never passes its start twice, so it is a path R42
    allows, capacity aside."""
    steps = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        for supplier in board.in_links.get(here, ()):
            if supplier not in steps:
                steps[supplier] = steps[here] + 1
                queue.append(supplier)
    del steps[target]
    return steps


def reinforce_reason(board: Board, player: str, target: str, longest: int | None) -> str:
    """Why `player` has no move ending at `target` (the caller knows there is none)."""
    dept = board.departments.get(target)
    if dept is None or dept.structure != player:
        return NOT_CONTROLLER
    steps = links_to(board, target)
    senders = [board.departments[s] for s in steps if board.departments[s].structure == player]
    if not senders:
        return NO_LINK
    tokens = {d.slug: sum(unmoved(d).values()) for d in senders}
    if not any(tokens.values()):
        return NOTHING_UNMOVED
    if room(board, dept) < 1:
        return TARGET_FULL
    able = [d.slug for d in senders if tokens[d.slug] >= steps[d.slug]]
    if not able:
        return TOO_FEW
    if longest is not None and all(steps[s] > longest for s in able):
        return refuse("too_far", links=longest)
    return FULL_ON_WAY
