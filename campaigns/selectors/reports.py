"""Turn reports (RULES R23, R31, R40-R47), built per viewer under R50.

A report is assembled from what the turn job recorded: the `TurnRecord` of each board (the
engine's resolve and spawn-consume report, and the state after the turn), the previous
turn's record (the state before it) and the `Order` rows; where an attempt rolled, also the
record's `before` (the board the turn job read), on which `report_defence` reads each defend
roll back into the standing defence it spent. What each viewer may see of each
department is decided by `visibility.level_of`, the one place R50 lives;
`report_visibility.Knowing` only adds the history: a department the viewer controlled before
or after this turn counts as controlled *for this report*, and one they control now but did
not then is capped at `known` (its stash back then belonged to someone else).

Like the selectors, the builders return dataclasses (`report_view_models`) that hold only
what the viewer may see, so a hidden field cannot reach a template or a mail by accident.
This module assembles them; `report_orders` words the orders and rolls, and
`report_board_changes` says what changed on the board.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.fields.json import KeyTransform

from campaigns.classic.selectors.report import ClassicBoardReport, classic_board_report
from campaigns.elections.selectors.report_election import election_result
from campaigns.engine.dice import commitment as seed_commitment
from campaigns.engine.errors import EngineError
from campaigns.history.selectors.history_records import (
    AFTER,
    BEFORE,
    RESOLVED,
    TOLD,
    Recorded,
    board_part,
)
from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    Department,
    Knowledge,
    Membership,
    Order,
    Turn,
    TurnRecord,
)
from campaigns.reasons import STORED, stored_reason
from campaigns.selectors.board_views import player_names
from campaigns.selectors.order_checks import safe_reason
from campaigns.selectors.report_account import board_account, link_events
from campaigns.selectors.report_board_changes import (
    gifts_received,
    handed_over,
    link_changes,
    link_pairs,
    links_made,
    spawn_results,
    spawn_slugs,
    structure_changes,
    structures,
    succeeded,
)
from campaigns.selectors.report_defence import Defence, defences
from campaigns.selectors.report_orders import attack_view, order_view
from campaigns.selectors.report_view_models import BoardReport, BoardTab, OrderView, TurnReport
from campaigns.selectors.report_visibility import Knowing
from campaigns.selectors.state import own_board
from campaigns.selectors.visibility import (
    is_gm,
    sees_everything,
)
from campaigns.words import game
from campaigns.words.intrigue import players_named

# --- Reading -----------------------------------------------------------------------------------


def processed_turn(campaign: Campaign, number: int) -> Turn | None:
    """Turn `number` of `campaign` if it has been processed; None otherwise (no report, no
    published seed before then, R23)."""
    # keeps turn.campaign: no query; with whether its neighbours were processed (`previous`,
    # `following`: pages.neighbour_reports without a query of its own), read in the same
    # query as plain rows (as EXISTS subqueries the query cost three times as much to build).
    turns = {
        t.number: t for t in campaign.turns.filter(number__in=[number - 1, number, number + 1])
    }
    turn = turns.get(number)
    if turn is None or turn.status != Turn.Status.PROCESSED:
        return None
    done = {n for n, t in turns.items() if t.status == Turn.Status.PROCESSED}
    turn.previous = number - 1 in done  # type: ignore[attr-defined]
    turn.following = number + 1 in done  # type: ignore[attr-defined]
    return turn


def commitment_matches(turn: Turn) -> bool:
    try:
        return seed_commitment(turn.seed) == turn.commitment
    except EngineError:
        return False


# A report over more departments than this shows one board a page, and each board's orders
# and spawn-and-consume REPORT_PAGE_SIZE at a time (5 boards of 1,000 departments made a
# page of 3.5 MB that took seconds); a smaller one shows everything on one page.
REPORT_BIG = 300
REPORT_PAGE_SIZE = 100
# What a report reads of an order (not its times, nor its player's account).
ORDER_FIELDS = (
    "turn", "board", "player", "kind", "payload", "seq", "status", "result", "gm_note",
    "gm_note_published",
)  # fmt: skip


def report_boards(turn: Turn) -> list[BoardTab]:
    """The boards turn `turn` has a record of, by name, with their sizes now (what decides
    whether the report is paged). One query; the records' states are not read."""
    rows = (
        TurnRecord.objects.filter(turn=turn)
        .order_by("board__name")
        .values_list("board__slug", "board__name")
        .annotate(size=Count("board__departments"))
    )
    return [BoardTab(slug=slug, name=name, size=size) for slug, name, size in rows]


