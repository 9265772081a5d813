"""The opening of a classic turn (RULES R93): income, then draws."""

from __future__ import annotations

from typing import Any

from .state import Classic


def open_turn(board: Classic) -> dict[str, Any]:
    """R93: every group in a structure (each Illuminati included) adds its income to its
    treasury; then one group per player comes from the top of the deck onto the table."""
    income: dict[str, int] = {}
    for group in board.groups.values():
        if group.place == "structure" and group.income > 0:
            group.treasury += group.income
            income[group.slug] = group.income
    drawn = board.deck[: len(board.players)]
    del board.deck[: len(drawn)]
    for slug in drawn:
        board.groups[slug].place = "table"
    return {"income": income, "drawn": drawn}
