"""Orders other than attacks (RULES R94, R96, R97): what makes each illegal on the board as it
stands, and what each does. `legal.py` offers exactly what these allow."""

from __future__ import annotations

from .state import Classic, Group

NOT_YOURS = "not a group in your structure (R92)"
ILLUMINATI_STAYS = "an Illuminati cannot be moved, given or dropped (R91)"


def own_group(board: Classic, player: str, slug: str) -> str | None:
    """R91/R97: a group of the player's structure other than their Illuminati."""
    if not board.owns(player, slug):
        return NOT_YOURS
    return ILLUMINATI_STAYS if board.groups[slug].illuminati else None


def drop_problem(board: Classic, player: str, slug: str) -> str | None:
    """R97: the player drops one of their groups, not the Illuminati."""
    return own_group(board, player, slug)


def gift_problem(board: Classic, player: str, to_player: str, amount: int) -> str | None:
    """R97: MB from the player's Illuminati to another player's."""
    if to_player == player or to_player not in board.goals:
        return "a gift goes to another player on this board (R97)"
    if amount > board.illuminati(player).treasury:
        return "more than your Illuminati's treasury (R97)"
    return None


def transfer_problem(
    board: Classic, player: str, source: str, dest: str, amount: int
) -> str | None:
    """R97: MB between a group and its parent or child in the player's structure."""
    if not (board.owns(player, source) and board.owns(player, dest)):
        return "both groups must be in your structure (R97)"
    if board.groups[source].parent != dest and board.groups[dest].parent != source:
        return "the groups are not parent and child (R97)"
    if amount > board.groups[source].treasury:
        return "more than the group's treasury (R97)"
    return None


def move_problem(board: Classic, player: str, slug: str, to: str) -> str | None:
    """R97: a free arrow of another of the player's groups, outside the group's subtree."""
    problem = own_group(board, player, slug)
    if problem:
        return problem
    if not board.owns(player, to):
        return "the new parent is not in your structure (R97)"
    if to == slug or any(g.slug == to for g in board.subtree(slug)):
        return "the new parent is in the group's own subtree (R97)"
    if board.groups[slug].parent == to:
        return "the group hangs there already (R97)"
    if not board.free_arrow(to):
        return "the new parent has no free arrow (R92)"
    return None


def give_problem(board: Classic, player: str, slug: str, to_player: str) -> str | None:
    """R97: the player's group (not the Illuminati) to another player on this board."""
    problem = own_group(board, player, slug)
    if problem:
        return problem
    if to_player == player or to_player not in board.goals:
        return "a group is given to another player on this board (R97)"
    return None


def accept_problem(board: Classic, player: str, slug: str, parent: str) -> str | None:
    """R97: a group that can be offered (not the player's, not an Illuminati, in play), hung
    on a group of the player's structure."""
    group = board.groups[slug]
    if group.illuminati or group.place not in ("structure", "table"):
        return "only a group in play other than an Illuminati can be accepted (R97)"
    if board.owns(player, slug):
        return "the group is yours already (R97)"
    if not board.owns(player, parent):
        return "the group it hangs on is not in your structure (R97)"
    return None


def accept_fits(board: Classic, player: str, parent: str) -> bool:
    """R97: when the group is given, its new parent is the receiver's with a free arrow."""
    return board.owns(player, parent) and board.free_arrow(parent)


def defend_problem(board: Classic, player: str, slug: str) -> str | None:
    """R96: standing defence names one of the player's groups (an Illuminati is never
    attacked, R91)."""
    return own_group(board, player, slug) and "defend one of your groups, not your Illuminati (R96)"


def attackable(group: Group) -> bool:
    """R91/R95: a group on the table or in a structure, not an Illuminati."""
    return not group.illuminati and group.place in ("structure", "table")


def interfere_problem(board: Classic, slug: str) -> str | None:
    """R96: interference names a group some attack could aim at."""
    return None if attackable(board.groups[slug]) else "no attack can aim at that group (R95)"