@dataclass(frozen=True)
class Reading:
    """What one viewer's report of one turn reads once for all its boards."""

    turn: Turn
    viewer: Membership
    full: bool  # the GM; every member once the GM opens it (R51)
    knowledge: dict[int, int]
    players: dict[str, str]


@dataclass(frozen=True)
class ReportRecords:
    """What a report reads of the records of its turn and of the turn before, read once
    for the report and its maps."""

    records: list[TurnRecord]  # the turn's, by board name; not `before`, but its parts
    previous: dict[int, dict[str, Any]]  # board id -> the board after the turn before
    drawn: list[Recorded]  # the turn's as history_records reads them: for the maps


# The turn before's board: its departments and links only (board_part), cut out by the
# database, not its orders, settings and catalogue.
PREVIOUS = {key: part for key, part in AFTER.items() if key.startswith("state_")}


def report_records(turn: Turn, *, board: str | None = None) -> ReportRecords:
    """The records of turn `turn` (every board, or board `board` only) and the parts of
    the turn before's that the report compares with. Two queries: as subqueries of the
    first, the parts cost four times a query of their own to build."""
    where = {"board__slug": board} if board is not None else {}
    # Not what the report does not read: the board before the orders (but its departments
    # and links, for the maps), nor the levels before but for the maps.
    records = list(
        TurnRecord.objects.filter(turn=turn, **where)
        .select_related("board")
        .defer("before")
        .annotate(**BEFORE)
        .order_by("board__name")
    )
    rows = TurnRecord.objects.filter(
        turn__campaign_id=turn.campaign_id, turn__number=turn.number - 1, **where
    ).values("board_id", **PREVIOUS)
    earlier = {row["board_id"]: board_part(row, "state") for row in rows}
    # A board with no record the turn before (the start) is compared with an empty one.
    empty = board_part({}, "state")
    return ReportRecords(
        records=records,
        previous={r.board_id: earlier.get(r.board_id, empty) for r in records},
        drawn=[as_recorded(r, turn.number) for r in records],
    )


def as_recorded(record: TurnRecord, number: int) -> Recorded:
    """A record read whole (with its `before` parts annotated, BEFORE) as
    history_records.recorded reads it, with the parts cut out here instead."""
    state = {f"state_{key}": record.state.get(key) for key in ("departments", "links", "offices")}
    return Recorded(
        board_id=record.board_id,
        board_slug=record.board.slug,
        number=number,
        state=board_part(state, "state"),
        before=board_part({key: getattr(record, key) for key in BEFORE}, "before"),
        report={"departments": record.report.get("departments") or {}},
        knowledge=record.knowledge or {},
        knowledge_before=record.knowledge_before or {},
    )


