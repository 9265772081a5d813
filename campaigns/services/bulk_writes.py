"""Bulk writes of many rows, each row its own values, in a fixed number of statements.

On PostgreSQL many rows are streamed with COPY (into the table, or into a temporary table
applied with one UPDATE ... FROM): the database's own fastest path, a few times faster than
a statement with thousands of parameters, whose text psycopg must build and the server
parse. Fewer rows, and everything on SQLite, go in one UPDATE per batch from a VALUES list,
batched by the backend's parameter limit. Like Django's bulk_update: no save(), no signals,
no auto_now.

Rows are tuples in the column's Python form: (pk, value of each field, ...). JSON values are
serialised here with orjson (campaigns/jsoncodec.py): the turn job writes thousands of them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import JSONField, Model

from campaigns.jsoncodec import dumps_compact

Row = tuple[Any, ...]
_temporary_names = itertools.count()


def unsized(db_type: str) -> str:
    """varchar(16) -> varchar: an explicit CAST to a sized type would cut a value that is
    too long without a word; assigning the unsized value to the column checks it, as an
    UPDATE ... SET col = 'value' does."""
    return re.sub(r"\(.*\)", "", db_type)


# From this many rows on, COPY (three statements) beats one UPDATE from a VALUES list; below
# it the round trips cost more than the parameters (a campaign of 20 departments).
COPY_FROM = 500


def rows_update(model: type[Model], fields: Sequence[str], rows: Sequence[Row]) -> None:
    """UPDATE each row (pk, *values of `fields`) of `model`'s table."""
    if not rows:
        return
    if connection.vendor == "postgresql" and len(rows) >= COPY_FROM:
        _copy_update(model, fields, rows)
    else:
        _values_update(model, fields, rows)


def rows_insert(model: type[Model], fields: Sequence[str], rows: Sequence[Row]) -> None:
    """INSERT rows (values of `fields`, no pk) into `model`'s table; nothing is read back."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        _copy(model._meta.db_table, _columns(model, fields), _prepared(model, fields, rows, 0))
    else:
        names = [model._meta.get_field(f).attname for f in fields]  # turn -> turn_id
        model._default_manager.bulk_create(
            model(**dict(zip(names, row, strict=True))) for row in rows
        )


def _columns(model: type[Model], fields: Sequence[str]) -> list[str]:
    qn = connection.ops.quote_name
    return [qn(model._meta.get_field(name).column) for name in fields]  # type: ignore[union-attr]


def _prepared(model: type[Model], fields: Sequence[str], rows: Sequence[Row], offset: int) -> Any:
    """Rows with their JSON fields as JSON text (COPY and VALUES take text for them)."""
    json_at = [
        offset + i
        for i, name in enumerate(fields)
        if isinstance(model._meta.get_field(name), JSONField)
    ]
    if not json_at:
        return rows
    prepared = []
    for row in rows:
        values = list(row)
        for i in json_at:
            values[i] = dumps_compact(values[i])
        prepared.append(values)
    return prepared


def _copy(table: str, columns: list[str], rows: Any) -> None:
    """COPY rows into `table` (PostgreSQL); psycopg's own cursor, as COPY is not in Django's
    API, with its errors made Django's."""
    with connection.cursor() as cursor:
        copy_sql = f"COPY {connection.ops.quote_name(table)} ({', '.join(columns)}) FROM STDIN"
        with connection.wrap_database_errors, cursor.cursor.copy(copy_sql) as copy:
            for row in rows:
                copy.write_row(row)


def _copy_in(model: type[Model], fields: Sequence[str], rows: Sequence[Row]) -> str:
    """COPY rows (pk, *fields) into a new temporary table shaped like those columns of
    `model`'s table (types, no constraints); return its name. PostgreSQL drops it at
    commit (a statement saved)."""
    qn = connection.ops.quote_name
    columns = [qn(model._meta.pk.column), *_columns(model, fields)]  # type: ignore[union-attr]
    table = f"bulk_{model._meta.db_table}_{next(_temporary_names)}"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {table} ON COMMIT DROP AS SELECT {', '.join(columns)} "
            f"FROM {qn(model._meta.db_table)} WITH NO DATA"
        )
    _copy(table, columns, _prepared(model, fields, rows, 1))
    return table


def _copy_update(model: type[Model], fields: Sequence[str], rows: Sequence[Row]) -> None:
    table = _copy_in(model, fields, rows)
    qn = connection.ops.quote_name
    target = qn(model._meta.db_table)
    pk = qn(model._meta.pk.column)  # type: ignore[union-attr]
    assignments = ", ".join(f"{c} = {table}.{c}" for c in _columns(model, fields))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {target} SET {assignments} FROM {table} WHERE {target}.{pk} = {table}.{pk}"
        )


def _values_update(model: type[Model], fields: Sequence[str], rows: Sequence[Row]) -> None:
    """WITH v(pk, f0, ...) AS (VALUES (%s, %s, ...), ...)
    UPDATE table SET col = CAST(v.f0 AS type), ... FROM v WHERE table.pk = v.pk

    (Django's bulk_update writes a CASE WHEN per row and field, which the database scans
    row by row: its cost grows with rows x rows.)"""
    meta = model._meta
    targets = [meta.get_field(name) for name in fields]
    qn = connection.ops.quote_name
    table = qn(meta.db_table)
    names = ["pk", *(f"f{i}" for i in range(len(targets)))]
    assignments = ", ".join(
        f"{qn(field.column)} = CAST(v.{name} AS {unsized(field.cast_db_type(connection))})"  # type: ignore[union-attr]
        for name, field in zip(names[1:], targets, strict=True)
    )
    width = len(names)
    limit = connection.features.max_query_params
    size = max(1, limit // width) if limit else len(rows)
    placeholder = "(" + ", ".join(["%s"] * width) + ")"
    pk = meta.pk
    assert pk is not None
    prepared = [
        [row[0], *(f.get_db_prep_save(v, connection) if not isinstance(f, JSONField) else v
                   for f, v in zip(targets, row[1:], strict=True))]
        for row in _prepared(model, fields, rows, 1)
    ]  # fmt: skip
    with connection.cursor() as cursor:
        for start in range(0, len(prepared), size):
            batch = prepared[start : start + size]
            cursor.execute(
                f"WITH v({', '.join(names)}) AS (VALUES {', '.join([placeholder] * len(batch))}) "
                f"UPDATE {table} SET {assignments} FROM v "
                f"WHERE {table}.{qn(pk.column)} = CAST(v.pk AS {pk.cast_db_type(connection)})",
                [value for row in batch for value in row],
            )


def bulk_set(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Write `fields` of every model instance in `rows`, each its own values (rows_update)."""
    if not rows:
        return
    model = type(rows[0])
    targets = [model._meta.get_field(name) for name in fields]
    rows_update(
        model,
        fields,
        [(row.pk, *(getattr(row, field.attname) for field in targets)) for row in rows],  # type: ignore[union-attr]
    )
