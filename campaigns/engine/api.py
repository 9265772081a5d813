"""The engine's public functions: ENGINE.md documents in, ENGINE.md documents out."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import classic
from .cli_io import parse_board, state_json
from .dice import check_seed
from .goals import goals_report
from .resolve import resolve_orders
from .spawn import spawn_consume as run_spawn_consume
from .values import whole


@contextmanager
def collector_paused() -> Iterator[None]:
    """The engine allocates many small acyclic objects; Python's cyclic collector would scan
    the whole (large, long-lived) heap again and again while it does, which made a
    10,000-department board cost far more than ten 1,000-department ones. Nothing the engine
    builds forms a cycle, so pausing the collector for one call loses nothing."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def spawn_consume(state: dict[str, Any]) -> dict[str, Any]:
    """RULES R32-R36 (with R60 production shticks): the state after spawn and consume, plus
    report.departments and, with goals, report.goals (R61)."""
    if classic.is_classic(state):  # R90, RULES part 10
        return classic.spawn_consume(state)
    with collector_paused():
        return _spawn_consume(state)


def resolve(state: dict[str, Any]) -> dict[str, Any]:
    """RULES R40-R47, R60-R62, R70-R71, R80: the state after the orders (no spawn), plus
    report.orders, report.attempt_order and, with an election, report.election."""
    if classic.is_classic(state):  # R90, RULES part 10
        return classic.resolve(state)
    with collector_paused():
        return _resolve(state)


def resolve_then_spawn(state: dict[str, Any]) -> dict[str, Any]:
    """RULES R31 steps 2-3, the turn job's engine work: `spawn_consume(resolve(state))` with
    the two reports merged (`orders`, `attempt_order` and `election` from resolve,
    `departments` and `goals` from spawn-consume), but the board is parsed and written out
    once instead of twice."""
    if classic.is_classic(state):  # R90, RULES part 10
        return classic.resolve_then_spawn(state)
    with collector_paused():
        board = parse_board(state)
        seed = check_seed(state.get("seed"))
        turn = whole(state.get("turn"), "turn")
        report = resolve_orders(board, state.get("orders"), seed=seed, turn=turn)
        report["departments"] = run_spawn_consume(board)
        if "goals" in state:  # R61, counted on the state returned, as spawn_consume does
            report["goals"] = goals_report(board.goals, board.departments.values())
        result = state_json(state, board)
        result["report"] = report
        return result


def _spawn_consume(state: dict[str, Any]) -> dict[str, Any]:
    board = parse_board(state)
    report: dict[str, Any] = {"departments": run_spawn_consume(board)}
    if "goals" in state:  # R61, counted on the state returned
        report["goals"] = goals_report(board.goals, board.departments.values())
    result = state_json(state, board)
    result["report"] = report
    return result


def _resolve(state: dict[str, Any]) -> dict[str, Any]:
    board = parse_board(state)
    seed = check_seed(state.get("seed"))
    turn = whole(state.get("turn"), "turn")
    report = resolve_orders(board, state.get("orders"), seed=seed, turn=turn)
    result = state_json(state, board)
    result["report"] = report
    return result