def turn_report(
    turn: Turn,
    viewer: Membership,
    *,
    board: str | None = None,
    page: object = None,
    read: ReportRecords | None = None,
) -> TurnReport:
    """The report of processed turn `turn` as `viewer` may see it: every board, or only
    the board `board` (a slug); with `page` (anything: a bad one gives the first or the
    last), that page of each board's orders and departments (REPORT_PAGE_SIZE). `read`:
    report_records(turn, board=board) if the caller has read them (the maps use them too).
    A fixed number of queries whatever the size of the campaign."""
    campaign = viewer.campaign
    where = {"board__slug": board} if board is not None else {}
    if read is None:
        read = report_records(turn, board=board)
    records, previous = read.records, read.previous
    full = sees_everything(viewer)
    orders = Order.objects.filter(turn=turn, **where).exclude(status=Order.Status.CANCELLED)
    if not full:
        # Own orders, and other players' attempts (filtered per board below: only those on
        # the viewer's departments are kept) and added links (only for the links shown).
        # Links other players made count for the links shown (both ends known, R50).
        # Gifts count for those to the viewer's departments, hand-overs for why a department
        # changed hands (R62). Moves and reinforcements count, unshown, for what a defend
        # roll spent (report_defence: what may have reached its stash first).
        # On a classic board every player's attacks are public (R99: every group and its
        # place is seen by all; classic/selectors/report.py shows what of them), and gifts
        # of megabucks or of a group count for those to the viewer (R97).
        # One Q, not two querysets joined with `|` (a third cheaper to build, same SQL).
        others = Q(
            kind__in=[Order.Kind.ATTEMPT, Order.Kind.ADD_LINK, Order.Kind.GIFT,
                      Order.Kind.HANDOVER, Order.Kind.MOVE, Order.Kind.REINFORCE,
                      Order.Kind.CLASSIC_ATTACK, Order.Kind.CLASSIC_GIFT,
                      Order.Kind.CLASSIC_GIVE]
        )  # fmt: skip
        orders = orders.filter(Q(player=viewer) | others)
    order_rows = list(
        orders.select_related("player__user")
        .only(*ORDER_FIELDS, "player__character_name", "player__user__username")
        .order_by("player", "seq", "pk")
    )
    # What the report reads of each department (its name and product, who holds it), not its
    # card's JSON fields: four JSON values per row were most of the time on 1,000 rows; and,
    # but for a viewer who sees everything, their stored level of it (R50), in the same query.
    # Its structure's player id, not the player and their user (visibility.department_rows
    # joins them: every column of both, a third of the report's query time on the demo).
    departments = list(
        Department.objects.filter(board__campaign=campaign, **where)
        .select_related("structure")
        .only("board_id", "slug", "name", "produces_type", "structure__player_id")
        .annotate(**({} if full else {"level": Subquery(
            Knowledge.objects.filter(player=viewer, department=OuterRef("pk")).values("level")
        )}))
    )  # fmt: skip
    knowledge = {} if full else {d.pk: d.level for d in departments if d.level is not None}
    reading = Reading(turn, viewer, full, knowledge, player_names(campaign))
    rolled = before_rolls(records, order_rows)
    boards: list[BoardReport | ClassicBoardReport] = [
        classic_board_report(
            record,
            [o for o in order_rows if o.board_id == record.board_id],
            viewer_id=viewer.player_id,
            full=full,
            players=reading.players,
            number=turn.number,
            campaign=campaign,
        )  # fmt: skip
        if record.board.is_classic
        else board_report(
            reading,
            record,
            previous.get(record.board_id, {}),
            [d for d in departments if d.board_id == record.board_id],
            [o for o in order_rows if o.board_id == record.board_id],
            page,
            rolled.get(record.pk, {}),
        )
        for record in records
    ]
    return TurnReport(
        campaign=campaign,
        number=turn.number,
        full_view=full,
        processed_at=turn.processed_at,
        seed=turn.seed,
        commitment=turn.commitment,
        commitment_ok=commitment_matches(turn),
        boards=boards,
        # `turn_id` too: the related manager sets each notice's turn from it, and a deferred
        # one was read back in a query per notice.
        notices=list(
            turn.notices.filter(player=viewer).only("turn_id", "code", "params", "text", "url")
        ),
        sealed=sealed_opened(turn, viewer),
        told=told_of(order_rows, turn.number),
    )


def told_of(orders: list[Order], number: int) -> dict[tuple[int, int], list[Order]]:
    """What history_records.resolved_orders reads for turn `number`, taken from the report's
    orders (which hold every order it would: the viewer's own, and the other players'
    attempts, added links and hand-overs), in each player's sequence."""
    grouped: defaultdict[tuple[int, int], list[Order]] = defaultdict(list)
    for order in sorted(orders, key=lambda o: (o.seq, o.pk)):
        if order.status in RESOLVED and order.kind in TOLD:
            order.number = number  # type: ignore[attr-defined]
            grouped[(order.board_id, number)].append(order)
    return grouped


# What a defend roll is read back on (report_defence): the board before the turn, as the turn
# job read it, and what beside it decides the roll's shticks.
BEFORE_ROLLS = {
    key: KeyTransform(key, "before") for key in ("departments", "players", "offices", "alignments")
}


