"""The history as a spreadsheet for reviewers: one row per turn and department,
read from the turn records, holding only what the viewer may see (RULES R50, R51).

What a player's file holds, turn by turn, at their level of each department then:
- `controlled` (theirs then; everything for the GM, or in a campaign the GM has opened):
  every column;
- `known`: turn, board, department, controller, and the suppliers and consumers whose
  links they saw (both ends `known`); status, chain length, capacity and the stash are
  left blank (R50: they are the controller's);
- `rumoured` or `unknown`: no row. The file names departments by slug, which `rumoured`
  does not show, and a row with a name and nothing else would say only that a rumour
  existed; a department learned later has no row in the turns before.
"""

from __future__ import annotations

from collections.abc import Iterator

from campaigns.history.selectors.history_classic_export import classic_history_rows
from campaigns.history.selectors.history_records import campaign_records
from campaigns.models import Board, Campaign, Membership
from campaigns.selectors.board_map import people_of
from campaigns.selectors.board_views import Snapshot, record_snapshot
from campaigns.selectors.visibility import Level

COLUMNS = [
    "turn", "board", "department", "controller", "status", "chain_length", "capacity",
    "money", "people", "authority", "suppliers", "consumers",
]  # fmt: skip


def department_row(
    snapshot: Snapshot, board_slug: str, slug: str, names: dict[str, str]
) -> list[object] | None:
    """One department after one turn, as the viewer saw it then (see the module's text).
    The values as they are: campaigns/csv_cells.py quotes a name a spreadsheet would run
    when the rows are written."""
    level = snapshot.level(slug)
    if level < Level.KNOWN:
        return None
    data = snapshot.departments[slug]
    owner = data.get("structure")
    suppliers, consumers = snapshot.suppliers_of(slug), snapshot.consumers_of(slug)
    private: list[object] = [""] * 6
    if level >= Level.CONTROLLED:
        figures = snapshot.figures.get(slug, {})
        stash = data.get("stash") or {}
        private = [
            figures.get("status", ""),
            figures.get("chain_length", ""),
            data.get("capacity", ""),
            *(int(stash.get(kind, 0)) for kind in ("money", "people", "authority")),
        ]
    return [
        snapshot.number,
        board_slug,
        slug,
        names.get(owner, "") if owner else "",
        *private,
        ";".join(suppliers),
        ";".join(consumers),
    ]


def history_rows(
    campaign: Campaign, viewer: Membership, board: Board | None = None
) -> Iterator[list[object]]:
    """The header, then every row of every processed turn of `campaign` (of `board` only,
    if given), by turn, board and department. Two queries. A classic board's file has rows
    of its own, one per group (history_classic_export); the campaign's whole file holds the
    departments of its standard boards only, as a classic board has none."""
    if board is not None and board.is_classic:
        yield from classic_history_rows(board, viewer)
        return
    names = people_of(campaign).names
    yield COLUMNS
    for record in campaign_records(campaign, board):
        snapshot = record_snapshot(record, viewer)
        for slug in sorted(snapshot.departments):
            row = department_row(snapshot, record.board_slug, slug, names)
            if row is not None:
                yield row
