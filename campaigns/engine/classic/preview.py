"""The preview of a classic attack on the order form (RULES R95, R96): its need term by term
and its exact chance, with the defender's spending and interference the caller knows of."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import EngineError, OrderRejected
from ..orders import Order
from .attack import Aid, attack_problem, need_terms
from .odds import attack_chance
from .orders import parse_order
from .state import parse_classic


def attack_preview(
    state: dict[str, Any], order: dict[str, Any], aid: Aid | None = None
) -> dict[str, Any]:
    """R95: `{"attack": [[term, n], ...], "defence": [...], "need": n, "chance": Fraction}` for
    an attack order on the board as it stands; EngineError names why it is not legal."""
    board = parse_classic(state)
    try:
        parsed = parse_order(Order.parse({"id": "preview", **order}, 0), board)
    except OrderRejected as rejected:
        raise EngineError(str(rejected)) from None
    if parsed.kind != "attack":
        raise EngineError("only an attack has a preview (R95)")
    problem = attack_problem(board, (), parsed.player, parsed)
    if problem:
        raise EngineError(problem)
    need = need_terms(board, parsed.player, parsed, aid or Aid())
    chance: Fraction = attack_chance(need.need)
    return {
        "attack": [list(term) for term in need.attack_terms],
        "defence": [list(term) for term in need.defence_terms],
        "need": need.need,
        "chance": chance,
    }
