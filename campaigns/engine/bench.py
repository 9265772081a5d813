"""Throughput figures for the engine: random boards of a given size, timed in-process.

`python manage.py engine bench` prints them; targets: spawn-consume of 10,000
departments under 0.2 s, resolve of 5,000 orders under 0.5 s, growing linearly.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any

from .api import resolve, spawn_consume
from .board import TYPES
from .cli_io import parse_board
from .spawn import spawn_consume as run_spawn_consume

PLAYERS = ("alice", "bob", "carol", "dave")


def random_state(size: int, *, orders: int = 0, seed: int = 1) -> dict[str, Any]:
    """A legal board of `size` departments in 4 structures, links along supply chains and
    across the board, and `orders` orders of every kind (some will be rejected, as in life)."""
    rng = random.Random(seed)
    departments: list[dict[str, Any]] = []
    for i in range(size):
        consumes = rng.choice(TYPES)
        produces = rng.choice([t for t in TYPES if t != consumes])
        departments.append(
            {
                "slug": f"d{i}",
                "name": f"Department {i}",
                "effect": rng.randint(0, 4),
                "obstruct": rng.randint(0, 4),
                "impress": rng.randint(0, 4),
                "consumes": {"type": consumes, "amount": rng.randint(1, 2)},
                "produces": {"type": produces, "amount": rng.randint(1, 3)},
                "functions": {"linking": rng.randint(0, 2)},
                "alignments": [],
                "stash": {t: rng.randint(0, 3) for t in TYPES},
                "structure": PLAYERS[i % len(PLAYERS)] if i % 5 else None,
                "home": i < 8,
                "defence": {"people": rng.randint(0, 1)},
                "capacity": 20,
            }
        )
    by_type: dict[str, list[int]] = {t: [] for t in TYPES}
    for i, dept in enumerate(departments):
        by_type[dept["consumes"]["type"]].append(i)
    in_degree = [0] * size
    links = []
    for supplier in range(size):
        candidates = by_type[departments[supplier]["produces"]["type"]]
        chosen: set[int] = set()  # a supplier links to a consumer once
        for _ in range(2 if candidates else 0):  # a small board may lack such consumers
            consumer = rng.choice(candidates)
            if consumer != supplier and in_degree[consumer] < 2 and consumer not in chosen:
                links.append({"from": f"d{supplier}", "to": f"d{consumer}"})
                chosen.add(consumer)
                in_degree[consumer] += 1
    state: dict[str, Any] = {
        "turn": 1,
        "seed": f"{rng.getrandbits(256):064x}",
        "departments": departments,
        "links": links,
        "orders": random_orders(rng, departments, links, orders),
    }
    return state


def random_orders(
    rng: random.Random, departments: list[dict[str, Any]], links: list[dict[str, str]], count: int
) -> list[dict[str, Any]]:
    orders: list[dict[str, Any]] = []
    owner_of = {d["slug"]: d["structure"] for d in departments}
    for n in range(count):
        link = rng.choice(links)
        owner = owner_of[link["from"]] or "alice"
        kind = rng.choice(("move", "move", "function", "attempt", "priority", "break_link"))
        order: dict[str, Any] = {"id": f"o{n}", "player": owner, "kind": kind}
        if kind == "move":
            order |= {"from": link["from"], "path": [link["to"]], "tokens": {"money": 1}}
        elif kind == "function":
            order |= {"department": link["from"], "function": "linking", "stat": "effect"}
        elif kind == "attempt":
            order |= {"attacker": link["from"], "target": link["to"]}
        elif kind == "priority":
            order |= {"department": link["from"], "consumers": [link["to"]]}
        else:
            order |= {"from": link["from"], "to": link["to"]}
        orders.append(order)
    return orders


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The fastest of a few runs: the least disturbed by whatever else the machine does."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def best_rules_only(runs: int, state: dict[str, Any]) -> float:
    """spawn-consume's rule phase alone (R32-R36), on boards parsed beforehand: the figure
    without the ENGINE.md JSON conversion in and out."""
    boards = [parse_board(state) for _ in range(runs)]
    best = float("inf")
    for board in boards:
        started = time.perf_counter()
        run_spawn_consume(board)
        best = min(best, time.perf_counter() - started)
    return best


def lines_per_department(state: dict[str, Any]) -> float:
    """Lines of Python executed per department in one spawn-consume: the engine's work, free
    of timing noise. The same figure at every size means the work grows linearly, even where
    the time per department grows because a big board no longer fits the CPU's caches."""
    executed = 0

    def count(frame: FrameType, event: str, arg: Any) -> Callable[[FrameType, str, Any], Any]:
        nonlocal executed
        if event == "line":
            executed += 1
        return count

    sys.settrace(count)
    try:
        spawn_consume(state)
    finally:
        sys.settrace(None)
    return executed / len(state["departments"])


def run(sizes: tuple[int, ...] = (1_000, 10_000), runs: int = 5) -> list[str]:
    """Best of `runs` timings; the whole call (ENGINE.md document in, document out) and, for
    spawn-consume, the rule phase alone and the work per department."""
    lines = []
    for size in sizes:
        state = random_state(size)
        seconds = best_of(runs, partial(spawn_consume, state))
        rules = best_rules_only(runs, state)
        lines.append(
            f"spawn-consume  {size:>6} departments  {seconds * 1000:8.1f} ms"
            f"  {size / seconds:>10,.0f} departments/s   (rules only {rules * 1000:6.1f} ms,"
            f" {size / rules:>9,.0f} departments/s;"
            f" {seconds / size * 1e6:5.1f} us and {lines_per_department(state):5.1f}"
            " lines run per department)"
        )
    for size in sizes:
        orders = size // 2
        state = random_state(size, orders=orders)
        seconds = best_of(runs, partial(resolve, state))
        lines.append(
            f"resolve        {size:>6} departments  {orders:>5} orders  {seconds * 1000:8.1f} ms"
            f"  {size / seconds:>10,.0f} departments/s  {orders / seconds:>9,.0f} orders/s"
        )
    return lines
