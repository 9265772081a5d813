"""Flags a page's first rows are read with (does this membership have envelopes opened, does
this turn hold notices for the viewer...), so that a page asks nothing more when there is
nothing: as SQL written once here rather than as the ORM's Exists.

Why: every page reads the viewer's membership and the campaign's turns with such flags, and
the ORM builds and compiles each Exists subquery anew per request: the five flags cost about
as much Python as three whole queries. The SQL is the same EXISTS the ORM wrote, in plain SQL
that SQLite and PostgreSQL both read; tests/selectors/test_row_flags.py checks each flag
against the ORM's Exists. Only for a query's own table, never inside a subquery (the outer
table is named by its table name, which a subquery would alias)."""

from __future__ import annotations

from django.db import models
from django.db.models.expressions import RawSQL

from campaigns.models import (
    ContingencyEnvelope,
    DossierEntry,
    Membership,
    Notice,
    Order,
    PlayerTurn,
    Turn,
)


def table(model: type[models.Model]) -> str:
    return f'"{model._meta.db_table}"'


def column(model: type[models.Model], field: str) -> str:
    return f'"{model._meta.get_field(field).column}"'  # type: ignore[union-attr]


def exists(model: type[models.Model], link: str, outer: type[models.Model], where: str = "") -> str:
    """EXISTS: a row of `model` whose foreign key `link` is the outer row (of `outer`), and
    `where` (SQL over `model`'s columns, with %s for parameters)."""
    outer_pk = f"{table(outer)}.{column(outer, outer._meta.pk.name)}"  # type: ignore[union-attr]
    also = f" AND {where}" if where else ""
    return f"EXISTS (SELECT 1 FROM {table(model)} WHERE {column(model, link)} = {outer_pk}{also})"


def flag(sql: str, params: tuple[object, ...] = ()) -> RawSQL:
    return RawSQL(sql, params, output_field=models.BooleanField())


# R71, R72: has the member opened an envelope (a dossier entry, or a contingency envelope
# opened in some turn)? For Membership rows.
OPENED_ENVELOPES_SQL = (
    exists(DossierEntry, "member", Membership)
    + " OR "
    + exists(
        ContingencyEnvelope,
        "member",
        Membership,
        f"{column(ContingencyEnvelope, 'opened_turn')} IS NOT NULL",
    )
)

# For Turn rows: hand-overs queued (of anyone), the viewer's unread notices, and whether the
# viewer marked their orders ready. Parameters as the comments say.
HANDOVERS_SQL = exists(
    Order, "turn", Turn, f"{column(Order, 'status')} = %s AND {column(Order, 'kind')} = %s"
)  # status, kind
UNREAD_NOTICES_SQL = exists(
    Notice, "turn", Turn, f"{column(Notice, 'player')} = %s AND {column(Notice, 'read_at')} IS NULL"
)  # player
READY_SQL = exists(
    PlayerTurn,
    "turn",
    Turn,
    f"{column(PlayerTurn, 'player')} = %s AND {column(PlayerTurn, 'ready_at')} IS NOT NULL",
)  # player


def opened_envelopes() -> RawSQL:
    return flag(OPENED_ENVELOPES_SQL)


def turn_flags(viewer_id: int) -> dict[str, RawSQL]:
    """pages.viewer_flags, for a Turn query."""
    return {
        "handovers": flag(HANDOVERS_SQL, (Order.Status.QUEUED.value, Order.Kind.HANDOVER.value)),
        "unread_notices": flag(UNREAD_NOTICES_SQL, (viewer_id,)),
        "ready": flag(READY_SQL, (viewer_id,)),
    }
