"""A classic board's history as a spreadsheet (RULES R51, R90-R99): one row per processed
turn and group, read from the turn records (history_classic_records).

Every group's place, controller and parent is public (R99), so every member's file has the
same rows; a group's treasury is its controller's, filled in only where the viewer may see it
(visibility.py `sees_classic_secret`: the controller, the GM, and everyone once the GM opens
the campaign) and blank otherwise. The deck's groups have no row, for anyone: the deck is
nobody's (R99) but for its size. Values are written through campaigns/csv_cells.py, which
quotes a name a spreadsheet would run. One query for the records, one for the names."""

from __future__ import annotations

from collections.abc import Iterator

from campaigns.history.selectors.history_classic_records import ClassicGroup, classic_recorded
from campaigns.models import Board, Membership
from campaigns.selectors.board_views import player_names
from campaigns.selectors.visibility import sees_classic_secret

# The treasury's column names its unit, megabucks (R91), as the standard file's stash columns
# name their token types.
CLASSIC_COLUMNS: list[object] = [
    "turn",
    "board",
    "group",
    "name",
    "controller",
    "parent",
    "place",
    "treasury_mb",
]


def classic_row(
    number: int, board_slug: str, group: ClassicGroup, viewer: Membership, names: dict[str, str]
) -> list[object]:
    controller = group.controller
    treasury = group.treasury if sees_classic_secret(viewer, controller) else ""
    return [
        number,
        board_slug,
        group.slug,
        group.name,
        names.get(controller, controller) if controller else "",
        group.parent or "",
        group.place,
        treasury,
    ]


def classic_history_rows(board: Board, viewer: Membership) -> Iterator[list[object]]:
    """The header, then every group in play after every processed turn of classic `board`,
    by turn and group slug (see the module's text). Two queries."""
    names = player_names(board.campaign)
    yield CLASSIC_COLUMNS
    for record in classic_recorded(board):
        for group in sorted(record.in_play(), key=lambda g: g.slug):
            yield classic_row(record.number, record.board_slug, group, viewer, names)
