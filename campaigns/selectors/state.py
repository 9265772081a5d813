"""The read half of the one bridge between the database and the pure engine (ENGINE.md
format): `board_state` reads a board's rows into an engine state in a fixed number of
queries whatever the number of departments. The write half is services/state.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from campaigns.models import Board, Department, Link, Order, Structure, Turn
from campaigns.models.campaign import engine_player_id


def resource(kind: str, amount: int) -> dict[str, Any] | None:
    return {"type": kind, "amount": amount} if kind and amount else None


# The card's plain columns, named as ENGINE.md names them.
CARD_FIELDS = ("slug", "name", "effect", "obstruct", "impress")


def department_state(dept: Department, players: dict[int, str]) -> dict[str, Any]:
    data: dict[str, Any] = {
        **{field: getattr(dept, field) for field in CARD_FIELDS},
        "consumes": resource(dept.consumes_type, dept.consumes_amount),
        "produces": resource(dept.produces_type, dept.produces_amount),
        "functions": dict(dept.functions),
        "alignments": list(dept.alignments),
        "stash": dept.stash,
        "structure": players.get(dept.structure_id) if dept.structure_id else None,
        "home": dept.home,
        "defence": dict(dept.defence),
        "moved": dict(dept.moved),
    }
    if dept.capacity is not None:
        data["capacity"] = dept.capacity
    return data


def order_state(order: Order) -> dict[str, Any]:
    return {
        **order.payload,
        "id": order.engine_id,
        "player": engine_player_id(order.player_id),
        "kind": order.kind,
        "seq": order.seq,
    }


def structure_players(board: Board) -> dict[int, str]:
    """Structure id -> the engine's player id."""
    return {s.pk: engine_player_id(s.player_id) for s in Structure.objects.filter(board=board)}


class BoardRows(NamedTuple):
    """A board's departments and its structures' engine player ids: read once by the turn
    job, which both builds the state from them and writes the result back into them."""

    departments: list[Department]
    players: dict[int, str]


def board_rows(board: Board) -> BoardRows:
    """2 queries."""
    return BoardRows(list(board.departments.all()), structure_players(board))


def board_state(
    board: Board,
    *,
    turn: Turn | None = None,
    orders: Iterable[Order] = (),
    rows: BoardRows | None = None,
) -> dict[str, Any]:
    """The board as an ENGINE.md state: 2 queries (catalogue, links) plus 2 for the rows
    unless the caller passes them, and none for `orders` the caller has already loaded."""
    campaign = board.campaign
    departments, players = rows or board_rows(board)
    links = Link.objects.filter(board=board).order_by("supplier_id", "priority", "pk")
    # R5: a campaign without a catalogue of its own plays with the default one, which the
    # engine applies when the key is missing. An empty list would be a catalogue with no
    # alignments at all, and every department holding one would stop the turn job.
    catalogue = [a.as_engine() for a in campaign.alignments.all()]
    state: dict[str, Any] = {
        "settings": campaign.engine_settings(),
        **({"alignments": catalogue} if catalogue else {}),
        "departments": [department_state(d, players) for d in departments],
        "links": [
            {"from": s, "to": c, "priority": p}
            for s, c, p in links.values_list("supplier__slug", "consumer__slug", "priority")
        ],
        "orders": [order_state(o) for o in orders],
    }
    if turn is not None:
        state["turn"] = turn.number
        state["seed"] = turn.seed
    return state
