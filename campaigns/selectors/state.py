"""The read half of the one bridge between the database and the pure engine (ENGINE.md
format): `board_state` reads a board's rows into an engine state in a fixed number of
queries whatever the number of departments. The write half is services/state.py.

Rows are read as plain values, never as model instances: building a Department object per
row cost more than the query itself on a board of 1,000.

A board's state holds the keys of ENGINE.md parts 7-9 that concern it
(selectors/state_beyond_boards.py) and, where one of its departments supplies a department
of another board (a cross-board link, RULES R60), that department as a stub: its whole
object, named "<board>/<slug>", with its `"board"` key (engine/joined.py). `campaign_state`
joins every board of a campaign into one state for the turn job."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.db import connection

from campaigns import jsoncodec
from campaigns.engine.board import TYPES
from campaigns.engine.joined import SEP, join
from campaigns.engine.scope import named_departments, reach
from campaigns.models import Board, Department, Link, Order, Structure, Turn
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.state_beyond_boards import (
    BesideRows,
    Names,
    Present,
    beside_keys,
    beside_named,
    beside_read,
)


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
    only what changed: `departments` are COLUMNS rows in slug order, `ids` slug -> pk (the
    stubs' qualified names too), `written` slug -> the WRITTEN values as stored, `players`
    structure id -> engine player id, `links` (pk, supplier pk, consumer pk, priority) in
    funding order, `stubs` the departments of other boards its links reach (as COLUMNS rows
    followed by their board's slug and their structure's engine player id)."""

    departments: list[tuple[Any, ...]]
    ids: dict[str, int]
    written: dict[str, tuple[Any, ...]]
    players: dict[int, str]
    links: list[tuple[int, int, int, int]]
    stubs: list[tuple[Any, ...]]


def board_rows(board: Board) -> BoardRows:
    """3 queries."""
    departments = Department.objects.filter(board=board).order_by("slug").values_list(*COLUMNS)
    links = Link.objects.filter(board=board).order_by("supplier_id", "priority", "pk")
    return rows_of(
        board,
        list(departments),
        list(links.values_list("pk", "supplier_id", "consumer_id", "priority")),
    )


def boards_rows(boards: list[Board]) -> dict[int, BoardRows]:
    """Board id -> its BoardRows, for several boards in 3 queries (board_rows asks 3 per
    board)."""
    ids = [b.pk for b in boards]
    departments: dict[int, list[tuple[Any, ...]]] = {pk: [] for pk in ids}
    rows = Department.objects.filter(board_id__in=ids).order_by("board_id", "slug")
    for board_id, *row in rows.values_list("board_id", *COLUMNS):
        departments[board_id].append(tuple(row))
    links: dict[int, list[tuple[int, int, int, int]]] = {pk: [] for pk in ids}
    link_rows = Link.objects.filter(board_id__in=ids).order_by("supplier_id", "priority", "pk")
    for board_id, *link in link_rows.values_list(
        "board_id", "pk", "supplier_id", "consumer_id", "priority"
    ):
        links[board_id].append((link[0], link[1], link[2], link[3]))
    players: dict[int, dict[int, str]] = {pk: {} for pk in ids}
    for pk, board_id, player in Structure.objects.filter(board_id__in=ids).values_list(
        "pk", "board_id", "player_id"
    ):
        players[board_id][pk] = engine_player_id(player)
    return {b.pk: rows_of(b, departments[b.pk], links[b.pk], players[b.pk]) for b in boards}


def rows_of(
    board: Board,
    departments: list[tuple[Any, ...]],
    links: list[tuple[int, int, int, int]],
    players: dict[int, str] | None = None,
) -> BoardRows:
    """BoardRows of these department and link rows (1 query: the structures, unless the
    caller passes `players`, structure id -> engine player id)."""
    width = len(WRITTEN)
    ids = {row[1]: row[0] for row in departments}
    stubs = stubs_of(departments, links)
    ids.update((f"{row[-2]}{SEP}{row[1]}", row[0]) for row in stubs)
    return BoardRows(
        departments=departments,
        ids=ids,
        written={row[1]: row[-width:] for row in departments},
        players=structure_players(board) if players is None else players,
        links=links,
        stubs=stubs,
    )


