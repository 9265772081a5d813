"""Reads for the weekly orders page (RULES R40-R47): the player's queued and resolved orders in
words, the attempts against their departments (R46), readiness and notices.

`orders_page` builds the whole page in a fixed number of queries, whatever the number of
departments, orders or turns: the names come from one read of the departments the page
names (never the whole campaign), filtered by what the viewer knows (R50).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from campaigns.classic.selectors.state import stored_classic_states
from campaigns.engine.joined import SEP, departments_named
from campaigns.engine.scope import named_departments
from campaigns.intrigue.selectors.deals import Offer, offers_to
from campaigns.models import Department, Membership, Notice, Order, PlayerTurn, Turn
from campaigns.reasons import stored_reason
from campaigns.selectors.board_views import player_names
from campaigns.selectors.order_checks import ELECTION_KINDS, safe_reason
from campaigns.selectors.pages import (
    BoardLink,
    StructureView,
    TurnView,
    boards_of,
    structures_of,
    turn_view,
)
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.turn_orders import TurnOrders
from campaigns.selectors.visibility import (
    DepartmentView,
    Level,
    department_rows,
    department_view,
    level_of,
    viewer_knowledge,
)
from campaigns.words import game, labels
from campaigns.words.classic import classic_order_text, classic_reason
from campaigns.words.intrigue import players_named


@dataclass(frozen=True)
class OrderLine:
    """One of the viewer's own orders, in words. `pk` is only for the edit/cancel URLs."""

    pk: int
    kind_label: str
    board_name: str
    text: str
    status_label: str
    reason: str = ""
    classic: bool = False  # a classic board's order (R90): classic/web/orders.py edits it


@dataclass(frozen=True)
class AttackLine:
    """R46: a queued attempt on one of the viewer's departments: `board` (its slug) and
    `target` (as the attempt names it) say where a reinforcement would go."""

    pk: int
    text: str
    board: str
    target: str


@dataclass(frozen=True)
class OrdersPage:
    turn: TurnView
    queued: list[OrderLine]
    done: list[OrderLine]
    attacks: list[AttackLine]
    boards: list[BoardLink]
    structures: list[StructureView]
    notices: list[Notice]
    ready: bool
    offers: list[Offer]  # R62: hand-overs offered to the viewer, not accepted yet


class CampaignNames:
    """R50 for the orders page: each department the page names, named as far as the viewer
    knows it. Two queries, for the departments in `wanted` ((board id, slug) pairs) only:
    a campaign of 1,000 departments costs what one of 20 does."""

    def __init__(self, viewer: Membership, wanted: set[tuple[int, str]]) -> None:
        self.viewer = viewer
        slugs = {slug for _, slug in wanted}
        # A department of another board, named "<board>/<slug>" by a cross-board order (R60).
        far: dict[str, tuple[str, str]] = {
            name: (name.split(SEP, 1)[0], name.split(SEP, 1)[1]) for name in slugs if SEP in name
        }
        near = Q(slug__in=slugs - far.keys())
        for board, slug in far.values():
            near |= Q(board__slug=board, slug=slug)
        found = department_rows(near, board__campaign=viewer.campaign).select_related("board")
        qualified = {(d.board.slug, d.slug): d for d in found}
        self.rows = [d for d in found if (d.board_id, d.slug) in wanted]
        self.by_key = {(d.board_id, d.slug): d for d in self.rows}
        for board_id, name in wanted:
            if name in far and (dept := qualified.get(far[name])) is not None:
                self.by_key[(board_id, name)] = dept
        self.knowledge = viewer_knowledge(viewer, pk__in=[d.pk for d in self.by_key.values()])
        # R62: a hand-over's receiver and an accept's giver, by name (members see members).
        self.players: dict[str, str] = {}
        # R90: classic board id -> its groups' names (not the deck's: R99), for its orders.
        self.groups: dict[int, dict[str, str]] = {}

    def with_players(self, orders: list[Order]) -> CampaignNames:
        """Load the players' names if an order names a player (one query, only then), and
        the groups of the classic boards the orders are on (one query, only then)."""
        classic = {o.board_id: o.board for o in orders if o.board.is_classic}
        if classic or any(o.kind in (Order.Kind.HANDOVER, Order.Kind.ACCEPT) for o in orders):
            self.players = player_names(self.viewer.campaign)
        if classic:
            self.groups = {
                pk: {str(g["slug"]): str(g.get("name", g["slug"])) for g in state["groups"]
                     if g.get("place") != "deck"}
                for pk, state in stored_classic_states(classic.values()).items()
            }  # fmt: skip
        return self

    def level(self, board_id: int, slug: object) -> Level:
        dept = self.by_key.get((board_id, str(slug)))
        return Level.UNKNOWN if dept is None else level_of(dept, self.viewer, self.knowledge)

    def namer(self, board_id: int, *, at_least: Level = Level.KNOWN) -> labels.Namer:
        def name(slug: object) -> str:
            dept = self.by_key.get((board_id, str(slug)))
            if dept is None or self.level(board_id, slug) < at_least:
                return UNNAMED
            return dept.name if dept.board_id == board_id else f"{dept.name} ({dept.board.name})"

        return name

    def on_board(self, board_id: int) -> list[Department]:
        return [d for d in self.rows if d.board_id == board_id]