def before_rolls(records: list[TurnRecord], orders: list[Order]) -> dict[int, dict[str, Any]]:
    """Record id -> what report_defence reads of its `before`, for the records with an
    attempt that rolled among `orders` (and only then: on a board of 1,000 departments it is
    the biggest thing a report would read). One query, or none."""
    wanted = [
        record.pk
        for record in records
        if any(
            len(((record.report.get("orders") or {}).get(o.engine_id) or {}).get("rolls") or [])
            == 2
            for o in orders
            if o.kind == Order.Kind.ATTEMPT and o.board_id == record.board_id
        )
    ]
    if not wanted:
        return {}
    rows = TurnRecord.objects.filter(pk__in=wanted).values("pk", **BEFORE_ROLLS)
    return {row.pop("pk"): row for row in rows}


def sealed_opened(turn: Turn, viewer: Membership) -> list[tuple[str, str]]:
    """R72: the contingency envelopes `turn` opened, delivered in their player's report:
    the viewer's own; every player's for whoever sees everything (R51). One query; none
    for a viewer read with `opened_envelopes` False (pages.membership_for_slug)."""
    rows = ContingencyEnvelope.objects.filter(opened_turn=turn)
    if not sees_everything(viewer):
        if not getattr(viewer, "opened_envelopes", True):
            return []
        rows = rows.filter(member=viewer)
    return [
        (c.member.display_name, c.text) for c in rows.select_related("member__user").order_by("pk")
    ]


def board_report(
    reading: Reading,
    record: TurnRecord,
    before_state: dict[str, Any],
    rows: list[Department],
    orders: list[Order],
    page: object,
    before_roll: dict[str, Any],
) -> BoardReport:
    """One board's section; with `page`, only that page of its orders and departments (the
    views of the others are not built). `before_roll`: what report_defence reads of the
    board before the turn, empty where no attempt rolled."""
    viewer, full, me = reading.viewer, reading.full, reading.viewer.player_id
    after_state = own_board(record.state)  # without other boards' stubs (engine/joined.py)
    before, after = structures(before_state), structures(after_state)
    mine_before = {slug for slug, owner in before.items() if owner == me}
    mine_after = {slug for slug, owner in after.items() if owner == me}
    outcomes = record.report.get("orders", {})
    figures = record.report.get("departments", {})
    made = links_made(orders, outcomes)
    knowing = Knowing(
        viewer, rows, record.knowledge, mine_before | mine_after,
        own_links(mine_before, mine_after, link_pairs(before_state), link_pairs(after_state), made),
    )  # fmt: skip

    def attack_on_mine(order: Order) -> bool:
        return order.kind == Order.Kind.ATTEMPT and order.payload.get("target") in mine_before

    shown = [o for o in orders if full or o.player_id == viewer.pk or attack_on_mine(o)]
    slugs = spawn_slugs(figures, knowing, mine_after, full)
    pages = None
    if page is not None:
        pages = Paginator(range(max(len(shown), len(slugs), 1)), REPORT_PAGE_SIZE).get_page(page)
        window = slice(pages.start_index() - 1, pages.end_index())
        shown, slugs = shown[window], slugs[window]
    defended = defences(before_roll, orders, record.report, after) if before_roll else {}
    own: list[OrderView] = []
    attacks: list[OrderView] = []
    for order in shown:
        outcome = outcome_for(reading, record, knowing, rows, order, outcomes)
        defence: Defence | None = defended.get(order.engine_id)
        if full or order.player_id == viewer.pk:
            # The GM's unpublished notes on rolls stay the GM's, opened campaign or not.
            own.append(order_view(reading.turn, order, outcome, knowing, full=is_gm(viewer),
                                  players=reading.players, defence=defence))  # fmt: skip
        else:
            # R46: the defender was told at once which department was targeted and by whom,
            # and their own department rolled the defence, so they see the attempt: the
            # attacking department's name, the outcome, their own roll and the attacker's
            # successes (its dice only if they know its card). Not the attacker's cost or
            # spend, nor their player.
            attacks.append(attack_view(reading.turn, order, outcome, knowing, defence))
    handed = handed_over(orders, outcomes)
    report = BoardReport(
        name=record.board.name,
        slug=record.board.slug,
        orders=own,
        attacks=attacks,
        changes=(
            structure_changes(before, after, knowing, reading.players, handed)
            if before_state
            else []
        ),
        handovers=(
            structure_changes(before, after, knowing, reading.players, handed, only_handovers=True)
            if before_state
            else []
        ),
        links_added=link_changes(after_state, before_state, knowing, added=True, made=made),
        links_removed=link_changes(after_state, before_state, knowing, added=False, made=made),
        departments=spawn_results(figures, knowing, slugs),
        pages=pages,
        election=election_result(record, reading.turn, knowing),
        received=[] if full else gifts_received(orders, outcomes, knowing, mine_before),
    )
    captured = {
        str(o.payload.get("target")) for o in succeeded(orders, outcomes, Order.Kind.ATTEMPT)
    }
    links = link_events(
        after_state, before_state, knowing, made, handed=set(handed), captured=captured
    )
    # Written from the view-model alone, so it shows nothing the rest of the report hides.
    report = replace(report, link_events=links)
    return replace(report, account=board_account(report))


