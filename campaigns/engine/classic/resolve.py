"""Resolving a classic turn's orders (RULES R94-R98, ENGINE.md part 10 steps 0-7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import EngineError, OrderRejected
from ..orders import Order
from ..refusals import refuse
from .attack import resolve_attack
from .moves import (
    accept_fits,
    accept_problem,
    defend_problem,
    drop_problem,
    gift_problem,
    give_problem,
    interfere_problem,
    move_problem,
    transfer_problem,
)
from .orders import ClassicOrder, parse_order
from .places import hang, to_table
from .state import Classic
from .turn import Turn, seat_order
from .victory import winners

PASS_INCOME = 5  # R94
ACTION_ROUNDS = 2
FREE_TRANSFERS = 2


def resolve_classic(board: Classic, raw_orders: object, *, seed: str) -> dict[str, Any]:
    """R94-R98: every order's outcome, the seat order and the winners; `board` changes."""
    turn = Turn(board, seed, board.turn, seat_order(seed, board.turn, board.players))
    orders = parse_all(turn, raw_orders)
    orders = passes(turn, orders)
    for order in [o for o in orders if o.kind in ("defend", "interfere", "accept")]:
        if run(turn, order, standing_problem):
            turn.standing.append(order)
    for kind in ("drop", "gift"):
        for order in (o for o in orders if o.kind == kind):
            run(turn, order, RUN[kind])
    action_rounds(turn, [o for o in orders if o.is_action])
    free_transfers(turn, [o for o in orders if o.kind == "transfer" and not o.action])
    for order in turn.standing:
        if order.id not in turn.spent:
            turn.report[order.id] = {
                "status": "failed",
                "reason": refuse("classic_not_used"),
                "rolls": [],
            }
        elif order.kind != "accept":
            turn.report[order.id] = {**done(), "spent": turn.spent[order.id]}
    return {"seat_order": turn.seats, "orders": turn.report, "winners": winners(board)}


def parse_all(turn: Turn, raw_orders: object) -> list[ClassicOrder]:
    """Step 0: orders rejected before anything else are never counted; the rest in seat
    order (seat, then seq, then position)."""
    if raw_orders is None:
        raw_orders = []
    if not isinstance(raw_orders, list):
        raise EngineError("orders must be a list")
    parsed = []
    for index, raw in enumerate(raw_orders):
        order = Order.parse(raw, index)
        if order.id in turn.report:
            raise EngineError(f"orders: duplicate id {order.id!r}")
        turn.report[order.id] = {}
        try:
            parsed.append(parse_order(order, turn.board))
        except OrderRejected as rejected:
            reject(turn, order.id, str(rejected))
    return sorted(parsed, key=turn.seat_key)


def reject(turn: Turn, order_id: str, reason: str) -> None:
    turn.report[order_id] = {"status": "rejected", "reason": reason, "rolls": []}


def passes(turn: Turn, orders: list[ClassicOrder]) -> list[ClassicOrder]:
    """Step 2 (R94): a player's first pass gives +5 MB to their Illuminati; every other order
    of that player is rejected. The orders of the others are returned."""
    passed: set[str] = set()
    for order in orders:
        if order.kind == "pass" and order.player not in passed:
            passed.add(order.player)
            turn.board.illuminati(order.player).treasury += PASS_INCOME
            turn.report[order.id] = {"status": "succeeded", "rolls": []}
    rest = []
    for order in orders:
        if order.player not in passed:
            rest.append(order)
        elif turn.report[order.id] == {}:
            reject(turn, order.id, refuse("classic_passed"))
    return rest


def action_rounds(turn: Turn, actions: list[ClassicOrder]) -> None:
    """Step 4 (R94): in each of two rounds, each player in seat order tries their next
    actions until one is not rejected; the actions left are rejected."""
    queues = {player: [o for o in actions if o.player == player] for player in turn.seats}
    for _ in range(ACTION_ROUNDS):
        for player in turn.seats:
            queue = queues[player]
            while queue:
                order = queue.pop(0)
                if run(turn, order, RUN[order.kind]):
                    break
    for queue in queues.values():
        for order in queue:
            reject(turn, order.id, refuse("classic_two_actions"))


