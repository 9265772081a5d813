"""Resolution of a turn's orders in phase order (RULES R40-R47, R62, R70, R80): the link
phase (hand-overs first), the move phase (moves and gifts), linking attempts with
reinforcements, the election, then function rolls and perception checks."""

from __future__ import annotations

from collections.abc import Callable
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
from .deals import gift, handover, matches
from .dice import order_digest, roll_pool
from .election import doubled_refusal, resolve_election
from .errors import OrderRejected
from .goals import raise_counts
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
from .perception import perceive
from .refusals import refuse
from .resolution import Resolution, parse_orders

LINK_HANDLERS: dict[str, Callable[[Board, Order], Outcome]] = {
    "add_link": add_link,
    "break_link": break_link,
    "priority": priority,
}
MOVE_HANDLERS: dict[str, Callable[[Board, Order], Outcome]] = {"move": move, "gift": gift}
DEALS = ("handover", "accept")


def resolve_orders(board: Board, raw_orders: object, *, seed: str, turn: int) -> dict[str, Any]:
    """R40-R47, R62, R70 on the working board, in phase order; returns the report."""
    orders = parse_orders(raw_orders)
    res = Resolution(board, seed, turn)
    by_phase: dict[str, list[Order]] = {
        "link": [],
        "move": [],
        "attempt": [],
        "election": [],
        "function": [],
    }
    for order in orders:
        phase = PHASES.get(order.kind) if isinstance(order.kind, str) else None
        if phase is None:
            res.outcomes[order.id] = Outcome(
                "rejected", refuse("unknown_order_kind", order_kind=order.kind)
            )
        else:
            by_phase[phase].append(order)

    resolve_handovers(res, [o for o in by_phase["link"] if o.kind in DEALS])  # R62
    for order in by_phase["link"]:  # R41
        if order.kind not in DEALS:
            res.run(order, LINK_HANDLERS[order.kind], board, order)
    board.apply_departures()  # R13 at the end of the link phase

    for order in by_phase["move"]:  # R42, R62
        res.run(order, MOVE_HANDLERS[order.kind], board, order)

    resolve_attempts(res, by_phase["attempt"])  # R43-R46

    doubled = resolve_election(res, by_phase["election"])  # R80

    resolve_rolls(res, by_phase["function"], doubled)  # R45, R70

    if board.goals:  # R61: each player's successful attempts of the turn
        won: dict[str, int] = {}
        for order_id in res.attempt_order:
            player = res.players[order_id]
            if res.outcomes[order_id].status == "succeeded" and player is not None:
                won[player] = won.get(player, 0) + 1
        raise_counts(board.goals, won)
    report: dict[str, Any] = {
        "orders": {order.id: res.outcomes[order.id].as_report() for order in orders},
        "attempt_order": res.attempt_order,
    }
    if res.election is not None:
        report["election"] = res.election
    return report


def resolve_handovers(res: Resolution, orders: list[Order]) -> None:
    """R62: hand-overs first in the link phase, in the givers' sequence; then each accept
    succeeds exactly when its hand-over did."""
    accepts = [o for o in orders if o.kind == "accept"]
    handed: set[str] = set()
    done: list[Order] = []
    for order in orders:
        if order.kind == "handover":
            outcome = res.run(order, handover, res.board, order, accepts, handed)
            if outcome.status == "succeeded":
                done.append(order)
    for order in accepts:
        res.run(order, accepted, order, done)


def accepted(order: Order, done: list[Order]) -> Outcome:
    if not any(matches(order, h) for h in done):
        raise OrderRejected(refuse("no_handover_to_you"))
    return Outcome()


def resolve_rolls(res: Resolution, orders: list[Order], doubled: set[str]) -> None:
    """R45: one function roll per department per turn, none for a department that doubled
    its support in the election (R80); R70: one perception check per department per player
    per turn; in sequence order together."""
    rolled: set[str] = set()
    perceived: set[tuple[str, str]] = set()
    for order in orders:
        if order.kind == "perceive":
            res.run(order, lambda o=order: perceive(
                res.board, o, seed=res.seed, turn=res.turn, perceived=perceived
            ))  # fmt: skip
        else:
            res.run(order, once_per_department, res, order, rolled, doubled)


def once_per_department(
    res: Resolution, order: Order, rolled: set[str], doubled: set[str]
) -> Outcome:
    slug = res.board.department(order.fields.get("department")).slug
    if slug in rolled:
        raise OrderRejected(refuse("rolled_already", dept=slug))
    if slug in doubled:
        raise OrderRejected(doubled_refusal(slug))
    outcome = function_roll(res.board, order, seed=res.seed, turn=res.turn)
    rolled.add(slug)
    return outcome


def resolve_attempts(res: Resolution, orders: list[Order]) -> None:
    """R43: each player's attempts within the per-turn limit (counted by seq) are resolved in
    the order of their HMAC digests; the rest are rejected. Reinforcements (R46) are made
    inside their attempt; any not made by then are rejected."""
    attempts = [o for o in orders if o.kind == "attempt"]
    reinforcements = [o for o in orders if o.kind == "reinforce"]
    counted: dict[str | None, int] = {}
    within: list[Order] = []
    for order in attempts:  # already in seq order
        # R43/R60: per player across every board of the state, with the player's attempts
        # shticks as they stand when the attempts begin.
        limit = res.board.attempt_limit(order.player)
        counted[order.player] = counted.get(order.player, 0) + 1
        if counted[order.player] > limit:
            res.outcomes[order.id] = Outcome("rejected", refuse("attempts_per_turn", limit=limit))
        else:
            within.append(order)
    within.sort(key=lambda o: order_digest(res.seed, res.turn, o.id))
    res.attempt_order = [o.id for o in within]
    res.players.update((o.id, o.player) for o in within)
    for order in within:
        answers = [r for r in reinforcements if r.fields.get("answers") == order.id]
        res.run(order, attempt, res, order, answers)
    for order in reinforcements:
        if order.id not in res.outcomes:
            res.outcomes[order.id] = Outcome("rejected", refuse("attempt_gone"))


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
        check_covers(attacker, {k: cost[k] + spend[k] for k in TYPES}, "short_for_attempt")
    except OrderRejected as short:
        return Outcome("failed", refuse("cannot_pay", inner=str(short)))
    attacker.spend(cost)

    reinforce(res, target, reinforcements)

    pool = attack_pool(board, attacker, target, spend)
    attacker.spend(spend)
    attack = roll_pool(
        res.seed, f"{res.turn}:{order.id}:attack", dice=pool.dice, skill=pool.skill, tn=pool.tn
    )
    defence = defence_spent(target)  # R47
    dice, extra = defence_pool(board, target, defence)
    target.spend(defence)
    defend = roll_pool(
        res.seed, f"{res.turn}:{order.id}:defend", dice=dice, skill=extra, tn=BASE_TN
    )
    rolls = [attack, defend]
    if attack.successes <= defend.successes:
        held = refuse("defence_held", attack=attack.successes, defence=defend.successes)
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
        board.cut_from_structure(target)
    if board.has_link(attacker.slug, target.slug):
        board.remove_link(attacker.slug, target.slug)
    board.add_link(attacker.slug, target.slug)
    target.structure = attacker.structure
    target.home = False
    target.defence = no_tokens()
    if old is not None:
        board.apply_departures(old)
