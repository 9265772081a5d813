"""A character in words, for the campaign page and the GM's member page (RULES R60, R61, R71,
R72): their shticks as sentences ("+1 die on linking attempts by The Mint"), their secret
goals with a progress bar after every processed turn, and how much their dossier holds.

Built on intrigue/selectors/intrigue.py, which decides who may read what (the character's own player
and the GM; every member once the campaign is opened, R51) and names departments only as far
as the reader knows them (R50). A fixed number of queries, whatever the number of rows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from campaigns.intrigue.selectors.intrigue import (
    DossierItem,
    GoalView,
    dossiers_of,
    goals_of,
    shticks_of,
)
from campaigns.models import Board, Campaign, ContingencyEnvelope, Department, Membership
from campaigns.selectors.visibility import sees_everything
from campaigns.words.intrigue import goal_text, shtick_text


@dataclass(frozen=True)
class ShtickLine:
    pk: int
    kind: str
    label: str  # the kind
    text: str  # the shtick in words


@dataclass(frozen=True)
class GoalLine:
    """R61: a goal in words, and where it stood after each processed turn (latest last)."""

    pk: int
    kind: str
    text: str
    n: int
    value: int | None  # after the latest processed turn; None before the first
    met: bool
    after_turn: int | None
    history: list[tuple[int, int]]  # (turn, value)

    @property
    def percent(self) -> int:
        """How full the progress bar is (a goal met is full)."""
        if self.met:
            return 100
        if not self.value or self.n <= 0:
            return 0
        return min(100, self.value * 100 // self.n)


@dataclass(frozen=True)
class CharacterSheet:
    shticks: list[ShtickLine]
    goals: list[GoalLine]
    dossier: list[DossierItem]

    @property
    def latest_turn(self) -> int | None:
        return self.dossier[0].turn if self.dossier else None

    @property
    def new_in_dossier(self) -> int:
        """How many envelopes the latest turn that opened any opened."""
        return sum(1 for item in self.dossier if item.turn == self.latest_turn)


def goal_line(goal: GoalView) -> GoalLine:
    latest = goal.latest
    return GoalLine(
        goal.pk,
        goal.kind,
        goal_text(goal.kind, goal.n, goal.detail),
        goal.n,
        latest.value if latest else None,
        bool(latest and latest.met),
        latest.turn if latest else None,
        [(p.turn, p.value) for p in goal.progress],
    )


def character_sheet(
    member: Membership, viewer: Membership, boards: dict[str, str] | None = None
) -> CharacterSheet:
    """R60, R61, R71, R72: what `viewer` may read of `member`'s character (nothing of
    another player's before the campaign is opened)."""
    sheets = character_sheets([member], viewer, boards)
    return sheets.get(member.pk) or CharacterSheet([], [], [])


def character_sheets(
    members: list[Membership], viewer: Membership, boards: dict[str, str] | None = None
) -> dict[int, CharacterSheet]:
    """Member id -> the sheet of each of `members` the viewer may read (their own; every
    player's for the GM, and for every member once the campaign is opened, R51). A fixed
    number of queries, however many members; `boards` (slug -> name) one fewer."""
    if not members:
        return {}
    if boards is None:
        rows = Board.objects.filter(campaign_id=members[0].campaign_id)
        boards = dict(rows.values_list("slug", "name"))
    shticks, goals = shticks_of(members, viewer), goals_of(members, viewer)
    dossiers = dossiers_of(members, viewer)
    return {
        pk: CharacterSheet(
            [
                ShtickLine(s.pk, s.kind, s.label, shtick_text(s.data, s.department, boards))
                for s in shticks[pk]
            ],
            [goal_line(g) for g in goals[pk]],
            dossiers[pk],
        )
        for pk in shticks
    }


@dataclass(frozen=True)
class Character:
    """One player's character as every member reads it once the campaign is opened (R51)."""

    member: Membership
    sheet: CharacterSheet


def campaign_characters(campaign: Campaign, viewer: Membership) -> list[Character]:
    """R51: every player's character (shticks, goals with their progress, dossier), by name,
    for a viewer who sees everything (the GM; every member once the campaign is opened);
    nothing for anyone else. A fixed number of queries, however many players."""
    if not sees_everything(viewer):
        return []
    players = list(
        Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER)
        .select_related("user")
        .order_by("character_name", "user__username")
    )
    sheets = character_sheets(players, viewer)
    return [Character(m, sheets[m.pk]) for m in players if m.pk in sheets]


# --- The GM's page of a character -------------------------------------------------------------


@dataclass(frozen=True)
class DepartmentOption:
    """A department a shtick or an envelope may name: its row's pk (the form's choice), its
    slug (ENGINE.md) and its label ("The Mint (The City)")."""

    pk: int
    slug: str
    label: str


def board_department_options(board: Board) -> list[DepartmentOption]:
    """Every department of one board, by name (one query): what an office's shtick may
    name (R80: a department of the office's board)."""
    return [
        DepartmentOption(d.pk, d.slug, d.name) for d in board.departments.order_by("name", "pk")
    ]


def department_choices(options: list[DepartmentOption]) -> list[tuple[str, str]]:
    """`options` as a form's choices: the row's pk (as the form posts it) -> its label."""
    return [(str(d.pk), d.label) for d in options]


def department_options(campaign: Campaign) -> list[DepartmentOption]:
    """Every department of the campaign, by board and name (one query): the GM's choices."""
    rows = Department.objects.filter(board__campaign=campaign).select_related("board")
    return [
        DepartmentOption(d.pk, d.slug, f"{d.name} ({d.board.name})")
        for d in rows.order_by("board__name", "name", "pk")
    ]


@dataclass(frozen=True)
class ContingencyLine:
    """R72: a sealed envelope as the GM sees it: what opens it, its text, and the turn it
    opened in (None while sealed)."""

    pk: int
    condition: str
    turn_number: int | None
    date: dt.datetime | None
    department: str | None
    level: int | None
    text: str
    opened: int | None


def contingency_lines(member: Membership, viewer: Membership) -> list[ContingencyLine]:
    """R72: every contingency envelope to `member`, sealed or opened, oldest first, for the
    GM (a player never reads the sealed ones: their dossier holds the opened). One query."""
    if viewer.role != Membership.Role.GM:
        return []
    rows = ContingencyEnvelope.objects.filter(member=member).select_related(
        "department__board", "opened_turn"
    )
    return [
        ContingencyLine(
            c.pk,
            c.condition,
            c.turn_number,
            c.date,
            f"{c.department.name} ({c.department.board.name})" if c.department else None,
            c.level,
            c.text,
            c.opened_turn.number if c.opened_turn else None,
        )  # fmt: skip
        for c in rows.order_by("pk")
    ]
