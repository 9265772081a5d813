"""The one bridge between the database and the pure engine (ENGINE.md format).

`board_state` reads a board's rows into an engine state; `board_apply` writes an engine
result back. Both use a fixed number of queries whatever the number of departments.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Model

from campaigns.engine.board import TYPES
from campaigns.models import Board, Department, Link, Order, Structure, Turn
from campaigns.models.campaign import engine_player_id


def resource(kind: str, amount: int) -> dict[str, Any] | None:
    return {"type": kind, "amount": amount} if kind and amount else None


def department_state(dept: Department, players: dict[int, str]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "slug": dept.slug,
        "name": dept.name,
        "effect": dept.effect,
        "obstruct": dept.obstruct,
        "impress": dept.impress,
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


def unsized(db_type: str) -> str:
    """varchar(16) -> varchar: an explicit CAST to a sized type would cut a value that is
    too long without a word; assigning the unsized value to the column checks it, as an
    UPDATE ... SET col = 'value' does."""
    return re.sub(r"\(.*\)", "", db_type)


def bulk_set(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Write `fields` of every row, each row its own values, in one UPDATE (more only where
    SQLite's limit on parameters forces batches):

        WITH v(pk, f1, ...) AS (VALUES (%s, %s, ...), ...)
        UPDATE table SET f1 = CAST(v.f1 AS type), ... FROM v WHERE table.pk = v.pk

    Django's bulk_update writes `CASE WHEN pk=1 THEN .. WHEN pk=2 ..` for every field: a
    Python expression per row and field, and a CASE the database scans row by row, so its
    cost grows with rows x rows. For a board of 1,000 departments it took 2.5 s; this takes
    a few milliseconds. Like bulk_update: no save(), no signals, no auto_now."""
    if not rows:
        return
    meta = type(rows[0])._meta
    pk = meta.pk
    assert pk is not None
    targets = [meta.get_field(name) for name in fields]
    qn = connection.ops.quote_name
    table = qn(meta.db_table)
    names = ["pk", *(f"f{i}" for i in range(len(targets)))]
    assignments = ", ".join(
        f"{qn(field.column)} = CAST(v.{name} AS {unsized(field.cast_db_type(connection))})"
        for name, field in zip(names[1:], targets, strict=True)
    )
    width = len(names)
    limit = connection.features.max_query_params
    size = max(1, limit // width) if limit else len(rows)
    placeholder = "(" + ", ".join(["%s"] * width) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start : start + size]
            params: list[Any] = []
            for row in batch:
                params.append(row.pk)
                for field in targets:
                    params.append(field.get_db_prep_save(getattr(row, field.attname), connection))
            cursor.execute(
                f"WITH v({', '.join(names)}) AS (VALUES {', '.join([placeholder] * len(batch))}) "
                f"UPDATE {table} SET {assignments} FROM v "
                f"WHERE {table}.{qn(pk.column)} = CAST(v.pk AS {pk.cast_db_type(connection)})",
                params,
            )


def board_apply(
    board: Board, result: dict[str, Any], report: dict[str, Any], rows: BoardRows
) -> None:
    """Write an engine result back into `rows` (read by `board_rows` in this transaction):
    departments in one bulk update, links replaced. `report` is the spawn-consume report
    (status and chain length per department). Call inside the turn job's transaction."""
    departments = {d.slug: d for d in rows.departments}
    by_player = {player: pk for pk, player in rows.players.items()}
    figures = report.get("departments", {})
    for data in result["departments"]:
        dept = departments[data["slug"]]
        for kind in TYPES:
            setattr(dept, kind, data["stash"][kind])
        dept.moved = {k: n for k, n in data["moved"].items() if n}
        dept.defence = {k: n for k, n in data["defence"].items() if n}
        dept.structure_id = by_player.get(data["structure"]) if data["structure"] else None
        dept.home = data["home"]
        dept.capacity = data.get("capacity")
        if data["slug"] in figures:
            dept.status = figures[data["slug"]]["status"]
            dept.chain_length = figures[data["slug"]]["chain_length"]
    bulk_set(
        list(departments.values()),
        [*TYPES, "moved", "defence", "structure", "home", "capacity", "status", "chain_length"],
    )
    Link.objects.filter(board=board).delete()
    Link.objects.bulk_create(
        Link(
            board=board,
            supplier=departments[link["from"]],
            consumer=departments[link["to"]],
            priority=link["priority"],
        )
        for link in result["links"]
    )
