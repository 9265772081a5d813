"""A board's offices now (RULES R80), read once per request: the board page marks their
holders and deputies on its cards and map (elections/selectors/office_views.live_posts) and
lists them with their next elections (intrigue/selectors/intrigue.board_offices), two reads
of the same rows.

Written as SQL: through the ORM, building the next election's subquery and the two joins
cost more than a twentieth of the board page, many times the database's answer."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db import connection

from campaigns import jsoncodec
from campaigns.models import Board, Department, Election, Office


class OfficeRow(NamedTuple):
    pk: int
    name: str
    alignment: str
    shticks: list[dict[str, Any]]
    holder_id: int | None
    deputy_id: int | None
    holder_slug: str | None
    deputy_slug: str | None
    coming: int | None  # the turn of its next election, if one is scheduled


# The board's offices by name, with their holders' and deputies' slugs and the turn of the
# first election not yet held (no result).
OFFICES = """
SELECT o.id, o.name, o.alignment, o.shticks, o.holder_id, o.deputy_id, h.slug, d.slug,
  (SELECT e.number FROM {election} e WHERE e.office_id = o.id AND e.result IS NULL
   ORDER BY e.number LIMIT 1)
FROM {office} o
LEFT JOIN {department} h ON h.id = o.holder_id
LEFT JOIN {department} d ON d.id = o.deputy_id
WHERE o.board_id = %s
ORDER BY o.name, o.id
"""


def office_rows(board: Board) -> list[OfficeRow]:
    """The board's offices by name: one query, once per board object (a request's)."""
    found: list[OfficeRow] | None = getattr(board, "_offices_read", None)
    if found is None:
        tables = {m.__name__.lower(): m._meta.db_table for m in (Office, Department, Election)}
        with connection.cursor() as cursor:
            cursor.execute(OFFICES.format(**tables), [board.pk])
            # A raw cursor gives JSON as text (NOT NULL).
            found = [OfficeRow(pk, name, alignment, jsoncodec.loads(shticks), *rest)
                     for pk, name, alignment, shticks, *rest in cursor]  # fmt: skip
        board._offices_read = found  # type: ignore[attr-defined]
    return found
