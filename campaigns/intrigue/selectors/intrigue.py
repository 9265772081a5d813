"""What the pages of RULES parts 7-9 read (reads only; plain view-models): a character's
Perception and shticks (R60, R70), their secret goals with progress (R61), their dossier
(R71, R72), a board's offices (R80) and an election's tickets and support declared so far.

Each takes the viewer and returns only what RULES R50/R51 let them see: a character's sheet,
goals and dossier are their own and the GM's (and every member's once the GM has opened the
campaign); departments are named only where the viewer knows them at least as `rumoured`,
and a supporter's power only where they know its card. Each costs a fixed number of queries
whatever the number of rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.engine.plan import plan
from campaigns.models import (
    Board,
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    Goal,
    Membership,
    Order,
    Shtick,
    Turn,
)
from campaigns.selectors.office_rows import office_rows
from campaigns.selectors.order_checks import ELECTION_KINDS
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.state import board_state
from campaigns.selectors.visibility import (
    Level,
    department_rows,
    level_of,
    sees_everything,
    viewer_knowledge,
)


def may_read(viewer: Membership, member: Membership) -> bool:
    """R50/R51: a character's secrets are theirs and the GM's (everyone's once opened)."""
    return viewer.pk == member.pk or sees_everything(viewer)


def names_for(viewer: Membership, departments: list[Department]) -> dict[int, str]:
    """Department id -> its name where the viewer knows it at least as rumoured, else
    UNNAMED (one query: the viewer's levels). Rows come with their structures."""
    knowledge = viewer_knowledge(viewer, pk__in=[d.pk for d in departments])
    return {
        d.pk: d.name if level_of(d, viewer, knowledge) >= Level.RUMOURED else UNNAMED
        for d in departments
    }


# --- A character: shticks, goals, dossier ----------------------------------------------------


@dataclass(frozen=True)
class ShtickView:
    pk: int
    kind: str
    label: str  # the kind in words
    data: dict[str, Any]  # the ENGINE.md object (a narrative one's text in "text")
    department: str | None  # the department it names, if any


def readable(members: list[Membership], viewer: Membership) -> list[Membership]:
    return [m for m in members if may_read(viewer, m)]


def character_shticks(member: Membership, viewer: Membership) -> list[ShtickView]:
    """R60: the character's shticks, in the order granted (3 queries at most)."""
    return shticks_of([member], viewer).get(member.pk, [])


def shticks_of(members: list[Membership], viewer: Membership) -> dict[int, list[ShtickView]]:
    """R60: member id -> the shticks of each character the viewer may read (3 queries at
    most, however many members)."""
    members = readable(members, viewer)
    if not members:
        return {}
    shticks = list(Shtick.objects.filter(member__in=members).order_by("pk"))
    named = [s.department_id for s in shticks if s.department_id]
    rows = list(department_rows(pk__in=named)) if named else []
    names = names_for(viewer, rows) if rows else {}
    found: dict[int, list[ShtickView]] = {m.pk: [] for m in members}
    for s in shticks:
        view = ShtickView(
            s.pk, s.kind, str(s.get_kind_display()), s.data, names.get(s.department_id)
        )
        found[s.member_id].append(view)
    return found


@dataclass(frozen=True)
class Progress:
    turn: int
    value: int
    met: bool


@dataclass(frozen=True)
class GoalView:
    """R61: a goal (its ENGINE.md fields in `data`: n, and alignment, type or stat) with its
    progress after each processed turn, the latest last."""

    pk: int
    kind: str
    label: str
    n: int
    detail: str | None
    count: int
    progress: list[Progress]

    @property
    def latest(self) -> Progress | None:
        return self.progress[-1] if self.progress else None


def character_goals(member: Membership, viewer: Membership) -> list[GoalView]:
    """R61: the player's secret goals with their progress (2 queries)."""
    return goals_of([member], viewer).get(member.pk, [])


def goals_of(members: list[Membership], viewer: Membership) -> dict[int, list[GoalView]]:
    """R61: member id -> the secret goals, with their progress, of each player the viewer
    may read (1 query, however many members: each goal's row joined with its progress)."""
    members = readable(members, viewer)
    if not members:
        return {}
    rows = (
        Goal.objects.filter(member__in=members)
        .order_by("pk", "progress__turn__number")
        .values_list("pk", "member_id", "kind", "data", "count", "progress__turn__number",
                     "progress__value", "progress__met")
    )  # fmt: skip
    goals: dict[int, tuple[int, str, dict[str, Any], int]] = {}
    progress: dict[int, list[Progress]] = {}
    for pk, member, kind, data, count, number, value, met in rows:
        goals.setdefault(pk, (member, kind, data, count))
        if number is not None:  # a goal no turn has counted yet has no progress row
            progress.setdefault(pk, []).append(Progress(number, value, met))
    labels = dict(Goal.Kind.choices)
    found: dict[int, list[GoalView]] = {m.pk: [] for m in members}
    for pk, (member, kind, data, count) in goals.items():
        found[member].append(
            GoalView(
                pk,
                kind,
                str(labels.get(kind, kind)),
                int(data.get("n", 0)),
                data.get("alignment") or data.get("type") or data.get("stat"),
                count,
                progress.get(pk, []),
            )  # fmt: skip
        )
    return found


@dataclass(frozen=True)
class DossierItem:
    """R71/R72: one envelope the player opened: intel (its department named as far as the
    viewer knows it, with its board and the level it granted) or a contingency envelope
    (department None)."""

    turn: int
    kind: str  # "intel" or "contingency"
    text: str
    department: str | None
    board: str | None = None
    grants: int | None = None  # R71: the knowledge level an intel envelope granted


def dossier(member: Membership, viewer: Membership) -> list[DossierItem]:
    """R71/R72: every envelope the player has opened, newest first (4 queries at most)."""
    return dossiers_of([member], viewer).get(member.pk, [])


def dossiers_of(members: list[Membership], viewer: Membership) -> dict[int, list[DossierItem]]:
    """R71/R72: member id -> every envelope each player the viewer may read has opened,
    newest first (4 queries at most, however many members; none when each member was read
    with `opened_envelopes` False, pages.membership_for_slug)."""
    members = readable(members, viewer)
    if not members:
        return {}
    if not any(getattr(m, "opened_envelopes", True) for m in members):
        return {m.pk: [] for m in members}
    entries = list(
        DossierEntry.objects.filter(member__in=members).select_related(
            "envelope__department__board", "turn"
        )
    )
    depts = list(department_rows(pk__in=[e.envelope.department_id for e in entries]))
    names = names_for(viewer, depts) if depts else {}
    found: dict[int, list[DossierItem]] = {m.pk: [] for m in members}
    for e in entries:
        found[e.member_id].append(
            DossierItem(
                e.turn.number,
                "intel",
                e.envelope.text,
                names[e.envelope.department_id],
                e.envelope.department.board.name,
                e.envelope.grants,
            )  # fmt: skip
        )
    sealed = ContingencyEnvelope.objects.filter(member__in=members, opened_turn__isnull=False)
    for c in sealed.select_related("opened_turn"):
        found[c.member_id].append(DossierItem(c.opened_turn.number, "contingency", c.text, None))
    return {
        pk: sorted(items, key=lambda item: (item.turn, item.kind), reverse=True)
        for pk, items in found.items()
    }


# --- Offices and elections (R80) -------------------------------------------------------------


@dataclass(frozen=True)
class OfficeView:
    pk: int
    name: str
    alignment: str
    shticks: list[dict[str, Any]]
    holder: str | None  # a name, UNNAMED, or None for an empty post
    deputy: str | None
    election: int | None  # the turn of its next election, if one is scheduled


def board_offices(board: Board, viewer: Membership) -> list[OfficeView]:
    """R80: the board's offices, their holders and deputies as far as the viewer knows
    them, and the next election of each (3 queries; the first shared with
    office_views.live_posts, selectors/office_rows.py)."""
    offices = office_rows(board)
    posts = [pk for o in offices for pk in (o.holder_id, o.deputy_id) if pk]
    depts = list(department_rows(pk__in=posts)) if posts else []
    names = names_for(viewer, depts) if depts else {}
    return [
        OfficeView(
            o.pk,
            o.name,
            o.alignment,
            o.shticks,
            names.get(o.holder_id),
            names.get(o.deputy_id),
            o.coming,
        )  # fmt: skip
        for o in offices
    ]


@dataclass(frozen=True)
class Supporter:
    name: str  # UNNAMED for a department the viewer does not know
    power: int | None  # its Impress (doubled by `media`), None where its card is hidden


@dataclass(frozen=True)
class TicketView:
    candidate: str
    running_mate: str
    supporters: list[Supporter]
    votes: int

    @property
    def support_seen(self) -> int:
        """The part of its support the viewer may see."""
        return sum(s.power for s in self.supporters if s.power is not None)


@dataclass(frozen=True)
class ElectionView:
    office: str
    board: str
    number: int
    tickets: list[TicketView]


def election_so_far(turn: Turn, viewer: Membership) -> ElectionView | None:
    """R80: the election of the open `turn` as the queued orders of every player make it so
    far (the engine's own round, engine/plan.py: nominations, running mates, the players'
    support and votes; the uncontrolled departments decide only at the turn), as the viewer
    may see it (R50). None without an election this turn. 6 queries."""
    election = (
        Election.objects.filter(campaign_id=turn.campaign_id, number=turn.number)
        .select_related("office__board__campaign")
        .first()
    )
    if election is None:
        return None
    board = election.office.board
    orders = Order.objects.filter(
        turn=turn, board=board, status=Order.Status.QUEUED, kind__in=ELECTION_KINDS
    ).order_by("seq", "pk")
    state = board_state(board, turn=turn, orders=list(orders))
    round_ = plan(state, viewer.player_id).election
    if round_ is None:
        return None
    depts = {d.slug: d for d in department_rows(board=board)}
    knowledge = viewer_knowledge(viewer, board=board)
    levels = {slug: level_of(d, viewer, knowledge) for slug, d in depts.items()}

    def name(slug: str) -> str:
        return depts[slug].name if levels.get(slug, Level.UNKNOWN) >= Level.RUMOURED else UNNAMED

    tickets = [
        TicketView(
            name(t.candidate),
            name(t.running_mate),
            [
                Supporter(name(s), t.powers[s] if levels.get(s, 0) >= Level.KNOWN else None)
                for s in sorted(t.supporters)
            ],
            t.votes,
        )
        for t in round_.tickets.values()
    ]
    return ElectionView(election.office.name, board.name, turn.number, tickets)


def next_election(campaign_id: int) -> Election | None:
    """R80: the soonest election scheduled and not yet held, with its office, or None (1
    query: the campaign page names only its office and turn)."""
    rows = Election.objects.filter(campaign_id=campaign_id, result__isnull=True)
    return rows.select_related("office").order_by("number", "pk").first()


def elections_coming(campaign_id: int) -> list[Election]:
    """R80: the elections scheduled and not yet held, soonest first (1 query)."""
    rows = Election.objects.filter(campaign_id=campaign_id, result__isnull=True)
    return list(rows.select_related("office__board").order_by("number"))
