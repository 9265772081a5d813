"""Orders other than attacks (RULES R94, R96, R97): what makes each illegal on the board as it
stands, and what each does. `legal.py` offers exactly what these allow."""

from __future__ import annotations

from ..refusals import refuse
from .state import Classic, Group

NOT_YOURS = refuse("classic_not_your_group")
ILLUMINATI_STAYS = refuse("classic_illuminati_stays")


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
        return refuse("classic_gift_to_other")
    if amount > board.illuminati(player).treasury:
        return refuse("classic_gift_too_much")
    return None


def transfer_problem(
    board: Classic, player: str, source: str, dest: str, amount: int
) -> str | None:
    """R97: MB between a group and its parent or child in the player's structure."""
    if not (board.owns(player, source) and board.owns(player, dest)):
        return refuse("classic_transfer_not_yours")
    if board.groups[source].parent != dest and board.groups[dest].parent != source:
        return refuse("classic_not_adjacent")
    if amount > board.groups[source].treasury:
        return refuse("classic_transfer_too_much")
    return None


def move_problem(board: Classic, player: str, slug: str, to: str) -> str | None:
    """R97: a free arrow of another of the player's groups, outside the group's subtree."""
    problem = own_group(board, player, slug)
    if problem:
        return problem
    if not board.owns(player, to):
        return refuse("classic_parent_not_yours")
    if to == slug or any(g.slug == to for g in board.subtree(slug)):
        return refuse("classic_parent_in_subtree")
    if board.groups[slug].parent == to:
        return refuse("classic_hangs_there")
    if not board.free_arrow(to):
        return refuse("classic_parent_no_arrow")
    return None


def give_problem(board: Classic, player: str, slug: str, to_player: str) -> str | None:
    """R97: the player's group (not the Illuminati) to another player on this board."""
    problem = own_group(board, player, slug)
    if problem:
        return problem
    if to_player == player or to_player not in board.goals:
        return refuse("classic_give_to_other")
    return None


def accept_problem(board: Classic, player: str, slug: str, parent: str) -> str | None:
    """R97: a group that can be offered (not the player's, not an Illuminati, in play), hung
    on a group of the player's structure."""
    group = board.groups[slug]
    if group.illuminati or group.place not in ("structure", "table"):
        return refuse("classic_accept_in_play")
    if board.owns(player, slug):
        return refuse("classic_yours_already")
    if not board.owns(player, parent):
        return refuse("classic_accept_parent_not_yours")
    return None


def accept_fits(board: Classic, player: str, parent: str) -> bool:
    """R97: when the group is given, its new parent is the receiver's with a free arrow."""
    return board.owns(player, parent) and board.free_arrow(parent)


def defend_problem(board: Classic, player: str, slug: str) -> str | None:
    """R96: standing defence names one of the player's groups (an Illuminati is never
    attacked, R91)."""
    return own_group(board, player, slug) and refuse("classic_defend_own")


def attackable(group: Group) -> bool:
    """R91/R95: a group on the table or in a structure, not an Illuminati."""
    return not group.illuminati and group.place in ("structure", "table")


def interfere_problem(board: Classic, slug: str) -> str | None:
    """R96: interference names a group some attack could aim at."""
    return None if attackable(board.groups[slug]) else refuse("classic_no_aim")
