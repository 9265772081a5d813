"""Resolution of a turn's orders in phase order (RULES R40-R47): the link phase, the move
phase, linking attempts with reinforcements, then function rolls."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .attempts import (
    BASE_TN,
    attack_pool,
    attempt_problem,
    cost_due,
    cost_tokens,
    defence_pool,
    defence_spent,
)
from .board import TYPES, Board, Department, no_tokens
from .dice import order_digest, roll_pool
from .errors import EngineError, OrderRejected
from .orders import (
    PHASES,
    Order,
    Outcome,
    add_link,
    break_link,
    check_covers,
    function_roll,
    move,
    order_tokens,
    own_department,
    priority,
)

LINK_HANDLERS: dict[str, Callable[[Board, Order], Outcome]] = {
    "add_link": add_link,
    "break_link": break_link,
    "priority": priority,
}


@dataclass(slots=True)
class Resolution:
    board: Board
    seed: str
    turn: int
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    attempt_order: list[str] = field(default_factory=list)

    def run(self, order: Order, handler: Callable[..., Outcome], *args: Any) -> Outcome:
        """Run `handler(*args)` for one order; an illegal order is rejected with its reason
        and changes nothing."""
        if order.player is None:  # Order.parse makes any non-string player None
            outcome = Outcome("rejected", "the order names no player")
        else:
            try:
                outcome = handler(*args)
            except OrderRejected as rejected:
                outcome = Outcome("rejected", str(rejected))
        self.outcomes[order.id] = outcome
        return outcome


def parse_orders(raw: object) -> list[Order]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise EngineError("orders must be a list")
    orders = [Order.parse(item, index) for index, item in enumerate(raw)]
    seen: set[str] = set()
    for order in orders:
        if order.id in seen:
            raise EngineError(f"duplicate order id {order.id!r}")
        seen.add(order.id)
    return sorted(orders, key=lambda o: o.sort_key)


def resolve_orders(board: Board, raw_orders: object, *, seed: str, turn: int) -> dict[str, Any]:
    """R40-R47 on the working board, in phase order; returns the report."""
    orders = parse_orders(raw_orders)
    res = Resolution(board, seed, turn)
    by_phase: dict[str, list[Order]] = {"link": [], "move": [], "attempt": [], "function": []}
    for order in orders:
        phase = PHASES.get(order.kind) if isinstance(order.kind, str) else None
        if phase is None:
            res.outcomes[order.id] = Outcome("rejected", f"unknown order kind {order.kind!r}")
        else:
            by_phase[phase].append(order)

    for order in by_phase["link"]:  # R41
        res.run(order, LINK_HANDLERS[order.kind], board, order)
    board.apply_departures()  # R13 at the end of the link phase

    for order in by_phase["move"]:  # R42
        res.run(order, move, board, order)

    resolve_attempts(res, by_phase["attempt"])  # R43-R46

    rolled: set[str] = set()
    for order in by_phase["function"]:  # R45: one function roll per department per turn
        res.run(order, once_per_department, res, order, rolled)

    return {
        "orders": {order.id: res.outcomes[order.id].as_report() for order in orders},
        "attempt_order": res.attempt_order,
    }


def once_per_department(res: Resolution, order: Order, rolled: set[str]) -> Outcome:
    slug = res.board.department(order.fields.get("department")).slug
    if slug in rolled:
        raise OrderRejected(f"{slug} already made a function roll this turn (R45)")
    outcome = function_roll(res.board, order, seed=res.seed, turn=res.turn)
    rolled.add(slug)
    return outcome


def resolve_attempts(res: Resolution, orders: list[Order]) -> None:
    """R43: each player's attempts within the per-turn limit (counted by seq) are resolved in
    the order of their HMAC digests; the rest are rejected. Reinforcements (R46) are made
    inside their attempt; any not made by then are rejected."""
    attempts = [o for o in orders if o.kind == "attempt"]
    reinforcements = [o for o in orders if o.kind == "reinforce"]
    limit = res.board.settings.attempts_per_turn
    counted: dict[str | None, int] = {}
    within: list[Order] = []
    for order in attempts:  # already in seq order
        counted[order.player] = counted.get(order.player, 0) + 1
        if counted[order.player] > limit:
            res.outcomes[order.id] = Outcome(
                "rejected", f"only {limit} linking attempt(s) per turn (R43)"
            )
        else:
            within.append(order)
    within.sort(key=lambda o: order_digest(res.seed, res.turn, o.id))
    res.attempt_order = [o.id for o in within]
    for order in within:
        answers = [r for r in reinforcements if r.fields.get("answers") == order.id]
        res.run(order, attempt, res, order, answers)
    for order in reinforcements:
        if order.id not in res.outcomes:
            res.outcomes[order.id] = Outcome(
                "rejected", "its linking attempt was rejected, could not pay, or does not exist"
            )


def check_attempt(board: Board, order: Order) -> tuple[Department, Department, int]:
    """R43 legality (attempts.attempt_problem): (attacker, target, cost to pay)."""
    attacker = own_department(board, order.player, order.fields.get("attacker"))
    target = board.department(order.fields.get("target"))
    problem = attempt_problem(board, order.player, attacker, target)
    if problem:
        raise OrderRejected(problem)
    return attacker, target, cost_due(target)[0]


def attempt(res: Resolution, order: Order, reinforcements: list[Order]) -> Outcome:
    """R43-R46: pay, let the defender reinforce, roll Impress against Obstruct, capture.
    The pools come from attempts.py, which the order forms' preview reads too."""
    board = res.board
    attacker, target, _ = check_attempt(board, order)
    cost = cost_tokens(target, order.fields.get("cost"))
    spend = order_tokens(order.fields.get("spend"), "spend")
    try:
        check_covers(attacker, {k: cost[k] + spend[k] for k in TYPES}, "the attempt")
    except OrderRejected as short:
        return Outcome("failed", f"cannot pay: {short} (R43)")
    attacker.spend(cost)

    reinforce(res, target, reinforcements)

    pool = attack_pool(board, attacker, target, spend)
    attacker.spend(spend)
    attack = roll_pool(
        res.seed, f"{res.turn}:{order.id}:attack", dice=pool.dice, skill=pool.skill, tn=pool.tn
    )
    defence = defence_spent(target)  # R47
    dice, extra = defence_pool(target, defence)
    target.spend(defence)
    defend = roll_pool(
        res.seed, f"{res.turn}:{order.id}:defend", dice=dice, skill=extra, tn=BASE_TN
    )
    rolls = [attack, defend]
    if attack.successes <= defend.successes:
        held = f"the defence held: {attack.successes} against {defend.successes} successes (R43)"
        return Outcome("failed", held, rolls)
    capture(board, attacker, target)
    return Outcome(rolls=rolls)


