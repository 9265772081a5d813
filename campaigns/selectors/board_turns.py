"""The board page at any turn (issue 11): the board now, or after processed turn N as the
viewer knew it then (RULES R51), with its map and a scrubber through the turns. A fixed
number of queries whatever the number of turns or departments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.models import Board, Campaign, Department, Membership

from .board_map import map_data, map_layout, people_of, recorded_map
from .board_views import BoardView, board_view_of, live_names, live_snapshot, record_snapshot
from .history_records import (
    board_record,
    board_records,
    resolved_orders,
    turn_numbers,
    turn_records,
)
from .office_views import Post, live_posts, seen_posts, state_posts


@dataclass(frozen=True)
class Scrubber:
    """Which turns the board can be shown after, and where the shown one sits among them."""

    numbers: list[int]  # processed turns with a record of this board, in order
    shown: int | None  # None: the board now

    @property
    def first(self) -> int | None:
        return self.numbers[0] if self.numbers else None

    @property
    def last(self) -> int | None:
        return self.numbers[-1] if self.numbers else None

    @property
    def value(self) -> int | None:
        """The slider's position: the shown turn, or the latest for the board now."""
        return self.last if self.shown is None else self.shown

    @property
    def previous(self) -> int | None:
        """The turn before the shown one (before "now": the latest turn)."""
        if self.shown is None:
            return self.last
        earlier = [n for n in self.numbers if n < self.shown]
        return earlier[-1] if earlier else None

    @property
    def following(self) -> int | None:
        """The turn after the shown one; None after the latest (then: "now")."""
        later = [n for n in self.numbers if self.shown is not None and n > self.shown]
        return later[0] if later else None


@dataclass(frozen=True)
class BoardPage:
    board: BoardView
    scrubber: Scrubber
    map: dict[str, Any]
    missing: int | None = None  # a turn asked for that has no record: the board now instead
    # R80: node key -> the office posts of each department shown (the cards' badges).
    posts: dict[str, list[Post]] = field(default_factory=dict)


def card_texts(board: Board) -> dict[str, Department]:
    """What a record's state does not hold (description, flaws), by slug. One query."""
    rows = Department.objects.filter(board=board).only("slug", "description", "flaws")
    return {d.slug: d for d in rows}


def board_layout(board: Board, viewer: Membership) -> dict[str, Any]:
    """The graph the map's layout is computed on (board_map.map_layout): every recorded turn
    of the board as the viewer knew it, and the board now. Three or four queries."""
    snapshots = [record_snapshot(r, viewer) for r in board_records(board)]
    snapshots.append(live_snapshot(board, viewer)[0])
    return map_layout(board, snapshots)


def board_page(board: Board, viewer: Membership, number: int | None) -> BoardPage:
    """The board after turn `number` (None: now). A turn that was not processed (or is not
    a number the board has) gives the board now, with `missing` saying which was asked."""
    numbers = turn_numbers(board)
    record = board_record(board, number) if number is not None and number in numbers else None
    people = people_of(board.campaign)
    if record is None:
        snapshot, rows = live_snapshot(board, viewer)
        posts = live_posts(board)
        return BoardPage(
            board=board_view_of(board, snapshot, rows, live_names(rows)),
            scrubber=Scrubber(numbers, None),
            map=map_data(snapshot, people, posts=posts),
            missing=number,
            posts=seen_posts(snapshot, posts),
        )
    rows = card_texts(board)
    orders = resolved_orders(board=board, turn__number=number).get((board.pk, number), [])
    snapshot = record_snapshot(record, viewer)
    return BoardPage(
        board=board_view_of(board, snapshot, rows, people.names),
        scrubber=Scrubber(numbers, number),
        map=recorded_map(record, viewer, orders, people),
        posts=seen_posts(snapshot, state_posts(record.state)),
    )


def turn_maps(campaign: Campaign, number: int, viewer: Membership) -> dict[str, dict[str, Any]]:
    """Board slug -> the map of every board after turn `number`, as the viewer knew it then
    (R51), with the turn's changes marked: for the turn report. Three queries."""
    people = people_of(campaign)
    orders = resolved_orders(board__campaign=campaign, turn__number=number)
    return {
        record.board_slug: recorded_map(
            record, viewer, orders.get((record.board_id, number), []), people
        )
        for record in turn_records(campaign, number)
    }
