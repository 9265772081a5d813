"""The board as one player's queued orders leave it, before the dice (RULES R40-R42, R45):
what `legal` offers is what will be legal at that point of the player's sequence.

The link and move phases have no dice, so they are resolved exactly as `resolve` does, with
the same handlers. A queued function roll spends only from its own department, so which of
them would be made is known without dice too. Queued attempts are counted, not resolved (their
outcome is dice)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .cli_io import parse_board
from .election import Election, by_kind
from .errors import OrderRejected
from .orders import Order, function_roll
from .resolution import Resolution, parse_orders
from .resolve import DEALS, LINK_HANDLERS, MOVE_HANDLERS, resolve_handovers

# No die is rolled while planning except the function rolls' own, whose faces are ignored:
# any valid seed does, and none of the turn's real dice can leak through it (R23).
PLANNING_SEED = "0" * 64


@dataclass(slots=True)
class Plan:
    """`links`: after the player's queued link orders, before R13's departures (later link
    orders of the turn still see that board); `board`: after the link phase (R13) and the
    player's queued moves and gifts; `rolled`: departments whose queued function roll would
    be made; `perceived`: departments the player's queued perception checks would check;
    `attempts`: the player's queued linking attempts (R43 counts every one); `handable`: the
    player's departments after the hand-overs (R62), not yet handed over this turn;
    `deals`: the hand-over and accept orders of the state; `election`: the election round
    (R80) after every election order of the state, on `board` (None without an election);
    `election_refused`: order id -> the reason `resolve` would reject that election order
    for, as things stand (another player's ticket withdrawn, say)."""

    links: Board
    board: Board
    rolled: frozenset[str]
    perceived: frozenset[str]
    attempts: int
    handable: tuple[str, ...]
    deals: list[Order]
    election: Election | None
    election_refused: dict[str, str] = field(default_factory=dict)


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
    every = parse_orders(state.get("orders"))
    mine = [o for o in every if o.player == player]
    # R62: every hand-over of the state, with the accepts of the state. The site passes the
    # player's own orders and the hand-overs offered to them, so those they accepted happen
    # here, and their own (whose accepts they cannot know) do not.
    deals = [o for o in every if o.kind in DEALS]
    handed = handovers_made(board, deals)
    handable = tuple(d.slug for d in board.departments.values() if d.structure == player)
    handable = tuple(slug for slug in handable if slug not in handed)
    for order in mine:  # R41
        if order.kind in LINK_HANDLERS:
            made(LINK_HANDLERS[order.kind], board, order)
    links = copy.deepcopy(board)
    board.apply_departures()  # R13 at the end of the link phase
    for order in mine:  # R42, R62
        if order.kind in MOVE_HANDLERS:
            made(MOVE_HANDLERS[order.kind], board, order)
    election, refused = election_made(board, every)
    doubled = election.doubled if election else set()
    return Plan(
        links,
        board,
        frozenset(function_rolls_made(board, mine) | doubled),
        frozenset(perceived(board, mine)),
        count(mine, "attempt"),
        handable,
        deals,
        election,
        refused,
    )


def election_made(board: Board, every: list[Order]) -> tuple[Election | None, dict[str, str]]:
    """R80: every election order of the state (nominations and tickets are public), judged
    as `resolve` judges them, without the dice of the attempts before them, and the reasons
    of those it would reject. A department that doubled its support gives up its function
    roll, so it counts as rolled."""
    election = Election.of(board)
    refused: dict[str, str] = {}
    if election is not None:
        for order in by_kind([o for o in every if o.player is not None]):
            try:
                election.handler(str(order.kind))(order)
            except OrderRejected as rejected:
                refused[order.id] = str(rejected)
    return election, refused


def handovers_made(board: Board, deals: list[Order]) -> set[str]:
    """R62: run the hand-over phase on `board` as `resolve` does; the departments handed over."""
    res = Resolution(board, PLANNING_SEED, 0)
    resolve_handovers(res, deals)
    return {
        str(o.fields["department"])
        for o in deals
        if o.kind == "handover" and res.outcomes[o.id].status == "succeeded"
    }


def perceived(board: Board, mine: list[Order]) -> set[str]:
    """R70: departments the player's queued perception checks would check (one each)."""
    found: set[str] = set()
    for order in mine:
        slug = order.fields.get("department")
        if order.kind == "perceive" and isinstance(slug, str) and slug in board.departments:
            found.add(slug)
    return found


def function_rolls_made(board: Board, mine: list[Order]) -> set[str]:
    """R45: departments whose queued function roll would be made (at most one each). Rolled
    on a copy: the spends must not touch the board the other choices are read from."""
    functions = [order for order in mine if order.kind == "function"]
    if not functions:
        return set()  # (no copy of the board to make)
    scratch = copy.deepcopy(board)
    rolled: set[str] = set()
    for order in functions:
        slug = order.fields.get("department")
        if isinstance(slug, str) and slug not in rolled:
            if made(function_roll, scratch, order, seed=PLANNING_SEED, turn=0):
                rolled.add(slug)
    return rolled


def count(orders: list[Order], kind: str) -> int:
    return sum(1 for order in orders if order.kind == kind)
