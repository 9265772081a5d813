"""The rows of a board now, for its page, its map and its history (board_views.live_snapshot):
every department with its controller, its card's texts and the viewer's stored level of it
(R50), and every link by its ends' slugs, in two queries.

Written as SQL: through the ORM the same rows took three queries, and building them (27
columns, four joins) cost more than a quarter of the board page's reads, many times what the
database took to answer them (as for visibility.seen_departments and state.department_rows_of,
whose conversion of a raw row this shares)."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.models import Board, Department, Knowledge, Link, Membership, Structure
from campaigns.selectors.state import COLUMNS, RAW_COLUMNS, columns_read

# The department's COLUMNS, then its controller (membership, character name, username), its
# card's texts and the viewer's stored level (none: unknown, R50).
DEPARTMENTS = """
SELECT {columns}, s.player_id, m.character_name, u.username, d.description, d.flaws, k.level
FROM {department} d
LEFT JOIN {structure} s ON s.id = d.structure_id
LEFT JOIN {membership} m ON m.id = s.player_id
LEFT JOIN {user} u ON u.id = m.user_id
LEFT JOIN {knowledge} k ON k.department_id = d.id AND k.player_id = %s
WHERE d.board_id = %s
ORDER BY d.slug
"""
# Every link of the board in funding order: (supplier slug, consumer slug, priority).
LINKS = """
SELECT s.slug, c.slug, l.priority
FROM {link} l
JOIN {department} s ON s.id = l.supplier_id
JOIN {department} c ON c.id = l.consumer_id
WHERE l.board_id = %s
ORDER BY s.slug, l.priority, l.id
"""


class LiveRow(NamedTuple):
    columns: tuple[Any, ...]  # state.COLUMNS, converted as the ORM would
    member: int | None  # the controlling membership
    character: str | None
    username: str | None
    description: str
    flaws: str
    stored: int | None  # the viewer's Knowledge level, None without a row


def tables() -> dict[str, str]:
    models = (Department, Structure, Membership, Knowledge, Link)
    return {
        **{model.__name__.lower(): model._meta.db_table for model in models},
        "user": get_user_model()._meta.db_table,
    }


def live_rows(board: Board, viewer: Membership) -> tuple[list[LiveRow], list[tuple[str, str, int]]]:
    """(the board's departments in slug order, its links). Two queries."""
    names = tables()
    with connection.cursor() as cursor:
        cursor.execute(DEPARTMENTS.format(columns=RAW_COLUMNS, **names), [viewer.pk, board.pk])
        width = len(COLUMNS)
        departments = [LiveRow(columns_read(row[:width]), *row[width:]) for row in cursor]
        cursor.execute(LINKS.format(**names), [board.pk])
        links = [(supplier, consumer, priority) for supplier, consumer, priority in cursor]
    return departments, links
