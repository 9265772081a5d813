"""A classic board's page at any turn (RULES R90-R99, R51): the board now, or after processed
turn N as that turn's record left it, with its map and the same turn scrubber as a standard
board's page. R99 is read-time secrecy: at turn N a treasury shows to whoever controlled the
group then (and the GM), a goal to its player, the deck to nobody, exactly as now.

Only the parts of a record the page shows are read (the groups, players, settings and
destroyed counts, cut out by the database): a classic record's state also holds the turn's
secret seed (R23), which no page may show before the GM opens the campaign. A fixed number of
queries whatever the number of groups or turns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models.fields.json import KeyTransform

from campaigns.classic.selectors.board_view import ClassicBoardView, classic_view_of
from campaigns.classic.selectors.map import classic_map
from campaigns.classic.selectors.state import stored_classic_state
from campaigns.history.selectors.history_records import turn_numbers
from campaigns.models import Board, Membership, Turn, TurnRecord
from campaigns.selectors.board_turns import Scrubber

# The keys of a classic state the page reads (ENGINE.md part 10), and nothing else.
SHOWN = ("groups", "players", "settings", "destroyed_by")


@dataclass(frozen=True)
class ClassicBoardPage:
    view: ClassicBoardView
    scrubber: Scrubber
    map: dict[str, Any]
    missing: int | None = None  # a turn asked for that has no record: the board now instead


def recorded_classic_state(board: Board, number: int) -> dict[str, Any] | None:
    """The shown parts of the state `board` was left in by processed turn `number`, or None
    if there is no such record. One query."""
    rows = TurnRecord.objects.filter(
        board=board, turn__number=number, turn__status=Turn.Status.PROCESSED
    ).values(**{key: KeyTransform(key, "state") for key in SHOWN})
    found = next(iter(rows), None)
    if found is None:
        return None
    return {key: value for key, value in found.items() if value is not None}


def classic_board_page(board: Board, viewer: Membership, number: int | None) -> ClassicBoardPage:
    """The board after turn `number` (None: now). A turn without a record (not processed,
    or before the board was made) gives the board now, with `missing` saying which was
    asked. Three queries (the turns, the state, the members)."""
    numbers = turn_numbers(board)
    state = recorded_classic_state(board, number) if number in numbers else None
    shown = number if state is not None else None
    if state is None:
        state = stored_classic_state(board)
    view = classic_view_of(state, board.campaign, viewer)
    return ClassicBoardPage(
        view=view,
        scrubber=Scrubber(numbers, shown),
        map=classic_map(view),
        missing=number if number is not None and shown is None else None,
    )