def reinforce(res: Resolution, target: Department, reinforcements: list[Order]) -> None:
    """R46: the target's controller's first reinforcement (by seq) is made now as a free move
    ending at the target; every other one answering this attempt is rejected."""
    controller = target.structure
    first = True
    for order in reinforcements:  # already in seq order
        if controller is None or order.player != controller:
            res.outcomes[order.id] = Outcome(
                "rejected", "only the target's controller may reinforce it (R46)"
            )
        elif not first:
            res.outcomes[order.id] = Outcome(
                "rejected", "only the first reinforcement of an attempt is made (R46)"
            )
        else:
            first = False
            res.run(order, move, res.board, order, target.slug)


def capture(board: Board, attacker: Department, target: Department) -> None:
    """R44: the target leaves its old structure (links to it removed) and joins the
    attacker's with a new link attacker->target ranked last; the old structure then loses
    its stranded non-home members (R13). The target's old home status and standing defence
    belonged to its old controller, so they are cleared."""
    old = target.structure
    if old is not None:
        for supplier in list(board.in_links.get(target.slug, ())):
            if board.departments[supplier].structure == old:
                board.remove_link(supplier, target.slug)
        for consumer in list(board.out_links.get(target.slug, ())):
            if board.departments[consumer].structure == old:
                board.remove_link(target.slug, consumer)
    if board.has_link(attacker.slug, target.slug):
        board.remove_link(attacker.slug, target.slug)
    board.add_link(attacker.slug, target.slug)
    target.structure = attacker.structure
    target.home = False
    target.defence = no_tokens()
    if old is not None:
        board.apply_departures(old)