def own_links(
    mine_before: set[str],
    mine_after: set[str],
    before: set[tuple[str, str]],
    after: set[tuple[str, str]],
    made: set[tuple[str, str]],
) -> set[tuple[str, str]]:
    """R50, R51: the links of the turn that were the viewer's own while they were there: on
    the board before the turn with an end theirs then, after it with an end theirs then, or
    made by the turn with an end theirs on either side. A link of a department they captured,
    which the capture removed (R44), was never theirs: it stays as hidden as it was."""
    either = mine_before | mine_after
    return (
        {link for link in before if set(link) & mine_before}
        | {link for link in after if set(link) & mine_after}
        | {link for link in made if set(link) & either}
    )


def outcome_for(
    reading: Reading,
    record: TurnRecord,
    knowing: Knowing,
    rows: list[Department],
    order: Order,
    outcomes: dict[str, Any],
) -> dict[str, Any]:
    """The order's outcome as the viewer may read it. R50: the engine's reasons name slugs
    and may state hidden facts (another department's links, an attacker's stash); players
    get them filtered exactly as at submission. The GM may see everything, but by name, not
    slug."""
    stored = order.result if isinstance(order.result, dict) else {}
    outcome = outcomes.get(order.engine_id) or stored
    if not outcome.get("reason"):
        return outcome
    # The order's row holds the reason's code beside the record's text (reasons.STORED).
    same = stored.get("reason") == outcome["reason"]
    reason = players_named(stored_reason(stored if same else outcome), reading.players)
    if reading.full:
        reason = game.with_names(reason, knowing.names)
    else:
        reason = safe_reason(
            reason, board=record.board, player=reading.viewer,
            loaded=(rows, reading.knowledge), levels=knowing.levels,
        )  # fmt: skip
    # The code's parameters name slugs (R50): only the filtered text goes on.
    return {**{k: v for k, v in outcome.items() if k != STORED}, "reason": reason}


def report_page_of(order: Order) -> int:
    """The page of its board's section of a paged report on which the GM finds `order`
    (the GM's report lists every order of the board but the cancelled ones, by player, then
    sequence). One query."""
    same = Q(player_id=order.player_id)
    earlier = (
        Order.objects.filter(turn_id=order.turn_id, board_id=order.board_id)
        .exclude(status=Order.Status.CANCELLED)
        .filter(
            Q(player_id__lt=order.player_id)
            | same & Q(seq__lt=order.seq)
            | same & Q(seq=order.seq, pk__lt=order.pk)
        )
    )
    return earlier.count() // REPORT_PAGE_SIZE + 1


def function_order(turn: Turn, order_id: int) -> Order | None:
    """R45: a function roll of `turn` the GM may write a note on, or None."""
    order = Order.objects.filter(turn=turn, pk=order_id, kind=Order.Kind.FUNCTION).first()
    if order is None or order.status == Order.Status.CANCELLED:
        return None
    return order
