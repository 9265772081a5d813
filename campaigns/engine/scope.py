"""Which departments decide what becomes of some orders (RULES R13, R40-R46): checking one
player's order (R40) needs those, not the whole board.

An order reads the departments it names, their links and the structures at the other end of
those links (R10-R14 link limits, R13 departures at the end of the link phase, R43's free
incoming link, R44's capture). So resolving the orders on the departments within `reach`
links of the named ones, with the links among them, gives each of those orders exactly the
outcome (status, reason, rolls) it gets on the whole board:
- a department at distance d < reach has every one of its links in the slice;
- R13's departures are decided in one pass from the structures before it, so after the link
  phase every department at distance < reach is where it would be on the whole board;
- each capture (R44) may strand members one link further out (R13 again), so every linking
  attempt among the orders costs one more link of reach; an attempt reads its target's
  suppliers (distance 1).
Hence reach = 1 + the number of attempt orders. `tests/engine/test_scope.py` checks the
claim on random boards against resolving the whole board; selectors/order_checks.py reads
the same slice straight from the database.

The claim holds for the orders of RULES parts 1-5 on a state without the keys of parts 7-9
(ENGINE.md): shticks, goals and envelopes reach across a player's whole structure, a
hand-over names a player, and an election weighs every uncontrolled department of the
board. `sliceable` says when a slice may be used; otherwise check on the whole state."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .orders import PHASES

# R40-R47, R80: the phases in the order `resolve` runs them.
PHASE_ORDER = ("link", "move", "attempt", "election", "function")
# The order kinds of RULES parts 1-5, and the state keys of parts 7-9 (see the docstring).
CLASSIC_KINDS = frozenset(
    ("add_link", "break_link", "priority", "move", "attempt", "reinforce", "function")
)
WIDE_KEYS = ("players", "envelopes", "goals", "offices", "election")


def sliceable(state: dict[str, Any], orders: Iterable[dict[str, Any]]) -> bool:
    """May `orders` be judged on a slice of `state` (neighbourhood)? Only for the orders of
    parts 1-5 on a state without the keys of parts 7-9."""
    if any(state.get(key) for key in WIDE_KEYS):
        return False
    return all(order.get("kind") in CLASSIC_KINDS for order in orders)


# The order fields that name departments (ENGINE.md): one slug, or a list of slugs.
SLUG_FIELDS = ("from", "to", "department", "attacker", "target")
SLUG_LIST_FIELDS = ("consumers", "path")


def named_departments(orders: Iterable[dict[str, Any]]) -> set[str]:
    """Every slug the orders name in a field the engine reads as a department."""
    named: set[str] = set()
    for order in orders:
        for key in SLUG_FIELDS:
            value = order.get(key)
            if isinstance(value, str):
                named.add(value)
        for key in SLUG_LIST_FIELDS:
            values = order.get(key)
            if isinstance(values, list):
                named.update(v for v in values if isinstance(v, str))
    return named


def deciding(orders: list[dict[str, Any]], kind: object) -> list[dict[str, Any]]:
    """The orders that can decide what becomes of an order of `kind`: those of its phase and
    the phases resolved before it (resolve runs the phases in turn: a later phase never
    changes an earlier one's outcome). An unknown kind keeps them all. The orders must carry
    their `seq`: a default seq is the position in the list, which leaving orders out would
    change."""
    phase = PHASES.get(kind) if isinstance(kind, str) else None
    if phase is None:
        return orders
    last = PHASE_ORDER.index(phase)
    return [
        o
        for o in orders
        if not isinstance(o.get("kind"), str)
        or PHASE_ORDER.index(PHASES.get(o["kind"], "function")) <= last
    ]


def reach(orders: Iterable[dict[str, Any]]) -> int:
    """How many links out from the named departments the orders' outcomes depend on."""
    return 1 + sum(1 for order in orders if order.get("kind") == "attempt")


def neighbourhood(state: dict[str, Any], orders: list[dict[str, Any]]) -> dict[str, Any]:
    """`state` cut down to what decides `orders` (which replace its own): the departments
    within reach(orders) links of the named ones, and every link of those nearer than that
    (the outermost ones keep only the links that lead inwards: what they link to further
    out decides nothing)."""
    departments = state.get("departments") or []
    links = state.get("links") or []
    touching: dict[str, list[str]] = {}
    for link in links:
        touching.setdefault(link["from"], []).append(link["to"])
        touching.setdefault(link["to"], []).append(link["from"])
    inner: set[str] = set()
    frontier = named_departments(orders) & {d["slug"] for d in departments}
    for _ in range(reach(orders)):
        inner |= frontier
        frontier = {o for slug in frontier for o in touching.get(slug, ())} - inner
    kept = inner | frontier
    return {
        **state,
        "departments": [d for d in departments if d["slug"] in kept],
        "links": [x for x in links if x["from"] in inner or x["to"] in inner],
        "orders": orders,
    }
