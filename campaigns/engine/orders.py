"""One handler per order kind (RULES R41, R42, R45). Each checks the whole order against the
current board and raises OrderRejected with the reason before changing anything, so an order
either succeeds as a whole or leaves the board as it was (R40)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .board import STAT_TYPE, TYPES, Board, Department, Tokens
from .cli_io import parse_tokens
from .dice import Reported, roll_pool
from .errors import EngineError, OrderRejected
from .refusals import refuse

PHASES = {
    "add_link": "link",
    "break_link": "link",
    "priority": "link",
    "move": "move",
    "attempt": "attempt",
    "reinforce": "attempt",
    "function": "function",
    # ENGINE.md parts 7-8: hand-overs open the link phase (their accepts are judged with
    # them), gifts go with the moves, perception checks with the function rolls.
    "handover": "link",
    "accept": "link",
    "gift": "move",
    "perceive": "function",
    # ENGINE.md part 9: after the linking attempts, before the function rolls.
    "nominate": "election",
    "running_mate": "election",
    "support": "election",
    "vote": "election",
}


@dataclass(slots=True)
class Order:
    """An order as queued: `seq` orders it within its player's sequence (R40)."""

    id: str
    player: str | None
    kind: Any
    seq: int
    index: int
    fields: dict[str, Any]

    @classmethod
    def parse(cls, raw: object, index: int) -> Order:
        if not isinstance(raw, dict):
            raise EngineError(refuse("order_object", order=index))
        order_id = raw.get("id")
        if isinstance(order_id, bool) or not isinstance(order_id, str | int) or order_id == "":
            raise EngineError(refuse("order_id", order=index))
        seq = raw.get("seq", index)
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise EngineError(refuse("order_seq", order=order_id))
        # A player that is not a string names no player: the order is rejected, and an
        # unhashable value (a list) cannot crash the per-player counting.
        player = raw.get("player")
        if not isinstance(player, str):
            player = None
        return cls(str(order_id), player, raw.get("kind"), seq, index, raw)

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.seq, self.index)


@dataclass(slots=True)
class Outcome:
    """An order's report entry; `extra` holds the keys some kinds add (a perception check's
    total and envelopes, ENGINE.md part 7)."""

    status: str = "succeeded"
    reason: str | None = None
    rolls: Sequence[Reported] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_report(self) -> dict[str, Any]:
        report: dict[str, Any] = {
            "status": self.status,
            "rolls": [roll.as_report() for roll in self.rolls],
            **self.extra,
        }
        if self.reason is not None:
            report["reason"] = self.reason
        return report


def order_tokens(value: object, what: str) -> Tokens:
    """Token amounts in an order; anything else rejects the order."""
    return parse_tokens(value, what, OrderRejected)


def own_department(board: Board, player: object, slug: object) -> Department:
    dept = board.department(slug)
    if player is None or dept.structure != player:
        raise OrderRejected(refuse("not_yours", dept=dept.slug))
    return dept


def shortfall(dept: Department, needs: Tokens) -> dict[str, tuple[int, int]]:
    """R21/R43: type -> (held, needed) for every type the stash does not cover."""
    return {t: (dept.stash[t], needs[t]) for t in TYPES if needs[t] > dept.stash[t]}


def check_covers(dept: Department, tokens: Tokens, code: str) -> None:
    """R21/R43: the stash must cover what is spent; the first type short is named."""
    short = shortfall(dept, tokens)
    if short:
        kind, (held, needed) = next(iter(short.items()))
        raise OrderRejected(refuse(code, dept=dept.slug, held=held, kind=kind, needed=needed))


# --- link phase (R41) -------------------------------------------------------------------


def link_ends(board: Board, order: Order) -> tuple[Department, Department]:
    """R14: links are added and broken only between departments of the player's structure."""
    supplier = board.department(order.fields.get("from"))
    consumer = board.department(order.fields.get("to"))
    for dept in (supplier, consumer):
        if dept.structure != order.player:
            raise OrderRejected(refuse("not_yours_link", dept=dept.slug))
    return supplier, consumer


