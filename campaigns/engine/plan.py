"""The board as one player's queued orders leave it, before the dice (RULES R40-R42, R45):
what `legal` offers is what will be legal at that point of the player's sequence.

The link and move phases have no dice, so they are resolved exactly as `resolve` does, with
the same handlers. A queued function roll spends only from its own department, so which of
them would be made is known without dice too. Queued attempts are counted, not resolved (their
outcome is dice)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import Board
from .cli_io import parse_board
from .errors import OrderRejected
from .orders import Order, function_roll, move
from .resolve import LINK_HANDLERS, parse_orders

# No die is rolled while planning except the function rolls' own, whose faces are ignored:
# any valid seed does, and none of the turn's real dice can leak through it (R23).
PLANNING_SEED = "0" * 64


@dataclass(slots=True)
class Plan:
    """`links`: after the player's queued link orders, before R13's departures (later link
    orders of the turn still see that board); `board`: after the link phase (R13) and the
    player's queued moves; `rolled`: departments whose queued function roll would be made;
    `attempts`: the player's queued linking attempts (R43 counts every one)."""

    links: Board
    board: Board
    rolled: frozenset[str]
    attempts: int


def made(handler: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
    """Run one order's handler as `resolve` does; False if it would be rejected."""
    try:
        handler(*args, **kwargs)
    except OrderRejected:
        return False
    return True


def plan(state: dict[str, Any], player: str) -> Plan:
    """R40-R42, R45: the player's queued orders of `state["orders"]` (others' are ignored:
    the player cannot know them), in their sequence. EngineError on bad input."""
    board = parse_board(state)
    mine = [o for o in parse_orders(state.get("orders")) if o.player == player]
    for order in mine:  # R41
        if order.kind in LINK_HANDLERS:
            made(LINK_HANDLERS[order.kind], board, order)
    links = copy.deepcopy(board)
    board.apply_departures()  # R13 at the end of the link phase
    for order in mine:  # R42
        if order.kind == "move":
            made(move, board, order)
    return Plan(links, board, frozenset(function_rolls_made(board, mine)), count(mine, "attempt"))


def function_rolls_made(board: Board, mine: list[Order]) -> set[str]:
    """R45: departments whose queued function roll would be made (at most one each). Rolled
    on a copy: the spends must not touch the board the other choices are read from."""
    scratch = copy.deepcopy(board)
    rolled: set[str] = set()
    for order in mine:
        if order.kind != "function":
            continue
        slug = order.fields.get("department")
        if isinstance(slug, str) and slug not in rolled:
            if made(function_roll, scratch, order, seed=PLANNING_SEED, turn=0):
                rolled.add(slug)
    return rolled


def count(orders: list[Order], kind: str) -> int:
    return sum(1 for order in orders if order.kind == kind)
