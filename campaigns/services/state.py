"""The write half of the one bridge between the database and the pure engine: `board_apply`
writes an engine result back in a fixed number of queries whatever the number of
departments. The read half (`board_state`) is selectors/state.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

from campaigns.engine.board import TYPES
from campaigns.models import Board, Link
from campaigns.selectors.state import BoardRows


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