def add_link(board: Board, order: Order) -> Outcome:
    """R10-R12, R14: a legal new link, ranked last among the supplier's links."""
    supplier, consumer = link_ends(board, order)
    problem = board.link_problem(supplier, consumer)
    if problem:
        raise OrderRejected(problem)
    board.add_link(supplier.slug, consumer.slug)
    return Outcome()


def break_link(board: Board, order: Order) -> Outcome:
    """R14, R50: break an existing link with at least one end in the player's structure (a
    player sees every link of their own departments and may break it, whoever holds the
    other end, e.g. one the GM made to a department outside it); the supplier's other
    links keep their order (R12)."""
    supplier = board.department(order.fields.get("from"))
    consumer = board.department(order.fields.get("to"))
    if order.player is None or order.player not in (supplier.structure, consumer.structure):
        raise OrderRejected(refuse("not_yours_link", dept=supplier.slug))
    if not board.has_link(supplier.slug, consumer.slug):
        raise OrderRejected(refuse("no_link", supplier=supplier.slug, consumer=consumer.slug))
    board.remove_link(supplier.slug, consumer.slug)
    return Outcome()


def priority(board: Board, order: Order) -> Outcome:
    """R12/R41: the named consumers first, in the order given, the rest after them as before."""
    supplier = own_department(board, order.player, order.fields.get("department"))
    named = order.fields.get("consumers")
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise OrderRejected(refuse("consumers_list"))
    current = board.out_links.get(supplier.slug, [])
    if len(set(named)) != len(named):
        raise OrderRejected(refuse("consumer_twice"))
    for slug in named:
        if slug not in current:
            raise OrderRejected(refuse("not_a_consumer", dept=slug, supplier=supplier.slug))
    board.out_links[supplier.slug] = named + [c for c in current if c not in named]
    return Outcome()


# --- move phase (R42) -------------------------------------------------------------------


def plan_drops(raw: object, carried: Tokens, count: int) -> list[str]:
    """The type dropped at each intermediate department: as the order names them, otherwise
    Money first, then People, then Authority (R42)."""
    left = dict(carried)
    drops: list[str] = []
    if raw is None:
        for _ in range(count):
            kind = next(t for t in TYPES if left[t] > 0)
            left[kind] -= 1
            drops.append(kind)
        return drops
    if not isinstance(raw, list) or len(raw) != count:
        raise OrderRejected(refuse("drops_count", count=count))
    for drop in raw:
        kind = drop if isinstance(drop, str) else one_token_type(drop)
        if not isinstance(kind, str) or kind not in left:
            raise OrderRejected(refuse("drops_kind", kind=kind))
        if left[kind] == 0:
            raise OrderRejected(refuse("drops_too_many", kind=kind))
        left[kind] -= 1
        drops.append(kind)
    return drops


def one_token_type(drop: object) -> str:
    if isinstance(drop, dict):
        named = {str(k): v for k, v in drop.items() if v}
        if len(named) == 1 and next(iter(named.values())) == 1:
            return next(iter(named))
    raise OrderRejected(refuse("drop_one_token"))


def unmoved(dept: Department) -> Tokens:
    """R42: the tokens a move may still pick up (not moved this turn)."""
    return {kind: dept.stash[kind] - dept.moved[kind] for kind in TYPES}


def room(board: Board, dept: Department) -> int:
    """R36/R42: how many more tokens a move may leave at `dept` (capacity - stash)."""
    return board.move_capacity(dept) - dept.total()