def stubs_of(
    departments: list[tuple[Any, ...]], links: list[tuple[int, int, int, int]]
) -> list[tuple[Any, ...]]:
    """The departments of other boards at the far end of a board's links (a cross-board
    link, RULES R60), as COLUMNS rows plus board slug and controller: one query, and only
    when there is one."""
    here = {row[0] for row in departments}
    far = {pk for _, s, c, _ in links for pk in (s, c) if pk not in here}
    if not far:
        return []
    rows = Department.objects.filter(pk__in=far).order_by("board__slug", "slug")
    return list(rows.values_list(*COLUMNS, "board__slug", "structure__player_id"))


def board_rows_near(board: Board, orders: list[dict[str, Any]]) -> BoardRows:
    """Only the rows that decide `orders` (ENGINE.md orders): the slice of the board
    engine.scope.neighbourhood keeps, read by walking the links out from the departments the
    orders name. 2 queries (3 with a cross-board link), whatever the size of the board."""
    inner, touching = departments_within(board, named_departments(orders), reach(orders) - 1)
    kept = inner | {pk for _, s, c, _ in touching for pk in (s, c)}
    departments, players = department_rows_of(board, kept)
    ranked = sorted(touching, key=lambda row: (row[1], row[3], row[0]))
    return rows_of(board, departments, ranked, players)


# The COLUMNS of some departments of a board in slug order, with their controllers, written
# out for the order check (see WALK). A raw cursor gives JSON as text and, on SQLite, a
# boolean as 0 or 1: department_rows_of converts them as the ORM would.
NEAR = """
SELECT {columns}, s.player_id FROM {department} d
LEFT JOIN {structure} s ON s.id = d.structure_id
WHERE d.board_id = %s AND d.id IN ({pks}) ORDER BY d.slug
"""
JSON_COLUMNS = frozenset(("functions", "alignments", "moved", "defence"))
# COLUMNS as a raw SELECT names them (`d` the department's table), and where the values
# that need converting sit in a row.
RAW_COLUMNS = ", ".join(f"d.{'id' if name == 'pk' else name}" for name in COLUMNS)
JSON_AT = tuple(i for i, name in enumerate(COLUMNS) if name in JSON_COLUMNS)
HOME_AT, STRUCTURE_AT = COLUMNS.index("home"), COLUMNS.index("structure_id")


def columns_read(raw: Iterable[Any]) -> tuple[Any, ...]:
    """A COLUMNS row as a raw cursor gives it (RAW_COLUMNS), converted as the ORM would:
    the JSON columns (NOT NULL) from text, `home` from SQLite's 0 or 1."""
    values = list(raw)
    for i in JSON_AT:
        values[i] = jsoncodec.loads(values[i])
    values[HOME_AT] = bool(values[HOME_AT])
    return tuple(values)


