"""The turn job's engine call (RULES R31 steps 2-3), computed and not yet written: every board
of a campaign resolved together, and the result as one record per board (R51).

A campaign of one board is resolved on that board's state as it always was. A campaign of
several boards is resolved in ONE engine call, on the boards joined into one state
(engine/joined.py: departments carry their "board" and "<board>/<slug>" names; an order names
its own board's departments by plain slug and another board's as "<board>/<slug>"): RULES R43
counts a player's linking attempts per turn across the campaign, a goal (R61) counts the
player's structures on every board, and a cross-board link (R60) joins two boards. The result
is split back into one record per board with plain slugs, exactly as a one-board call gives
it, so history, reports, maps, rollback and the archive read records per board as before.

Reads only: services/turns.py writes the plans under the campaign lock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.classic.selectors.state import (
    classic_engine_state,
    stored_classic_states,
    stored_of,
)
from campaigns.engine.api import collector_paused
from campaigns.engine.joined import SEP, split_report, split_states
from campaigns.models import Board, Campaign, Order, Turn, TurnRecord
from campaigns.reasons import outcome_stored
from campaigns.selectors.state import (
    BoardRows,
    board_rows,
    board_state,
    campaign_state,
    order_state,
)
from campaigns.services.state import BoardChanges, board_changes

Command = Callable[[dict[str, Any]], dict[str, Any]]
# What the turn job's own `before` leaves out of the state it resolved (the orders are in
# their rows, and the seed and turn number in the turn's).
NOT_BEFORE = ("orders", "seed", "turn")


@dataclass
class BoardPlan:
    """One board's part of a turn, resolved and not yet written: its record (R51) and what
    changes in its rows; for a classic board (R90) no rows, and `classic` the document that
    replaces its stored state (models/classic.py)."""

    record: TurnRecord
    changes: BoardChanges
    rows: BoardRows
    classic: dict[str, Any] | None = None


@dataclass
class Resolved:
    """The engine call of a turn as a whole, for what the job writes beyond the boards'
    rows (services/turn_effects.py): the state it was given (`before`, without its orders,
    which are `orders`), the state it returned (`after`) and its report, in the call's own
    names for departments (`ids`: those names -> department ids); `election` is
    report.election in the office's board's plain slugs, as its record keeps it."""

    before: dict[str, Any]
    after: dict[str, Any]
    report: dict[str, Any]
    orders: list[dict[str, Any]]
    ids: dict[str, int]
    election: dict[str, Any] | None


def boards_resolve(
    campaign: Campaign,
    boards: Sequence[Board],
    turn: Turn | None,
    queued: Mapping[int, list[Order]],
    command: Command,
    record_turn: Turn,
) -> tuple[list[BoardPlan], Resolved]:
    """Run `command` (resolve_then_spawn, or spawn_consume at the start) on every board of
    the campaign; the orders' status and result are set on the Order objects of `queued`
    (board id -> its orders).

    Classic boards (R90: nothing crosses between the rulesets) are each resolved alone, after
    the standard ones, which are resolved exactly as in a campaign without classic boards;
    `Resolved` is the standard boards' call (what it changes beyond the boards, parts 7-9,
    does not exist on a classic board)."""
    classic = [board for board in boards if board.is_classic]
    boards = [board for board in boards if not board.is_classic]
    plans, resolved = standard_boards_resolve(campaign, boards, turn, queued, command, record_turn)
    if classic:
        catalogue = [a.as_engine() for a in campaign.alignments.all()]
        stored = stored_classic_states(classic)
        plans += [
            classic_plan(board, stored[board.pk], catalogue, turn, queued, command, record_turn)
            for board in classic
        ]
    return plans, resolved


def standard_boards_resolve(
    campaign: Campaign,
    boards: Sequence[Board],
    turn: Turn | None,
    queued: Mapping[int, list[Order]],
    command: Command,
    record_turn: Turn,
) -> tuple[list[BoardPlan], Resolved]:
    """The boards of RULES parts 1-9: one board alone, several joined in one call."""
    if not boards:  # a campaign whose GM removed every board: nothing to resolve
        return [], Resolved({}, {}, {}, [], {}, None)
    rows = {board.pk: board_rows(board) for board in boards}
    if len(boards) == 1:
        return one_board(boards[0], turn, queued, command, record_turn, rows)
    # Joining and splitting copy every department; as in the engine (engine/api.py), the
    # cyclic collector would otherwise scan the whole heap again and again meanwhile.
    with collector_paused():
        return joined_boards(boards, turn, queued, command, record_turn, rows)


def joined_boards(
    boards: Sequence[Board],
    turn: Turn | None,
    queued: Mapping[int, list[Order]],
    command: Command,
    record_turn: Turn,
    rows: dict[int, BoardRows],
) -> tuple[list[BoardPlan], Resolved]:
    """Several boards in one call (engine/joined.py), split back into a record each."""
    engine_orders = {b.pk: [order_state(o) for o in queued.get(b.pk, ())] for b in boards}
    state = campaign_state(list(boards), turn=turn, orders=engine_orders, rows=rows)
    opened = command(state)
    order_boards = {o.engine_id: b.slug for b in boards for o in queued.get(b.pk, ())}
    offices = {o["id"]: o["board"] for o in state.get("offices", [])}
    ids = {
        f"{board.slug}{SEP}{slug}": pk
        for board in boards
        for slug, pk in rows[board.pk].ids.items()
        if SEP not in slug
    }
    plans = []
    election = None
    slugs = [board.slug for board in boards]
    results = split_states(opened, slugs, order_boards)
    befores = split_states(state, slugs, order_boards)
    for board in boards:
        result = results[board.slug]
        result["report"] = split_report(opened["report"], board.slug, order_boards, offices)
        election = election or result["report"].get("election")
        outcomes_set(queued.get(board.pk, ()), result["report"])
        before = befores[board.slug]
        # The start (turn 0) keeps the state as read, as a one-board start does.
        before = trimmed(before) if turn is not None else before
        plans.append(board_plan(board, record_turn, rows[board.pk], result, before=before, far=ids))
    return plans, resolved_of(state, opened, ids, election)


def one_board(
    board: Board,
    turn: Turn | None,
    queued: Mapping[int, list[Order]],
    command: Command,
    record_turn: Turn,
    rows: dict[int, BoardRows],
) -> tuple[list[BoardPlan], Resolved]:
    """A one-board campaign: the board's own state, never joined."""
    state = board_state(board, turn=turn, orders=queued.get(board.pk, ()), rows=rows[board.pk])
    opened = command(state)
    election = opened["report"].get("election")
    resolved = resolved_of(state, opened, dict(rows[board.pk].ids), election)
    outcomes_set(queued.get(board.pk, ()), opened["report"])
    # The start (turn 0) keeps the state as read, orders and all, as it always has.
    before = trimmed(state) if turn is not None else state
    return [board_plan(board, record_turn, rows[board.pk], opened, before=before)], resolved