def move(board: Board, order: Order, must_end_at: str | None = None) -> Outcome:
    """R42: carry unmoved tokens down a path of links, one token dropped at each department
    passed, the rest left at the last; no drop may put a department over its capacity."""
    start = own_department(board, order.player, order.fields.get("from"))
    path = order.fields.get("path")
    if not isinstance(path, list) or not path or not all(isinstance(p, str) for p in path):
        raise OrderRejected(refuse("empty_path"))
    steps = [board.department(slug) for slug in path]
    if len(set(path)) != len(path) or start.slug in path:
        raise OrderRejected(refuse("path_repeats"))
    previous = start.slug
    for dept in steps:
        if not board.has_link(previous, dept.slug):
            raise OrderRejected(refuse("no_link_path", supplier=previous, consumer=dept.slug))
        previous = dept.slug
    if must_end_at is not None and steps[-1].slug != must_end_at:
        raise OrderRejected(refuse("must_end_at_target", target=must_end_at))
    tokens = order_tokens(order.fields.get("tokens"), "tokens")
    carried = sum(tokens.values())
    if carried < len(steps):
        raise OrderRejected(refuse("too_many_steps", carried=carried, steps=carried))
    check_unmoved(start, tokens)
    drops = plan_drops(order.fields.get("drops"), tokens, len(steps) - 1)
    rest = dict(tokens)
    for kind in drops:
        rest[kind] -= 1
    arrivals = [(dept, {kind: 1}) for dept, kind in zip(steps, drops, strict=False)]
    arrivals.append((steps[-1], {k: n for k, n in rest.items() if n}))
    for dept, arriving in arrivals:
        check_room(board, dept, sum(arriving.values()))
    for kind in TYPES:
        start.stash[kind] -= tokens[kind]
    for dept, arriving in arrivals:
        arrive(dept, arriving)
    return Outcome()


def check_room(
    board: Board, dept: Department, arriving: int, code: str = "move_over_capacity"
) -> None:
    """R42/R36: tokens left at `dept` (by a move, or a gift, R62) may not put it over its
    capacity."""
    if arriving > room(board, dept):
        capacity = board.move_capacity(dept)
        raise OrderRejected(refuse(code, dept=dept.slug, capacity=capacity))


def check_unmoved(dept: Department, tokens: Tokens) -> None:
    """R42: only tokens that have not moved this turn can be picked up."""
    free = unmoved(dept)
    for kind in TYPES:
        if tokens[kind] > free[kind]:
            raise OrderRejected(
                refuse("too_few_unmoved", dept=dept.slug, unmoved=free[kind], kind=kind)
            )


def arrive(dept: Department, tokens: Tokens) -> None:
    """R42: tokens dropped or left by a move (or a gift, R62) count as moved this turn."""
    for kind, n in tokens.items():
        dept.stash[kind] += n
        dept.moved[kind] += n


# --- function rolls (R45) ---------------------------------------------------------------


def pool_for(dept: Department, stat: str, spend: Tokens) -> tuple[int, int]:
    """R21: (dice, extra skill) for rolling `stat`: each token of the stat's own type adds a
    die, each token of another type adds 1 skill."""
    own = STAT_TYPE[stat]
    dice = getattr(dept, stat) + spend[own]
    skill = sum(n for kind, n in spend.items() if kind != own)
    return dice, skill


def function_roll(board: Board, order: Order, *, seed: str, turn: int) -> Outcome:
    """R45/R22: for 7s with the function's skill, or for 9s with skill 0 outside its
    functions; succeeded whatever the successes (the GM says what they mean)."""
    dept = own_department(board, order.player, order.fields.get("department"))
    function = order.fields.get("function")
    if not isinstance(function, str) or not function.strip():
        raise OrderRejected(refuse("roll_names_nothing"))
    stat = order.fields.get("stat")
    if not isinstance(stat, str) or stat not in STAT_TYPE:
        raise OrderRejected(refuse("bad_stat"))
    spend = order_tokens(order.fields.get("spend"), "spend")
    check_covers(dept, spend, "short_for_roll")
    skill = dept.function_skill(function)
    tn = 9 if skill is None else 7
    dice, extra = pool_for(dept, stat, spend)
    more_dice, more_skill = board.sheets.roll_bonus(
        dept.structure, "function", dept.slug, board.departments
    )  # R60
    dept.spend(spend)
    key = f"{turn}:{order.id}:function"
    skill = (skill or 0) + extra + more_skill
    return Outcome(rolls=[roll_pool(seed, key, dice=dice + more_dice, skill=skill, tn=tn)])
