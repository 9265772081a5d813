"""A classic board (RULES R90-R99) as the engine's state: the stored document
(models/classic.py) with what each engine call adds: the ruleset, the campaign's alignment
catalogue (R5), the turn and its seed (R23) and the turn's orders (ENGINE.md part 10)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.models import Board, ClassicBoard, Order, Turn
from campaigns.models.classic import CALL_KEYS, empty_classic_state
from campaigns.models.turn import CLASSIC_ENGINE_KINDS
from campaigns.selectors.state import order_state


def stored_classic_state(board: Board) -> dict[str, Any]:
    """The document stored for `board` (an empty one if the row is missing). 1 query."""
    return stored_classic_states([board])[board.pk]


def stored_classic_states(boards: Iterable[Board]) -> dict[int, dict[str, Any]]:
    """Board id -> the document stored for it (empty where the row is missing). 1 query."""
    pks = [board.pk for board in boards]
    found = dict(ClassicBoard.objects.filter(board__in=pks).values_list("board_id", "state"))
    return {pk: dict(found[pk]) if pk in found else empty_classic_state() for pk in pks}


def classic_engine_state(
    stored: dict[str, Any],
    *,
    catalogue: list[dict[str, object]],
    turn: Turn | None = None,
    orders: Iterable[Order] = (),
) -> dict[str, Any]:
    """ENGINE.md part 10's state of a classic board: its stored document, its ruleset, the catalogue
    (left out when empty: the engine's default applies, R5), and with `turn` its number and
    seed and the orders (none at the start, which only opens turn 1, R93)."""
    state: dict[str, Any] = {k: v for k, v in stored.items() if k not in CALL_KEYS}
    state["ruleset"] = Board.Ruleset.CLASSIC.value
    if catalogue:
        state["alignments"] = catalogue
    if turn is not None:
        state["turn"] = turn.number
        state["seed"] = turn.seed
        state["orders"] = [classic_order_state(o) for o in orders]
    return state


def classic_order_state(order: Order) -> dict[str, Any]:
    """ENGINE.md part 10's order: its stored fields, id, player (engine_player_id), seq and
    the engine's name of its kind (the site's classic gift and accept have their own)."""
    found = order_state(order)
    found["kind"] = CLASSIC_ENGINE_KINDS.get(order.kind, order.kind)  # type: ignore[call-overload]
    return found


def stored_of(result: dict[str, Any]) -> dict[str, Any]:
    """An engine result as the document kept (models/classic.py: without the call's keys)."""
    return {k: v for k, v in result.items() if k not in (*CALL_KEYS, "report")}