def named_by(order: Order) -> set[tuple[int, str]]:
    """(board id, slug) of every department an order's payload or its reason may name (an
    election order's candidate, running mate and ticket too, engine/joined.py)."""
    if order.board.is_classic:
        return set()  # groups, not departments: named by classic_line
    payload = order.payload if isinstance(order.payload, dict) else {}
    slugs = named_departments([payload]) | set(departments_named({**payload, "kind": order.kind}))
    reason = stored_reason(order.result) if isinstance(order.result, dict) else None
    if reason:
        slugs |= set(game.WORDS.findall(reason))
    return {(order.board_id, slug) for slug in slugs}


def named_at(order: Order) -> Level:
    """R50: the level at which the orders page names a department an order names: a
    perception check and an accept name departments the player may know only as
    `rumoured` (R70, R62), whose name that level shows, and so may a link to a department
    an accept brings into the structure this turn, and a ticket of the election (R80: the
    election forms offer rumoured departments); other kinds name departments whose card
    the player knows."""
    # A break_link names a link of the player's, whose other end R50 names to them.
    rumoured = order.kind in (
        Order.Kind.PERCEIVE, Order.Kind.ACCEPT, Order.Kind.ADD_LINK, Order.Kind.BREAK_LINK
    )  # fmt: skip
    return Level.RUMOURED if rumoured or order.kind in ELECTION_KINDS else Level.KNOWN


def order_line(order: Order, names: CampaignNames, reason: str = "") -> OrderLine:
    if order.board.is_classic:
        return classic_line(order, names)
    return OrderLine(
        pk=order.pk,
        kind_label=order.get_kind_display(),
        board_name=order.board.name,
        text=game.order_text(
            order.kind,
            order.payload,
            names.namer(order.board_id, at_least=named_at(order)),
            names.players,
        ),
        status_label=order.get_status_display(),
        reason=reason,
    )


def classic_line(order: Order, names: CampaignNames) -> OrderLine:
    """A classic board's order (R94-R97) in words, its groups and players by name."""
    groups = names.groups.get(order.board_id, {})
    payload = order.payload if isinstance(order.payload, dict) else {}
    reason = order.result.get("reason") if isinstance(order.result, dict) else None
    return OrderLine(
        pk=order.pk,
        kind_label=order.get_kind_display(),
        board_name=order.board.name,
        text=classic_order_text(
            order.kind,
            payload,
            lambda s: groups.get(str(s), "?"),
            lambda p: names.players.get(str(p), "?"),
        ),  # fmt: skip
        status_label=order.get_status_display(),
        reason=classic_reason(str(reason), {**groups, **names.players}) if reason else "",
        classic=True,
    )


def resolved_reason(order: Order, names: CampaignNames) -> str:
    """A resolved order's reason, filtered by R50 like a submission's."""
    reason = stored_reason(order.result) if isinstance(order.result, dict) else None
    if not reason:
        return ""
    reason = players_named(reason, names.players)
    loaded = (names.on_board(order.board_id), names.knowledge)
    return safe_reason(str(reason), board=order.board, player=names.viewer, loaded=loaded)


def attack_lines(attempts: list[Order], names: CampaignNames) -> list[AttackLine]:
    """R46: which of the viewer's departments is targeted and by which department; its
    controller only where the viewer knows the attacker's card (R50)."""
    lines = []
    for attempt in attempts:
        board_id, payload = attempt.board_id, attempt.payload
        attacker = names.namer(board_id, at_least=Level.UNKNOWN)(payload.get("attacker"))
        known = names.level(board_id, payload.get("attacker")) >= Level.KNOWN
        controller = attempt.player.display_name if known else None
        target = names.namer(board_id)(payload.get("target"))
        text = game.attack_text(attacker, target, controller)
        lines.append(AttackLine(attempt.pk, text, attempt.board.slug, str(payload.get("target"))))
    return lines


def attempts_against(
    viewer: Membership, turn: Turn, mine: set[tuple[str, str]] | None = None
) -> list[Order]:
    """R46: the queued attempts of `turn` against the viewer's departments; `mine`, their
    (board slug, slug), if the caller has read them (one query fewer)."""
    if mine is None:
        owned = Department.objects.filter(structure__player=viewer)
        mine = set(owned.values_list("board__slug", "slug"))
    attempts = Order.objects.filter(turn=turn, kind=Order.Kind.ATTEMPT, status=Order.Status.QUEUED)
    return [
        a
        for a in attempts.exclude(player=viewer).select_related("player__user", "board")
        if target_of(a) in mine
    ]