def department_rows_of(board: Board, pks: set[int]) -> tuple[list[tuple[Any, ...]], dict[int, str]]:
    """(COLUMNS rows of the departments `pks` of `board`, in slug order; structure id -> the
    engine player id of their structures). One query."""
    if not pks:
        return [], {}
    sql = NEAR.format(
        columns=RAW_COLUMNS,
        department=Department._meta.db_table,
        structure=Structure._meta.db_table,
        pks=", ".join(["%s"] * len(pks)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [board.pk, *sorted(pks)])
        found = cursor.fetchall()
    rows: list[tuple[Any, ...]] = []
    players: dict[int, str] = {}
    for *values, player in found:
        rows.append(columns_read(values))
        structure = values[STRUCTURE_AT]
        if structure is not None:
            players[structure] = engine_player_id(player)
    return rows, players


# The walk of board_rows_near as one recursive query (SQLite and PostgreSQL): the departments
# within `depth` links of the named ones (a link counts both ways, and may lead to another
# board's department, R60), then every link touching one of them. One round trip instead of
# one per step; an order check runs it on every submission. Each step looks the
# links up in the supplier and consumer indexes, whatever the size of the board or the site.
WALK = """
WITH RECURSIVE
  edges(here, there) AS (
    SELECT supplier_id, consumer_id FROM {link}
    UNION ALL SELECT consumer_id, supplier_id FROM {link}
  ),
  walk(pk, depth) AS (
    SELECT id, 0 FROM {department} WHERE board_id = %s AND slug IN ({slugs})
    UNION
    SELECT edges.there, walk.depth + 1 FROM walk JOIN edges ON edges.here = walk.pk
    WHERE walk.depth < %s
  ),
  found(pk) AS (SELECT DISTINCT pk FROM walk)
SELECT 0, pk, 0, 0, 0 FROM found
UNION ALL
SELECT 1, id, supplier_id, consumer_id, priority FROM {link}
WHERE supplier_id {in_found} OR consumer_id {in_found}
"""
# PostgreSQL scans the whole link table for "IN (SELECT ...) OR IN (SELECT ...)"; with the
# set computed once as an array it looks each id up in the supplier and consumer indexes.
IN_FOUND = {"postgresql": "= ANY(ARRAY(SELECT pk FROM found))"}


def departments_within(
    board: Board, named: set[str], depth: int
) -> tuple[set[int], list[tuple[int, int, int, int]]]:
    """(the ids of the departments within `depth` links of the `named` departments of
    `board`, the links touching them as (pk, supplier pk, consumer pk, priority)). One query."""
    if not named:
        return set(), []
    sql = WALK.format(
        link=Link._meta.db_table,
        department=Department._meta.db_table,
        slugs=", ".join(["%s"] * len(named)),
        in_found=IN_FOUND.get(connection.vendor, "IN (SELECT pk FROM found)"),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [board.pk, *sorted(named), depth])
        rows = cursor.fetchall()
    inner = {pk for is_link, pk, *_ in rows if not is_link}
    links = [(pk, supplier, consumer, priority) for is_link, pk, supplier, consumer, priority
             in rows if is_link]  # fmt: skip
    return inner, links


def board_state(
    board: Board,
    *,
    turn: Turn | None = None,
    orders: Iterable[Order] = (),
    rows: BoardRows | None = None,
    beside: bool = True,
    parts: Present | None = None,
    beside_rows: BesideRows | None = None,
) -> dict[str, Any]:
    """The board as an ENGINE.md state: 1 query (the catalogue) plus 3 for the rows unless
    the caller passes them, and none for `orders` the caller has already loaded; with
    `beside`, the keys of parts 7-9 that concern the board (1 query if the campaign has none
    of them, selectors/state_beyond_boards.py; `parts` if the caller has asked already; none with
    `beside_rows`, read by the caller for several boards at once)."""
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
        "departments": [
            *(department_state(row, rows.players) for row in rows.departments),
            *(stub_state(row) for row in rows.stubs),
        ],
        "links": [{"from": slugs[s], "to": slugs[c], "priority": p} for _, s, c, p in rows.links],
        "orders": [order_state(o) for o in orders],
    }
    if turn is not None:
        state["turn"] = turn.number
        state["seed"] = turn.seed
    if beside:
        if beside_rows is None:
            beside_rows = beside_read(campaign, boards=[board], turn=turn, parts=parts)
        state.update(beside_named(beside_rows, boards=[board], names=Names(board.slug)))
    return state


def own_board(state: dict[str, Any]) -> dict[str, Any]:
    """A recorded board's state without the stubs of other boards' departments and the
    links that reach them (a cross-board link, engine/joined.py): what the history, maps and
    reports of one board show."""
    stubs = {d["slug"] for d in state.get("departments", []) if "board" in d}
    if not stubs:
        return state
    return {
        **state,
        "departments": [d for d in state["departments"] if d["slug"] not in stubs],
        "links": [x for x in state["links"] if x["from"] not in stubs and x["to"] not in stubs],
    }


def stub_state(row: tuple[Any, ...]) -> dict[str, Any]:
    """A department of another board, as a board's state carries it (engine/joined.py)."""
    *columns, board, player = row
    data = department_state(tuple(columns), {})
    data["structure"] = engine_player_id(player) if player else None
    return {**data, "slug": f"{board}{SEP}{data['slug']}", "board": board}


def campaign_state(
    boards: list[Board],
    *,
    turn: Turn | None,
    orders: Mapping[int, list[dict[str, Any]]],
    rows: Mapping[int, BoardRows] | None = None,
) -> dict[str, Any]:
    """Every board of a campaign of several boards as one ENGINE.md state (engine/joined.py):
    `orders` maps a board id to its ENGINE.md orders, each naming its own board's departments
    by plain slug. The keys of parts 7-9 name every department "<board>/<slug>"."""
    parts = []
    for board in boards:
        found = rows.get(board.pk) if rows else None
        state = board_state(board, turn=turn, rows=found, beside=False)
        state["orders"] = list(orders.get(board.pk, ()))
        parts.append((board.slug, state))
    campaign = boards[0].campaign
    return join(parts, beside_keys(campaign, boards=boards, names=Names(None), turn=turn))
