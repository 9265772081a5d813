"""A board's offices now (RULES R80), read once per request: the board page marks their
holders and deputies on its cards and map (elections/selectors/office_views.live_posts) and
lists them with their next elections (intrigue/selectors/intrigue.board_offices), two reads
of the same rows that cost a query each."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db.models import OuterRef, Subquery

from campaigns.models import Board, Election, Office


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


def office_rows(board: Board) -> list[OfficeRow]:
    """The board's offices by name: one query, once per board object (a request's)."""
    found: list[OfficeRow] | None = getattr(board, "_offices_read", None)
    if found is None:
        next_election = Election.objects.filter(office=OuterRef("pk"), result__isnull=True)
        rows = (
            Office.objects.filter(board=board)
            .annotate(coming=Subquery(next_election.order_by("number").values("number")[:1]))
            .order_by("name", "pk")
            .values_list(*OfficeRow._fields[:6], "holder__slug", "deputy__slug", "coming")
        )
        found = [OfficeRow(*row) for row in rows]
        board._offices_read = found  # type: ignore[attr-defined]
    return found