def target_of(attempt: Order) -> tuple[str, str]:
    """(board slug, slug) of an attempt's target: on its own board, or "<board>/<slug>" on
    another (a cross_board shtick, R60)."""
    target = str(attempt.payload.get("target"))
    if SEP in target:
        board, slug = target.split(SEP, 1)
        return board, slug
    return attempt.board.slug, target


def orders_page(
    viewer: Membership,
    turn: Turn,
    boards: list[BoardLink] | None = None,
    read: TurnOrders | None = None,
) -> OrdersPage:
    """The player's week (R40-R47), in a fixed number of queries (one fewer with `boards`,
    the campaign's, and two fewer with the turn's orders, `read`, if the caller has read
    them)."""
    if read is None:
        mine = Order.objects.filter(player=viewer, turn=turn).select_related("board")
        orders = list(mine.order_by("seq", "pk"))
    else:
        orders = read.mine
    queued = [o for o in orders if o.status == Order.Status.QUEUED]
    done = [o for o in orders if o.status != Order.Status.QUEUED]
    boards = boards_of(viewer.campaign) if boards is None else boards
    structures = structures_of(viewer, boards)
    owned = {(s.board.slug, d.slug) for s in structures for d in s.departments if d.slug}
    if read is None:
        attempts = attempts_against(viewer, turn, owned)
    else:
        attempts = [a for a in read.attempts if target_of(a) in owned]
    wanted = set().union(*(named_by(o) for o in [*queued, *done, *attempts]))
    names = CampaignNames(viewer, wanted).with_players([*queued, *done])
    return OrdersPage(
        turn=turn_view(turn),
        queued=[order_line(o, names) for o in queued],
        done=[
            order_line(o, names, "" if o.board.is_classic else resolved_reason(o, names))
            for o in done
        ],
        attacks=attack_lines(attempts, names),
        boards=boards,
        structures=structures,
        # A turn read with pages.viewer_flags says whether there is any of these to read.
        notices=notices_unread(viewer) if getattr(turn, "unread_notices", True) else [],
        ready=turn.ready if hasattr(turn, "ready") else is_ready(viewer, turn),
        offers=offers_to(viewer, turn) if getattr(turn, "handovers", True) else [],
    )


def own_order(player: Membership, pk: int) -> Order | None:
    """The player's own order, or None: another player's orders do not exist for them."""
    return Order.objects.select_related("board", "turn").filter(pk=pk, player=player).first()


def answered_attempt(reinforcement: Order) -> Order | None:
    """R46: the attempt a queued reinforcement answers (its `answers` is the attempt's
    engine id), on the same turn and board; None if it is gone or the id is junk."""
    answers = str(reinforcement.payload.get("answers", ""))
    if not answers.isdigit():
        return None
    return Order.objects.filter(
        pk=int(answers), turn_id=reinforcement.turn_id, board_id=reinforcement.board_id,
        kind=Order.Kind.ATTEMPT,
    ).first()  # fmt: skip


def own_department(player: Membership, board_id: int, slug: str) -> Department | None:
    """One of the player's own departments (the row, for the defence service), or None for
    any other department (the defence page answers 404 for it)."""
    return department_rows(board_id=board_id, slug=slug, structure__player=player).first()


def defence_view(dept: Department) -> DepartmentView:
    """R47/R50: the player's own department at full detail, its standing defence included."""
    view = department_view(dept, Level.CONTROLLED, mine=True)
    assert view is not None and view.private is not None  # controlled: everything
    return view


def is_ready(player: Membership, turn: Turn) -> bool:
    """Has the player marked their orders of `turn` ready (early processing, R31)?"""
    return PlayerTurn.objects.filter(turn=turn, player=player, ready_at__isnull=False).exists()


def notices_unread(player: Membership) -> list[Notice]:
    """The player's unread notices of the open turn: a notice belongs to its turn and,
    once the turn is processed, is read in that turn's report."""
    unread = Notice.objects.filter(player=player, read_at__isnull=True)
    return list(unread.filter(turn__status=Turn.Status.OPEN)[:20])


def notice_turn(player: Membership, url: str) -> Turn | None:
    """The turn of the player's latest notice that linked to `url` (an attack to reinforce,
    say); None if no notice of theirs did. A link of a notice outlives its target: read in an
    old report or mail, it is answered from here."""
    notice = Notice.objects.filter(player=player, url=url).select_related("turn").first()
    return notice.turn if notice is not None else None
