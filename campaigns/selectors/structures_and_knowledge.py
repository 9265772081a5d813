"""Reads for the GM's per-board grids: who holds which department (RULES R13) and what
each player and observer knows of it (R50). A board may have hundreds of departments, so
both are paginated by department, each page a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q

from campaigns.models import Board, Department, Knowledge, Membership
from campaigns.selectors.editor import active_players, resource_text
from campaigns.selectors.visibility import department_rows

ROWS_PER_PAGE = 25
Level = Knowledge.Level


@dataclass(frozen=True)
class GridMember:
    pk: int
    name: str
    username: str
    role_label: str


@dataclass(frozen=True)
class GridCell:
    member: int  # membership id
    level: int  # the stored level (R50), capped at known; `controlled` is not stored
    controlled: bool  # the member holds the department: the cell follows the structure


@dataclass(frozen=True)
class GridRow:
    pk: int
    name: str
    controller: str | None
    cells: list[GridCell]


@dataclass(frozen=True)
class KnowledgeGrid:
    members: list[GridMember]
    rows: list[GridRow]
    page: Page[Department]
    departments: list[tuple[int, str]]  # every department of the board, for the bulk form


def grid_members(board: Board) -> list[GridMember]:
    """Players and observers (the GM sees everything and needs no row), by role and name."""
    rows = board.campaign.memberships.filter(
        role__in=[Membership.Role.PLAYER, Membership.Role.OBSERVER]
    ).select_related("user")
    ordered = sorted(rows, key=lambda m: (m.role != Membership.Role.PLAYER, m.display_name))
    return [
        GridMember(m.pk, m.display_name, m.user.get_username(), m.get_role_display())
        for m in ordered
    ]


def department_page(board: Board, page: object) -> Page[Department]:
    rows = department_rows(board=board).order_by("name", "slug")
    return Paginator(rows, ROWS_PER_PAGE).get_page(page)


def knowledge_grid(board: Board, *, page: object = 1) -> KnowledgeGrid:
    """One page of departments x every player and observer: 5 queries at any size."""
    members = grid_members(board)
    departments = department_page(board, page)
    stored = Knowledge.objects.filter(
        department__in=[d.pk for d in departments], player__in=[m.pk for m in members]
    ).values_list("player_id", "department_id", "level")
    levels = {(m, d): min(level, Level.KNOWN) for m, d, level in stored}
    rows = [
        GridRow(
            pk=d.pk,
            name=d.name,
            controller=d.structure.player.display_name if d.structure_id else None,
            cells=[
                GridCell(
                    member=m.pk,
                    level=levels.get((m.pk, d.pk), Level.UNKNOWN),
                    controlled=d.structure_id is not None and d.structure.player_id == m.pk,
                )
                for m in members
            ],
        )
        for d in departments
    ]
    everything = list(board.departments.order_by("name", "slug").values_list("pk", "name"))
    return KnowledgeGrid(members, rows, departments, everything)


@dataclass(frozen=True)
class StructureRow:
    pk: int
    name: str
    slug: str
    controller: int | None  # membership id
    home: bool
    produces: str
    consumes: str


@dataclass(frozen=True)
class StructureSummary:
    player: str
    held: int
    home: int


@dataclass(frozen=True)
class StructuresPage:
    players: list[Membership]
    rows: list[StructureRow]
    page: Page[Department]
    summary: list[StructureSummary]  # every player's structure on the whole board


def structures_page(board: Board, *, page: object = 1) -> StructuresPage:
    """One page of the board's departments with their controller and home flag, and each
    player's count on the whole board: 5 queries at any size."""
    players = active_players(board.campaign)
    departments = department_page(board, page)
    rows = [
        StructureRow(
            pk=d.pk,
            name=d.name,
            slug=d.slug,
            controller=d.structure.player_id if d.structure_id else None,
            home=d.home,
            produces=resource_text(d.produces_type, d.produces_amount),
            consumes=resource_text(d.consumes_type, d.consumes_amount),
        )
        for d in departments
    ]
    counts = {
        player: (held, home)
        for player, held, home in board.structures.annotate(
            held=Count("departments"), home=Count("departments", filter=Q(departments__home=True))
        ).values_list("player_id", "held", "home")
    }
    summary = [StructureSummary(p.display_name, *counts.get(p.pk, (0, 0))) for p in players]
    return StructuresPage(players, rows, departments, summary)
