"""A classic board (RULES R90-R99) as the engine's state: the stored document
(models/classic.py) with what each engine call adds: the ruleset, the campaign's alignment
catalogue (R5), the turn and its seed (R23) and the turn's orders (ENGINE.md part 10)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.models import Board, ClassicBoard, Order, Turn
from campaigns.models.classic import CALL_KEYS
from campaigns.selectors.state import order_state


def campaign_catalogue(board: Board) -> list[dict[str, object]]:
    """R5: the campaign's own catalogue; empty means the engine's default one (as
    selectors/state.py board_state gives a standard board)."""
    return [a.as_engine() for a in board.campaign.alignments.all()]


def stored_classic_state(board: Board) -> dict[str, Any]:
    """The document stored for `board` (an empty one if the row is missing). 1 query."""
    row = ClassicBoard.objects.filter(board=board).values_list("state", flat=True).first()
    return dict(row) if row is not None else ClassicBoard().state


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
        state["orders"] = [order_state(o) for o in orders]
    return state


def stored_of(result: dict[str, Any]) -> dict[str, Any]:
    """An engine result as the document kept (models/classic.py: without the call's keys)."""
    return {k: v for k, v in result.items() if k not in (*CALL_KEYS, "report")}
