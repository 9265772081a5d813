"""R46: why a player has no reinforcement of their attacked department, in words that name no
department. A reinforcement is a move (R42) ending at the target, so a player who was told
"you may reinforce" and then finds no route deserves to know which part of R42 stands in the
way: no link reaches the target, nothing unmoved to send, too few tokens for the way, or
capacity (R36). Legal.reinforce_why_not asks these in turn, most basic first."""

from __future__ import annotations

from collections import deque

from .board import Board
from .orders import room, unmoved

NOT_CONTROLLER = "only the target's controller may reinforce it (R46)"
NO_LINK = "no link from your departments reaches the target (R42, R46)"
NOTHING_UNMOVED = (
    "none of your departments whose links reach the target holds tokens that have not moved "
    "this turn (R42, R46)"
)
TARGET_FULL = "the target is at its capacity, so no token can be left there (R42, R36, R46)"
TOO_FEW = (
    "your departments whose links reach the target hold too few unmoved tokens for the way: "
    "k tokens travel at most k links (R42, R46)"
)
TOO_FAR = (
    "your departments that could send tokens are more than {n} links from the target, "
    "farther than the order form reaches (R42, R46)"
)
FULL_ON_WAY = "every way to the target passes a department at its capacity (R42, R36, R46)"


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
        return TOO_FAR.format(n=longest)
    return FULL_ON_WAY