def trimmed(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in NOT_BEFORE}


def resolved_of(
    state: dict[str, Any], opened: dict[str, Any], ids: dict[str, int], election: Any
) -> Resolved:
    return Resolved(
        before={k: v for k, v in state.items() if k != "orders"},
        after={k: v for k, v in opened.items() if k not in ("report", "orders")},
        report=opened["report"],
        orders=list(state.get("orders", [])),
        ids=ids,
        election=election,
    )


def outcomes_set(orders: Sequence[Order], report: dict[str, Any]) -> None:
    for order in orders:
        outcome = report["orders"][order.engine_id]
        order.status = outcome["status"]
        order.result = outcome_stored(outcome)


def board_plan(
    board: Board,
    turn: Turn,
    rows: BoardRows,
    opened: dict[str, Any],
    *,
    before: dict[str, Any],
    far: dict[str, int] | None = None,
) -> BoardPlan:
    """The record of `turn` on `board` (RULES R51: `before`, the board as the job read it,
    and `opened`, the engine's result after spawn and consume, with its report) and the
    rows it changes."""
    report = opened.pop("report")
    # The orders came back with the state; they are kept in their own rows, not twice.
    opened.pop("orders", None)
    record = TurnRecord(turn=turn, board=board, state=opened, before=before, report=report)
    return BoardPlan(record, board_changes(board, opened, report, rows, far), rows)


NO_ROWS = BoardRows([], {}, {}, {}, [], [])


def classic_plan(
    board: Board,
    stored: dict[str, Any],
    catalogue: list[dict[str, object]],
    turn: Turn | None,
    queued: Mapping[int, list[Order]],
    command: Command,
    record_turn: Turn,
) -> BoardPlan:
    """R93: one classic board's turn: its stored state with the turn's number, seed (R23, the
    same verifiable dice as every board) and orders through the engine (resolve then the
    next turn's income and draws; at the start only the latter); its record keeps the state
    before and after and the engine's report (seat order included), as a standard board's
    does (R51)."""
    orders = queued.get(board.pk, ())
    state = classic_engine_state(stored, catalogue=catalogue, turn=turn, orders=orders)
    opened = command(state)
    outcomes_set(orders, opened["report"])
    before = trimmed(state) if turn is not None else state
    report = opened.pop("report")
    opened.pop("orders", None)
    record = TurnRecord(turn=record_turn, board=board, state=opened, before=before, report=report)
    return BoardPlan(record, BoardChanges(), NO_ROWS, classic=stored_of(opened))
