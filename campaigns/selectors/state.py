"""The read half of the one bridge between the database and the pure engine (ENGINE.md
format): `board_state` reads a board's rows into an engine state in a fixed number of
queries whatever the number of departments. The write half is services/state.py.

Rows are read as plain values, never as model instances: building a Department object per
row cost more than the query itself on a board of 1,000."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from django.db.models import Q

from campaigns.engine.board import TYPES
from campaigns.engine.scope import named_departments, reach
from campaigns.models import Board, Department, Link, Order, Structure, Turn
from campaigns.models.campaign import engine_player_id


def resource(kind: str, amount: int) -> dict[str, Any] | None:
    return {"type": kind, "amount": amount} if kind and amount else None


# What the turn job writes back to a department (services/state.py), in this order.
WRITTEN = (*TYPES, "moved", "defence", "structure", "home", "capacity", "status", "chain_length")
# Read per department: its pk, the card as ENGINE.md names it, then WRITTEN.
COLUMNS = (
    "pk", "slug", "name", "effect", "obstruct", "impress", "consumes_type", "consumes_amount",
    "produces_type", "produces_amount", "functions", "alignments",
    *(f"{name}_id" if name == "structure" else name for name in WRITTEN),
)  # fmt: skip


def without_zeros(tokens: dict[str, int] | None) -> dict[str, int]:
    """Token amounts as the columns keep them: types with 0 left out."""
    return {kind: n for kind, n in (tokens or {}).items() if n}


def department_state(row: tuple[Any, ...], players: dict[int, str]) -> dict[str, Any]:
    """One COLUMNS row as an ENGINE.md department."""
    (_, slug, name, effect, obstruct, impress, c_type, c_amount, p_type, p_amount,
     functions, alignments, money, people, authority, moved, defence, structure, home,
     capacity, _, _) = row  # fmt: skip
    data: dict[str, Any] = {
        "slug": slug,
        "name": name,
        "effect": effect,
        "obstruct": obstruct,
        "impress": impress,
        "consumes": resource(c_type, c_amount),
        "produces": resource(p_type, p_amount),
        "functions": dict(functions),
        "alignments": list(alignments),
        "stash": {"money": money, "people": people, "authority": authority},
        "structure": players.get(structure) if structure else None,
        "home": home,
        "defence": dict(defence),
        "moved": dict(moved),
    }
    if capacity is not None:
        data["capacity"] = capacity
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
    return {
        pk: engine_player_id(player)
        for pk, player in Structure.objects.filter(board=board).values_list("pk", "player_id")
    }


class BoardRows(NamedTuple):
    """A board as the turn job reads it once, both to build the state and to write back
    only what changed: `departments` are COLUMNS rows in slug order, `ids` slug -> pk,
    `written` slug -> the WRITTEN values as stored, `players` structure id -> engine player
    id, `links` (pk, supplier pk, consumer pk, priority) in funding order."""

    departments: list[tuple[Any, ...]]
    ids: dict[str, int]
    written: dict[str, tuple[Any, ...]]
    players: dict[int, str]
    links: list[tuple[int, int, int, int]]


def board_rows(board: Board) -> BoardRows:
    """3 queries."""
    departments = Department.objects.filter(board=board).order_by("slug").values_list(*COLUMNS)
    links = Link.objects.filter(board=board).order_by("supplier_id", "priority", "pk")
    return rows_of(
        board,
        list(departments),
        list(links.values_list("pk", "supplier_id", "consumer_id", "priority")),
    )


def rows_of(
    board: Board, departments: list[tuple[Any, ...]], links: list[tuple[int, int, int, int]]
) -> BoardRows:
    """BoardRows of these department and link rows (1 query: the structures)."""
    width = len(WRITTEN)
    return BoardRows(
        departments=departments,
        ids={row[1]: row[0] for row in departments},
        written={row[1]: row[-width:] for row in departments},
        players=structure_players(board),
        links=links,
    )


def board_rows_near(board: Board, orders: list[dict[str, Any]]) -> BoardRows:
    """Only the rows that decide `orders` (ENGINE.md orders): the slice of the board
    engine.scope.neighbourhood keeps, read by walking the links out from the departments the
    orders name. reach(orders) + 3 queries (usually 4), whatever the size of the board."""
    named = named_departments(orders)
    frontier = set(
        Department.objects.filter(board=board, slug__in=named).values_list("pk", flat=True)
    )
    inner: set[int] = set()
    links: dict[int, tuple[int, int, int, int]] = {}
    for _ in range(reach(orders)):
        inner |= frontier
        if not frontier:
            break
        touching = list(
            Link.objects.filter(
                Q(supplier_id__in=frontier) | Q(consumer_id__in=frontier)
            ).values_list("pk", "supplier_id", "consumer_id", "priority")
        )
        links.update((row[0], row) for row in touching)
        frontier = {pk for _, s, c, _ in touching for pk in (s, c)} - inner
    kept = Department.objects.filter(pk__in=inner | frontier).order_by("slug")
    ranked = sorted(links.values(), key=lambda row: (row[1], row[3], row[0]))
    return rows_of(board, list(kept.values_list(*COLUMNS)), ranked)


def board_state(
    board: Board,
    *,
    turn: Turn | None = None,
    orders: Iterable[Order] = (),
    rows: BoardRows | None = None,
) -> dict[str, Any]:
    """The board as an ENGINE.md state: 1 query (the catalogue) plus 3 for the rows unless
    the caller passes them, and none for `orders` the caller has already loaded."""
    campaign = board.campaign
    rows = rows or board_rows(board)
    slugs = {pk: slug for slug, pk in rows.ids.items()}
    # R5: a campaign without a catalogue of its own plays with the default one, which the
    # engine applies when the key is missing. An empty list would be a catalogue with no
    # alignments at all, and every department holding one would stop the turn job.
    catalogue = [a.as_engine() for a in campaign.alignments.all()]
    state: dict[str, Any] = {
        "settings": campaign.engine_settings(),
        **({"alignments": catalogue} if catalogue else {}),
        "departments": [department_state(row, rows.players) for row in rows.departments],
        "links": [{"from": slugs[s], "to": slugs[c], "priority": p} for _, s, c, p in rows.links],
        "orders": [order_state(o) for o in orders],
    }
    if turn is not None:
        state["turn"] = turn.number
        state["seed"] = turn.seed
    return state
