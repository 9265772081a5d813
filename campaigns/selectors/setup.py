"""Reads for the GM's set-up pages: would the boards stay legal under other settings or
another alignment catalogue (the engine decides, RULES R5). The audit log is selectors/audit.py.

Lower link limits never make a board illegal: R11 binds new links only, and the engine keeps
the links a state holds (engine/cli_io.py parse_links says why)."""

from __future__ import annotations

from typing import Any

from campaigns.engine import EngineError
from campaigns.engine.cli_io import parse_board
from campaigns.models import Campaign
from campaigns.selectors.state import board_state
from campaigns.words.game import with_names


def engine_problems(
    campaign: Campaign,
    *,
    settings: dict[str, int] | None = None,
    catalogue: list[dict[str, object]] | None = None,
) -> list[str]:
    """The engine's refusals, one line per board, if the campaign's boards were played under
    `settings` and `catalogue` (None: the campaign's own). With no board yet the catalogue
    alone is checked."""
    problems = []
    states: list[tuple[str, dict[str, Any]]] = [
        (board.name, board_state(board)) for board in campaign.boards.order_by("name")
    ]
    if not states:
        states = [("", {"departments": [], "links": []})]
    for name, state in states:
        # Only the GM reads these: every department may be named.
        names = {d["slug"]: d["name"] for d in state["departments"]}
        if settings is not None:
            state["settings"] = settings
        if catalogue is not None:
            state["alignments"] = catalogue
        try:
            parse_board(state)
        except EngineError as error:
            reason = with_names(str(error), names)
            problems.append(f"{name}: {reason}" if name else reason)
    return problems
