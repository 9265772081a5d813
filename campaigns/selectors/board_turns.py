"""The board page at any turn: the board now, or after processed turn N as the
viewer knew it then (RULES R51), with its map and a scrubber through the turns. A fixed
number of queries whatever the number of turns or departments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaigns.elections.selectors.office_views import (
    Post,
    Posts,
    live_posts,
    seen_posts,
    state_posts,
)
from campaigns.history.selectors.history_records import (
    Recorded,
    board_record,
    board_records,
    resolved_orders,
    turn_numbers,
    turn_records,
)
from campaigns.models import Board, Campaign, Department, Membership, Order
from campaigns.selectors.board_listing import Listing, department_listing, is_big
from campaigns.selectors.board_map import (
    People,
    TurnChanges,
    map_data,
    map_layout,
    map_summary,
    people_of,
    turn_changes,
)
from campaigns.selectors.board_views import (
    BoardView,
    CardText,
    Snapshot,
    board_view_of,
    live_snapshot,
    record_snapshot,
)


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
    # The map's data; for a big board only its key and size (map_summary): the page fetches
    # the map itself from the board_map_data URL.
    map: dict[str, Any]
    missing: int | None = None  # a turn asked for that has no record: the board now instead
    listing: Listing | None = None  # a big board: one page of its departments (board_listing)
    # R80: node key -> the office posts of each department shown (the cards' badges).
    posts: dict[str, list[Post]] = field(default_factory=dict)


@dataclass(frozen=True)
class Moment:
    """The board now or after a recorded turn, as the viewer knew it then (R50/R51), with
    what the page and the map need beside the snapshot."""

    snapshot: Snapshot
    scrubber: Scrubber
    people: People
    changes: TurnChanges | None  # what the shown turn did (None: the board now)
    rows: Mapping[str, CardText] | None  # the live card texts (None: read card_texts)
    missing: int | None  # a turn asked for that has no record
    posts: Posts  # R80: slug -> the office posts its departments held then


def card_texts(board: Board, slugs: list[str] | None = None) -> dict[str, Department]:
    """What a record's state does not hold (description, flaws), by slug: of `slugs`, or of
    every department. One query."""
    rows = Department.objects.filter(board=board).only("slug", "description", "flaws")
    if slugs is not None:
        rows = rows.filter(slug__in=slugs)
    return {d.slug: d for d in rows}


def board_layout(board: Board, viewer: Membership) -> dict[str, Any]:
    """The graph the map's layout is computed on (board_map.map_layout): every recorded turn
    of the board as the viewer knew it, and the board now. Three queries."""
    snapshots = [record_snapshot(r, viewer) for r in board_records(board)]
    snapshots.append(live_snapshot(board, viewer)[0])
    return map_layout(board, snapshots)


def board_moment(board: Board, viewer: Membership, number: int | None) -> Moment:
    """The board after turn `number` (None: now). A turn that was not processed (or is not
    a number the board has) gives the board now, with `missing` saying which was asked.
    Four or five queries, whatever the size of the board."""
    numbers = turn_numbers(board)
    record = board_record(board, number) if number is not None and number in numbers else None
    people = people_of(board.campaign)
    if record is None:
        snapshot, rows, _ = live_snapshot(board, viewer)
        posts = live_posts(board)
        return Moment(snapshot, Scrubber(numbers, None), people, None, rows, number, posts)
    orders = resolved_orders(board=board, turn__number=number).get((board.pk, number), [])
    return Moment(
        snapshot=record_snapshot(record, viewer),
        scrubber=Scrubber(numbers, number),
        people=people,
        changes=turn_changes(record, orders, viewer),
        rows=None,
        missing=None,
        posts=state_posts(record.state),
    )


def board_page(
    board: Board, viewer: Membership, number: int | None, *, query: str = "", page: object = 1
) -> BoardPage:
    """The board page after turn `number` (None: now; see board_moment). A big board
    (board_listing.BIG) lists one page of its departments, searched by `query`, with the
    links that touch them, and leaves its map to board_map_of."""
    moment = board_moment(board, viewer, number)
    snapshot, names = moment.snapshot, moment.people.names
    listing = None
    if is_big(snapshot):
        listing = department_listing(snapshot, names, query=query, page=page)
    only = listing.slugs if listing else None
    rows = moment.rows if moment.rows is not None else card_texts(board, only)
    return BoardPage(
        board=board_view_of(board, snapshot, rows, names, only=only),
        scrubber=moment.scrubber,
        map=(
            map_summary(snapshot, moment.people)
            if listing
            else map_data(snapshot, moment.people, moment.changes, moment.posts)
        ),
        missing=moment.missing,
        listing=listing,
        posts=seen_posts(snapshot, moment.posts),
    )


def board_map_of(board: Board, viewer: Membership, number: int | None) -> dict[str, Any]:
    """The map of the board now or after turn `number` (as board_page shows it), alone: what
    the page of a big board fetches. Four or five queries."""
    moment = board_moment(board, viewer, number)
    return map_data(moment.snapshot, moment.people, moment.changes, moment.posts)


def turn_maps(
    campaign: Campaign,
    number: int,
    viewer: Membership,
    board: str | None = None,
    told: Mapping[tuple[int, int], list[Order]] | None = None,
    records: list[Recorded] | None = None,
) -> dict[str, dict[str, Any]]:
    """Board slug -> the map of every board (or of board `board` only) after turn
    `number`, as the viewer knew it then (R51), with the turn's changes marked: for the turn
    report. A big board's is only its summary (board_map.map_summary), as on the board
    page. Three queries; two with `told`, the turn's resolved orders as
    history_records.resolved_orders gives them (the report has read them: TurnReport.told);
    one fewer with `records`, turn_records(campaign, number) as the report has read them
    (reports.report_records)."""
    where = {"board__slug": board} if board is not None else {}
    people = people_of(campaign)
    orders = (
        told
        if told is not None
        else resolved_orders(board__campaign=campaign, turn__number=number, **where)
    )
    maps = {}
    if records is None:
        records = turn_records(campaign, number, **where)
    for record in records:
        snapshot = record_snapshot(record, viewer)
        if is_big(snapshot):
            maps[record.board_slug] = map_summary(snapshot, people)
        else:
            board_orders = orders.get((record.board_id, number), [])
            changes = turn_changes(record, board_orders, viewer)
            maps[record.board_slug] = map_data(snapshot, people, changes, state_posts(record.state))
    return maps
