"""Every read the pages need, as plain view-models.

RULES R50 (fog of war) is applied here, with the rules of `visibility`: a page gets
dataclasses that hold only what the viewer may see, never model instances of departments or
turns, so a hidden field cannot reach a template (or an error page, or a debug toolbar) by
accident.
Every function issues a fixed number of queries, whatever the size of the board.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Case, Count, Exists, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.expressions import RawSQL
from django.utils.formats import localize

from campaigns.accounts.selectors.profile import cached_profile
from campaigns.classic.selectors.wins import WinNotice, win_notice
from campaigns.models import (
    Board,
    Campaign,
    Department,
    Link,
    Membership,
    Order,
    PlayerTurn,
    Resource,
    Turn,
)
from campaigns.selectors import row_flags
from campaigns.selectors.board_views import (
    BoardView,
    board_view_of,
    live_snapshot,
)

# R50 lives in `visibility`.
from campaigns.selectors.visibility import (
    Amount,
    DepartmentView,
    Level,
    department_rows,
    department_view,
    is_gm,
)

AnyUser = AbstractBaseUser | AnonymousUser

# The open turn first, then the latest: "the current turn" everywhere.
OPEN_FIRST = Case(
    When(status=Turn.Status.OPEN, then=Value(0)), default=Value(1), output_field=IntegerField()
)


# --- Campaigns and turns ------------------------------------------------------------------


@dataclass(frozen=True)
class TurnView:
    """A turn as players see it: the seed only once it is published (R23)."""

    number: int
    status: str
    status_label: str
    deadline: dt.datetime
    commitment: str
    seed: str | None
    processed_at: dt.datetime | None

    @property
    def is_open(self) -> bool:
        return self.status == Turn.Status.OPEN


def turn_view(turn: Turn) -> TurnView:
    return TurnView(
        number=turn.number,
        status=turn.status,
        status_label=turn.get_status_display(),
        deadline=turn.deadline,
        commitment=turn.commitment,
        seed=turn.seed_if_published,
        processed_at=turn.processed_at,
    )


@dataclass(frozen=True)
class CampaignSummary:
    """One line of "My campaigns"."""

    name: str
    slug: str
    url: str
    status_label: str
    paused: bool  # R30: the deadline does not run
    time_zone: str
    role: str
    role_label: str
    turn_number: int | None
    turn_status: str | None
    deadline: dt.datetime | None


def campaigns_for_user(user: AnyUser) -> list[CampaignSummary]:
    """The campaigns `user` belongs to, with their role and current turn: one query."""
    if not user.is_authenticated:
        return []
    current = Turn.objects.filter(campaign=OuterRef("campaign")).order_by(OPEN_FIRST, "-number")
    memberships = (
        Membership.objects.filter(user=user)
        .exclude(role=Membership.Role.REMOVED)
        .select_related("campaign")
        .annotate(
            turn_number=Subquery(current.values("number")[:1]),
            turn_status=Subquery(current.values("status")[:1]),
            turn_deadline=Subquery(current.values("deadline")[:1]),
        )
        .order_by("campaign__name", "campaign__pk")
    )
    return [
        CampaignSummary(
            name=m.campaign.name,
            slug=m.campaign.slug,
            url=m.campaign.get_absolute_url(),
            status_label=m.campaign.get_status_display(),
            paused=m.campaign.status == Campaign.Status.PAUSED,
            time_zone=m.campaign.time_zone,
            role=m.role,
            role_label=m.get_role_display(),
            turn_number=m.turn_number,
            turn_status=m.turn_status,
            deadline=m.turn_deadline,
        )
        for m in memberships
    ]


def membership_for_slug(user: AnyUser, slug: str) -> Membership | None:
    """`user`'s membership of campaign `slug`, or None, in one query. Staff and superusers
    are not special: a campaign a user is not in (or was removed from by the GM) does not
    exist for them (R50). An unknown slug and a campaign the user is not in both give None,
    so slugs cannot be probed."""
    if not user.is_authenticated:
        return None
    member = (
        Membership.objects.select_related("campaign")
        # Has the member opened an envelope (R71, R72)? Read with the membership, so that a
        # dossier with nothing in it costs no query (intrigue.dossiers_of).
        .annotate(opened_envelopes=row_flags.opened_envelopes())
        .filter(user=user, campaign__slug=slug)
        .exclude(role=Membership.Role.REMOVED)
        .first()
    )
    if member is not None:
        member.user = user  # type: ignore[assignment]  # the caller's own: not read again
    return member


def current_turn(campaign: Campaign, viewer: Membership | None = None) -> Turn | None:
    """The open turn, else the latest one; None before the campaign starts. With `viewer`,
    the turn carries `viewer_flags` (read in the same query)."""
    rows = campaign.turns.order_by(OPEN_FIRST, "-number")
    if viewer is not None:
        rows = rows.annotate(**viewer_flags(viewer))
    return rows.first()


def viewer_flags(viewer: Membership) -> dict[str, RawSQL]:
    """What a turn holds for `viewer`, as flags a turn is read with, so that a page asks for
    none of it when there is none: `handovers` queued (R62, of anyone: selectors/deals
    decides which are offered to the viewer), `unread_notices` of the viewer (R46), and
    whether the viewer marked their orders `ready` (R31). For a query of turns only (not
    a subquery): row_flags.py says why they are SQL."""
    return row_flags.turn_flags(viewer.pk)


def turns_now(
    campaign: Campaign, viewer: Membership | None = None
) -> tuple[Turn | None, list[Turn]]:
    """The current turn (as current_turn) and every turn that is over, latest first: one
    query for what current_turn and past_turns ask in two. With `viewer`, each turn
    carries `viewer_flags`."""
    rows = campaign.turns.order_by("-number")
    if viewer is not None:
        rows = rows.annotate(**viewer_flags(viewer))
    turns = list(rows)
    opened = [t for t in turns if t.status == Turn.Status.OPEN]
    current = opened[0] if opened else (turns[0] if turns else None)
    return current, [t for t in turns if t.status != Turn.Status.OPEN]


def past_turns(campaign: Campaign) -> list[TurnView]:
    """Every turn that is over (processed or failed), latest first."""
    turns = campaign.turns.exclude(status=Turn.Status.OPEN).order_by("-number")
    return [turn_view(t) for t in turns]


def neighbour_reports(campaign: Campaign, number: int) -> tuple[int | None, int | None]:
    """The turn numbers of the processed turns just before and after `number` (the report
    page's previous / next links), None where there is none."""
    numbers = set(
        campaign.turns.filter(
            status=Turn.Status.PROCESSED, number__in=[number - 1, number + 1]
        ).values_list("number", flat=True)
    )
    return (
        number - 1 if number - 1 in numbers else None,
        number + 1 if number + 1 in numbers else None,
    )


def queued_order_count(turn: Turn) -> int:
    return turn.orders.filter(status=Order.Status.QUEUED).count()


# Does any link cross the board's edge (R2, R60)? Read with the board, so that a board
# without one costs cross_board.cross_links no query. Written as SQL: the ORM took longer
# to build the two EXISTS than all the rest of the board page's reads of the board.
CROSSING = """
SELECT b.*, (
  EXISTS (SELECT 1 FROM {link} l
          JOIN {department} s ON s.id = l.supplier_id JOIN {department} c ON c.id = l.consumer_id
          WHERE s.board_id = b.id AND c.board_id <> b.id)
  OR EXISTS (SELECT 1 FROM {link} l
             JOIN {department} c ON c.id = l.consumer_id JOIN {department} s ON s.id = l.supplier_id
             WHERE c.board_id = b.id AND s.board_id <> b.id)
) AS crosses
FROM {board} b WHERE b.campaign_id = %s AND b.slug = %s
"""


def board_for(campaign: Campaign, slug: str, *, crossing: bool = False) -> Board | None:
    """`campaign`'s board `slug`, carrying `campaign` (the pages read board.campaign: not
    again from the database); with `crossing`, its `crosses` flag (CROSSING) too."""
    if crossing:
        tables = {m.__name__.lower(): m._meta.db_table for m in (Board, Department, Link)}
        rows = Board.objects.raw(CROSSING.format(**tables), [campaign.pk, slug])
        board = next(iter(rows), None)
        if board is not None:
            board.crosses = bool(board.crosses)  # SQLite answers 0 or 1
    else:
        board = Board.objects.filter(campaign=campaign, slug=slug).first()
    if board is not None:
        board.campaign = campaign
    return board


@dataclass(frozen=True)
class BoardLink:
    name: str
    slug: str
    classic: bool = False  # R90


def boards_of(campaign: Campaign) -> list[BoardLink]:
    return [
        BoardLink(name=b.name, slug=b.slug, classic=b.is_classic) for b in campaign.boards.all()
    ]


# --- Boards under R50 ----------------------------------------------------------------------


def board_view(board: Board, viewer: Membership) -> BoardView:
    """The board now as `viewer` may see it (R50), in two queries.

    Links (R10) are shown when the viewer sees both ends at least `known` (which includes
    every link inside their own structure), or one end is theirs (its other end named); a
    link's priority (R12) only to whoever controls
    its supplier, and the GM (visibility.link_visible, priority_visible)."""
    snapshot, texts, names = live_snapshot(board, viewer)
    return board_view_of(board, snapshot, texts, names)


# --- The viewer's own structures -------------------------------------------------------------


@dataclass(frozen=True)
class StructureView:
    board: BoardLink
    departments: list[DepartmentView]


def structures_of(viewer: Membership, boards: list[BoardLink] | None = None) -> list[StructureView]:
    """R13: the viewer's departments, per board, at full detail (they control them). One
    query, plus one for the boards unless the caller has them."""
    boards = boards_of(viewer.campaign) if boards is None else boards
    rows = department_rows(structure__player=viewer).select_related("board")
    mine: dict[str, list[DepartmentView]] = {b.slug: [] for b in boards}
    for dept in rows:
        view = department_view(dept, Level.CONTROLLED, mine=True)
        if view is not None:
            mine[dept.board.slug].append(view)
    return [StructureView(board=b, departments=mine[b.slug]) for b in boards if mine[b.slug]]


@dataclass(frozen=True)
class Holding:
    """One of the viewer's departments as the campaign page lists it (R13): only its name,
    whether it is a home department, and its stash."""

    name: str
    home: bool
    stash: list[Amount]

    @property
    def stash_text(self) -> str:
        """ "Money 2 · People 0 · Authority 0": written once here rather than by a template
        loop over each type (the page lists every department of the viewer's)."""
        return " · ".join(f"{a.label} {localize(a.amount)}" for a in self.stash)


@dataclass(frozen=True)
class Holdings:
    board: BoardLink
    departments: list[Holding]


def holdings_of(viewer: Membership, boards: list[BoardLink]) -> list[Holdings]:
    """The campaign page's summary of the viewer's structures, per board: one query of plain
    values (structures_of builds every department's whole view, which this page does not
    show)."""
    rows = (
        Department.objects.filter(structure__player=viewer)
        .order_by("slug")  # within a board, as Department's own ordering
        .values_list("board__slug", "name", "home", "money", "people", "authority")
    )
    # As visibility.stash_amounts, with each type's name translated once per page rather
    # than once per department and type (a lazy label costs a translation where it is shown).
    labels = [(kind, str(label)) for kind, label in Resource.choices]
    mine: dict[str, list[Holding]] = {b.slug: [] for b in boards}
    for board, name, home, money, people, authority in rows:
        held = {"money": money, "people": people, "authority": authority}
        stash = [Amount(kind=kind, label=label, amount=held[kind]) for kind, label in labels]
        mine[board].append(Holding(name=name, home=home, stash=stash))
    return [Holdings(board=b, departments=mine[b.slug]) for b in boards if mine[b.slug]]


# --- The GM's roster ------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterLine:
    """One player, as the GM sees them (the GM sees everything, R50; players get no roster)."""

    username: str
    character: str
    ready: bool  # marked their orders of the open turn ready (early processing, R31)
    queued: int  # orders queued for the open turn (R40)
    last_seen: dt.datetime | None  # last visit to the site (None: never, or not since 0014)


def roster(campaign: Campaign, turn: Turn | None) -> list[RosterLine]:
    """Every player of `campaign` with their readiness and queued orders for `turn` (the open
    turn; None: nothing open, zeros). One query, whatever the number of players or orders."""
    open_id = turn.pk if turn is not None and turn.status == Turn.Status.OPEN else None
    ready = PlayerTurn.objects.filter(
        turn_id=open_id, player=OuterRef("pk"), ready_at__isnull=False
    )
    queued = Q(orders__turn_id=open_id, orders__status=Order.Status.QUEUED)
    rows = (
        Membership.objects.filter(campaign=campaign, role=Membership.Role.PLAYER)
        .select_related("user__profile")
        .annotate(queued=Count("orders", filter=queued), is_ready=Exists(ready))
        .order_by("user__username", "pk")
    )
    return [
        RosterLine(
            username=m.user.get_username(),
            character=m.character_name,
            ready=m.is_ready,
            queued=m.queued,
            last_seen=last_visit(m.user),
        )
        for m in rows
    ]


def last_visit(user: AbstractBaseUser) -> dt.datetime | None:
    """When `user` last visited the site (fetched with select_related("user__profile"))."""
    profile = cached_profile(user)
    return profile.last_seen if profile is not None else None


# --- The campaign page ---------------------------------------------------------------------


@dataclass(frozen=True)
class CampaignPage:
    campaign: Campaign  # no hidden fields: name, status, schedule (R30)
    role_label: str
    is_gm: bool
    turn: TurnView | None
    boards: list[BoardLink]
    structures: list[Holdings]
    past_turns: list[TurnView]
    roster: list[RosterLine]  # the GM's only: players see no one's readiness (R50)
    # Which GM buttons to offer; the services check again when pressed.
    can_start: bool
    can_pause: bool
    can_resume: bool
    can_process: bool
    can_undo: int | None  # the number of the last processed turn the GM may undo (R52)
    can_end: bool
    can_open: bool  # R51
    # R98: who won which classic board in the last processed turn, and whether the GM is
    # still to end the campaign or play on.
    win: WinNotice | None = None


def campaign_page(
    viewer: Membership, turn: Turn | None, over: list[Turn] | None = None
) -> CampaignPage:
    """Everything the campaign page shows `viewer`, in four queries (the GM: four too,
    the roster instead of the viewer's structures; one more when a classic board was won,
    R98); `turn` is the campaign's current_turn, `over` the turns that are over if read
    already (turns_now: one query fewer)."""
    campaign = viewer.campaign
    gm = is_gm(viewer)
    status = campaign.status
    open_turn = turn is not None and turn.status == Turn.Status.OPEN
    boards = boards_of(campaign)
    if over is None:
        over = list(campaign.turns.exclude(status=Turn.Status.OPEN).order_by("-number"))
    return CampaignPage(
        campaign=campaign,
        role_label=viewer.get_role_display(),
        is_gm=gm,
        turn=turn_view(turn) if turn else None,
        boards=boards,
        structures=[] if gm else holdings_of(viewer, boards),
        past_turns=[turn_view(t) for t in over if turn is None or t.number != turn.number],
        roster=roster(campaign, turn) if gm else [],
        can_start=gm and status == Campaign.Status.DRAFT and turn is None,
        can_pause=gm and status == Campaign.Status.RUNNING,
        can_resume=gm and status == Campaign.Status.PAUSED,
        can_process=gm and open_turn and status != Campaign.Status.FINISHED,
        # Turn 0 is the start: there is nothing before it to go back to.
        can_undo=turn.number - 1 if gm and open_turn and turn and turn.number >= 2 else None,
        can_end=gm and status in (Campaign.Status.RUNNING, Campaign.Status.PAUSED),
        can_open=gm and status == Campaign.Status.FINISHED and not campaign.opened,
        win=shown_win(win_notice(campaign, over) if any(b.classic for b in boards) else None, gm),
    )


def shown_win(notice: WinNotice | None, gm: bool) -> WinNotice | None:
    """R98: every member reads who won; the GM's notice goes once the GM plays on (it was
    the GM's question), the players' stays until the next turn, saying the GM plays on."""
    return None if notice is None or (gm and notice.played_on) else notice
