"""Orders across two boards (RULES R2, R60): for a player holding a `cross_board` shtick that
names a board, the links they may add and the linking attempts they may make from that
board's departments to departments of the other board, as the engine's legal choices on
every board of the campaign joined (engine/joined.py, as the order checks and the turn job
join them). A department of another board is named "<board>/<slug>" in an order's fields
(the site's convention, engine/joined.py); the board's own keep their plain slugs.

Reads only. Only where the player holds such a shtick: a few queries per board then."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from campaigns.engine.joined import SEP, qualify, unqualify
from campaigns.engine.legal import AttemptChoice, LinkChoice, standard_legal_choices
from campaigns.models import Board, Membership, Order, Turn
from campaigns.selectors.state import campaign_state, order_state


@dataclass(frozen=True)
class Cross:
    """The choices that cross from `board`, named as an order of `board` names them, and
    the joined planned state (engine names) the attempt preview reads."""

    board: str
    add_link: list[LinkChoice]
    attempt: list[AttemptChoice]
    planned: dict[str, Any]

    def engine_name(self, name: str) -> str:
        """A name of an order of the board as the joined state has it."""
        return str(qualify(self.board, name))

    def far(self) -> set[str]:
        """The other boards' departments the choices name ("<board>/<slug>")."""
        return {c.consumer for c in self.add_link} | {c.target for c in self.attempt}


def crossing_boards(state: dict[str, Any], player: str, board: str) -> bool:
    """R60: does `player` hold a cross_board shtick naming `board` (their sheet in an
    ENGINE.md state of that board)?"""
    sheet = (state.get("players") or {}).get(player) or {}
    return any(
        s.get("kind") == "cross_board" and board in (s.get("boards") or [])
        for s in sheet.get("shticks") or []
    )


def cross_choices(
    player: Membership, turn: Turn, board: Board, queued: list[Order], *, longest: int
) -> Cross:
    """R2, R60: the engine's add_link and attempt choices from `board` to another board,
    after the player's `queued` orders on every board."""
    boards = list(Board.objects.filter(campaign_id=board.campaign_id).select_related("campaign"))
    by_board: dict[int, list[dict[str, Any]]] = {}
    for order in queued:
        by_board.setdefault(order.board_id, []).append(order_state(order))
    state = campaign_state(boards, turn=turn, orders=by_board)
    state["seed"] = secrets.token_hex(32)  # throwaway: no die of the turn leaks (R23)
    legal = standard_legal_choices(state, player.player_id, longest=longest)
    own = f"{board.slug}{SEP}"

    def crosses(near: str, far: str) -> bool:
        return near.startswith(own) and not far.startswith(own)

    def plain(name: str) -> str:
        return str(unqualify(board.slug, name))

    return Cross(
        board.slug,
        [
            LinkChoice(plain(c.supplier), plain(c.consumer))
            for c in legal.add_link
            if crosses(c.supplier, c.consumer)
        ],
        [
            replace(c, attacker=plain(c.attacker), target=plain(c.target))
            for c in legal.attempt
            if crosses(c.attacker, c.target)
        ],
        legal.planned,
    )