def free_transfers(turn: Turn, transfers: list[ClassicOrder]) -> None:
    """Step 5 (R94): the first two transfers of each player that are not rejected."""
    done = dict.fromkeys(turn.seats, 0)
    for order in transfers:
        if done[order.player] >= FREE_TRANSFERS:
            reject(turn, order.id, refuse("classic_two_transfers"))
        elif run(turn, order, RUN["transfer"]):
            done[order.player] += 1


Runner = Callable[[Turn, ClassicOrder], dict[str, Any] | None]


def run(turn: Turn, order: ClassicOrder, runner: Runner) -> bool:
    """Runs one order; records its report entry unless it stands (None). False if rejected."""
    try:
        entry = runner(turn, order)
    except OrderRejected as rejected:
        reject(turn, order.id, str(rejected))
        return False
    if entry is not None:
        turn.report[order.id] = entry
    return True


def check(problem: str | None) -> None:
    if problem:
        raise OrderRejected(problem)


def done() -> dict[str, Any]:
    return {"status": "succeeded", "rolls": []}


def standing_problem(turn: Turn, order: ClassicOrder) -> None:
    """R96/R97: standing orders are checked on the board after the passes; they are used
    (or not) later, and reported in step 6."""
    board, player = turn.board, order.player
    if order.kind == "defend":
        check(defend_problem(board, player, order.slug("group")))
    elif order.kind == "interfere":
        check(interfere_problem(board, order.slug("target")))
    else:
        check(accept_problem(board, player, order.slug("group"), order.slug("parent")))


def run_drop(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R97: the group and its subtree go to the table, their treasuries to the bank."""
    check(drop_problem(turn.board, order.player, order.slug("group")))
    to_table(turn.board, turn.board.groups[order.slug("group")])
    return done()


def run_gift(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R97: MB from the player's Illuminati to another player's."""
    board, to_player, amount = turn.board, order.to_player or "", order.amount("amount")
    check(gift_problem(board, order.player, to_player, amount))
    board.illuminati(order.player).treasury -= amount
    board.illuminati(to_player).treasury += amount
    return done()


def run_transfer(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R97: MB between a group and its parent or child."""
    board, amount = turn.board, order.amount("amount")
    source, dest = order.slug("from"), order.slug("to")
    check(transfer_problem(board, order.player, source, dest, amount))
    board.groups[source].treasury -= amount
    board.groups[dest].treasury += amount
    return done()


def run_move(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R97: the group, with its subtree, onto a free arrow of another of the player's."""
    board, slug, to = turn.board, order.slug("group"), order.slug("to")
    check(move_problem(board, order.player, slug, to))
    hang(board, board.groups[slug], to, order.player)
    return done()


def run_give(turn: Turn, order: ClassicOrder) -> dict[str, Any]:
    """R97: the group, with its subtree and treasuries, to the receiver's first unused
    accept naming it whose parent is theirs with a free arrow; that accept succeeds."""
    board, slug, to_player = turn.board, order.slug("group"), order.to_player or ""
    check(give_problem(board, order.player, slug, to_player))
    for accept in turn.unused("accept"):
        if accept.player != to_player or accept.slug("group") != slug:
            continue
        if accept_fits(board, to_player, accept.slug("parent")):
            hang(board, board.groups[slug], accept.slug("parent"), to_player)
            turn.spent[accept.id] = 0
            turn.report[accept.id] = done()
            return done()
    raise OrderRejected(refuse("classic_not_accepted", to_player=to_player))


RUN: dict[str, Runner] = {
    "drop": run_drop,
    "gift": run_gift,
    "transfer": run_transfer,
    "move_group": run_move,
    "give_group": run_give,
    "attack": resolve_attack,
}
