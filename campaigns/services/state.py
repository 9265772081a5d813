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
from campaigns.models import Board, Link, Structure
from campaigns.models.campaign import engine_player_id, membership_pk_of
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


# The card and position columns a state holds (ENGINE.md), restored by `board_restore`.
RESTORED = (
    "name",
    "effect",
    "obstruct",
    "impress",
    "consumes_type",
    "consumes_amount",
    "produces_type",
    "produces_amount",
    "functions",
    "alignments",
    *TYPES,
    "moved",
    "defence",
    "structure",
    "home",
    "capacity",
    "status",
    "chain_length",
)


def board_restore(
    board: Board, state: dict[str, Any], figures: dict[str, Any], *, members: set[int]
) -> None:
    """Write a recorded engine state back over the board (RULES R52): every department's card,
    stash and structure, and the links. `figures` is the spawn-consume report the state came
    from (status and chain length); `members` the campaign's membership ids (a structure of
    someone no longer in the campaign comes back uncontrolled). ValueError, naming the
    department, if the board's departments are not the state's."""
    rows = {d.slug: d for d in board.departments.all()}
    wanted = {d["slug"]: d for d in state["departments"]}
    changed = sorted(rows.keys() ^ wanted.keys())
    if changed:
        names = ", ".join(rows[s].name if s in rows else wanted[s]["name"] for s in changed)
        raise ValueError(
            f"{board.name}: departments were added or removed since the turn ({names}): "
            "undo that change first."
        )
    structures = structures_for(board, state, members)
    for slug, data in wanted.items():
        dept = rows[slug]
        for key in ("name", "effect", "obstruct", "impress", "functions", "alignments"):
            setattr(dept, key, data[key])
        for key in ("consumes", "produces"):
            resource = data.get(key) or {}
            setattr(dept, f"{key}_type", resource.get("type", ""))
            setattr(dept, f"{key}_amount", resource.get("amount", 0))
        for kind in TYPES:
            setattr(dept, kind, data.get("stash", {}).get(kind, 0))
        dept.moved = {k: n for k, n in (data.get("moved") or {}).items() if n}
        dept.defence = {k: n for k, n in (data.get("defence") or {}).items() if n}
        dept.structure_id = structures.get(data.get("structure"))
        dept.home = bool(data.get("home")) and dept.structure_id is not None
        dept.capacity = data.get("capacity")
        dept.status = figures.get(slug, {}).get("status", "")
        dept.chain_length = figures.get(slug, {}).get("chain_length", 1)
    bulk_set(list(rows.values()), list(RESTORED))
    Link.objects.filter(board=board).delete()
    Link.objects.bulk_create(
        Link(
            board=board,
            supplier=rows[link["from"]],
            consumer=rows[link["to"]],
            priority=link.get("priority", 0),
        )
        for link in state["links"]
    )


def structures_for(board: Board, state: dict[str, Any], members: set[int]) -> dict[str, int]:
    """Engine player id -> the board's Structure id for every controller in `state` who is
    still a member, made where missing."""
    wanted = {
        pk
        for d in state["departments"]
        if (pk := membership_pk_of(d.get("structure"))) is not None and pk in members
    }
    existing = {s.player_id: s.pk for s in Structure.objects.filter(board=board)}
    for pk in sorted(wanted - existing.keys()):
        existing[pk] = Structure.objects.create(board=board, player_id=pk).pk
    return {engine_player_id(pk): existing[pk] for pk in wanted}
