"""The GM's audit log (RULES R53), newest first, filtered by what, who, when, board and
department: five queries whatever the length of the log (the filters' choices, the count, the
page)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.core.paginator import Page, Paginator
from django.db.models import Q

from campaigns.models import AuditEntry, Board, Campaign, Department

AUDIT_PAGE_SIZE = 50


@dataclass(frozen=True)
class AuditChoices:
    """What the filters offer: the actions, who appears in the log (user id, name), the
    boards (slug, name) and the departments ("board/slug", "board: name")."""

    actions: list[tuple[str, str]]
    actors: list[tuple[int, str]]
    boards: list[tuple[str, str]]
    departments: list[tuple[str, str]]


@dataclass(frozen=True)
class AuditFilters:
    """An empty field does not filter. `actor` 0: entries whose user was deleted;
    `department`: "board/slug"; `since` and `until`: days in the campaign's time zone."""

    action: str = ""
    actor: int | None = None
    since: dt.date | None = None
    until: dt.date | None = None
    board: str = ""
    department: str = ""

    def query(self) -> str:
        """The filters as a query string, for the links to other pages of the log."""
        values = {k: v for k, v in vars(self).items() if v not in ("", None)}
        return urlencode(
            {k: v.isoformat() if isinstance(v, dt.date) else v for k, v in values.items()}
        )


@dataclass(frozen=True)
class AuditPage:
    entries: Page[AuditEntry]
    filters: AuditFilters = field(default_factory=AuditFilters)

    @property
    def filtered(self) -> bool:
        return self.filters != AuditFilters()


def audit_choices(campaign: Campaign) -> AuditChoices:
    """Three queries, whatever the log: its users, the boards, the departments."""
    users = (
        AuditEntry.objects.filter(campaign=campaign, actor__isnull=False)
        .values_list("actor_id", "actor__username")
        .distinct()
        .order_by("actor__username")
    )
    boards = Board.objects.filter(campaign=campaign).order_by("name")
    departments = Department.objects.filter(board__campaign=campaign).order_by(
        "board__name", "name"
    )
    return AuditChoices(
        actions=list(AuditEntry.Action.choices),
        actors=list(users),
        boards=list(boards.values_list("slug", "name")),
        departments=[
            (f"{board}/{slug}", f"{board_name}: {name}")
            for board, slug, board_name, name in departments.values_list(
                "board__slug", "slug", "board__name", "name"
            )
        ],
    )


def audit_page(campaign: Campaign, filters: AuditFilters, *, page: object = 1) -> AuditPage:
    """One page of the log under `filters`: two queries (count, page)."""
    entries = AuditEntry.objects.filter(campaign=campaign).select_related("actor")
    if filters.action:
        entries = entries.filter(action=filters.action)
    if filters.actor == 0:
        entries = entries.filter(actor__isnull=True)
    elif filters.actor is not None:
        entries = entries.filter(actor_id=filters.actor)
    zone = ZoneInfo(campaign.time_zone)
    if filters.since is not None:
        entries = entries.filter(at__gte=dt.datetime.combine(filters.since, dt.time.min, zone))
    if filters.until is not None:
        entries = entries.filter(at__lte=dt.datetime.combine(filters.until, dt.time.max, zone))
    if filters.board:
        entries = entries.filter(board=filters.board)
    if filters.department:
        board, _, slug = filters.department.partition("/")
        entries = entries.filter(Q(board=board) & Q(departments__contains=f" {slug} "))
    paginator = Paginator(entries, AUDIT_PAGE_SIZE)
    return AuditPage(paginator.get_page(page), filters)
