"""Turn reports (RULES R23, R31, R40-R47), built per viewer under R50.

A report is assembled from what the turn job recorded: the `TurnRecord` of each board (the
engine's resolve and spawn-consume report, and the state after the turn), the previous
turn's record (the state before it) and the `Order` rows. What each viewer may see of each
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

from typing import Any

from campaigns import wording
from campaigns.engine.dice import commitment as seed_commitment
from campaigns.engine.errors import EngineError
from campaigns.intrigue_words import players_named
from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    Department,
    Membership,
    Order,
    Turn,
    TurnRecord,
)
from campaigns.selectors.board_views import player_names
from campaigns.selectors.visibility import (
    department_rows,
    is_gm,
    sees_everything,
    viewer_knowledge,
)

from .order_checks import safe_reason
from .report_board_changes import (
    gifts_received,
    handed_over,
    link_changes,
    links_made,
    spawn_results,
    structure_changes,
    structures,
)
from .report_orders import attack_view, order_view
from .report_view_models import BoardReport, OrderView, TurnReport
from .report_visibility import Knowing
from .state import own_board

# --- Reading -----------------------------------------------------------------------------------


def processed_turn(campaign: Campaign, number: int) -> Turn | None:
    """Turn `number` of `campaign` if it has been processed; None otherwise (no report, no
    published seed before then, R23)."""
    turn = campaign.turns.filter(number=number).first()  # keeps turn.campaign: no query
    if turn is None or turn.status != Turn.Status.PROCESSED:
        return None
    return turn


def commitment_matches(turn: Turn) -> bool:
    try:
        return seed_commitment(turn.seed) == turn.commitment
    except EngineError:
        return False


def turn_report(turn: Turn, viewer: Membership) -> TurnReport:
    """The report of processed turn `turn` as `viewer` may see it."""
    campaign = viewer.campaign
    records = list(
        TurnRecord.objects.filter(turn=turn).select_related("board").order_by("board__name")
    )
    previous = {
        r.board_id: own_board(r.state)
        for r in TurnRecord.objects.filter(turn__campaign=campaign, turn__number=turn.number - 1)
    }
    full = sees_everything(viewer)  # the GM; every member once the GM opens it (R51)
    orders = Order.objects.filter(turn=turn).exclude(status=Order.Status.CANCELLED)
    if not full:
        # Own orders, and other players' attempts (filtered per board below: only those on
        # the viewer's departments are kept) and added links (only for the links shown).
        # Links other players made count for the links shown (both ends known, R50).
        # Gifts count for those to the viewer's departments, hand-overs for why a department
        # changed hands (R62).
        others = orders.filter(
            kind__in=[Order.Kind.ATTEMPT, Order.Kind.ADD_LINK, Order.Kind.GIFT, Order.Kind.HANDOVER]
        )
        orders = orders.filter(player=viewer) | others
    order_rows = list(orders.select_related("player__user").order_by("player", "seq", "pk"))
    knowledge = {} if full else viewer_knowledge(viewer, board__campaign=campaign)
    departments = list(department_rows(board__campaign=campaign))
    players = player_names(campaign)
    boards = []
    for record in records:
        before = previous.get(record.board_id, {})
        boards.append(
            board_report(
                turn,
                viewer,
                record,
                before,
                [d for d in departments if d.board_id == record.board_id],
                knowledge,
                [o for o in order_rows if o.board_id == record.board_id],
                players,
            )
        )
    return TurnReport(
        campaign=campaign,
        number=turn.number,
        full_view=full,
        processed_at=turn.processed_at,
        seed=turn.seed,
        commitment=turn.commitment,
        commitment_ok=commitment_matches(turn),
        boards=boards,
        notices=list(turn.notices.filter(player=viewer).values_list("text", "url")),
        sealed=sealed_opened(turn, viewer),
    )


def sealed_opened(turn: Turn, viewer: Membership) -> list[tuple[str, str]]:
    """R72: the contingency envelopes `turn` opened, delivered in their player's report:
    the viewer's own; every player's for whoever sees everything (R51). One query."""
    rows = ContingencyEnvelope.objects.filter(opened_turn=turn)
    if not sees_everything(viewer):
        rows = rows.filter(member=viewer)
    return [
        (c.member.display_name, c.text) for c in rows.select_related("member__user").order_by("pk")
    ]


def board_report(
    turn: Turn,
    viewer: Membership,
    record: TurnRecord,
    before_state: dict[str, Any],
    rows: list[Department],
    knowledge: dict[int, int],
    orders: list[Order],
    players: dict[str, str],
) -> BoardReport:
    full = sees_everything(viewer)  # the GM; every member once the GM opens it (R51)
    me = viewer.player_id
    after_state = own_board(record.state)
    before, after = structures(before_state), structures(after_state)
    mine_before = {slug for slug, owner in before.items() if owner == me}
    mine_after = {slug for slug, owner in after.items() if owner == me}
    knowing = Knowing(viewer, rows, record.knowledge, mine_before | mine_after)
    report = record.report
    outcomes = report.get("orders", {})

    names = {d.slug: d.name for d in rows}
    made = links_made(orders, outcomes)
    own: list[OrderView] = []
    attacks: list[OrderView] = []
    for order in orders:
        outcome = outcomes.get(order.engine_id) or order.result or {}
        if outcome.get("reason"):
            # R50: the engine's reasons name slugs and may state hidden facts (another
            # department's links, an attacker's stash); players get them filtered exactly as
            # at submission. The GM may see everything, but by name, not slug.
            reason = players_named(str(outcome["reason"]), players)
            if full:
                reason = wording.with_names(reason, names)
            else:
                reason = safe_reason(
                    reason, board=record.board, player=viewer, loaded=(rows, knowledge),
                    levels=knowing.levels,
                )  # fmt: skip
            outcome = {**outcome, "reason": reason}
        if full or order.player_id == viewer.pk:
            # The GM's unpublished notes on rolls stay the GM's, opened campaign or not.
            own.append(order_view(turn, order, outcome, knowing, full=is_gm(viewer),
                                  players=players))  # fmt: skip
        elif order.kind == Order.Kind.ATTEMPT and order.payload.get("target") in mine_before:
            # R46: the defender was told at once which department was targeted and by whom,
            # and their own department rolled the defence, so they see the attempt: the
            # attacking department's name, the outcome, their own roll and the attacker's
            # successes (its dice only if they know its card). Not the attacker's cost or
            # spend, nor their player.
            attacks.append(attack_view(turn, order, outcome, knowing))

    return BoardReport(
        name=record.board.name,
        slug=record.board.slug,
        orders=own,
        attacks=attacks,
        changes=(
            structure_changes(before, after, knowing, players, handed_over(orders, outcomes))
            if before_state
            else []
        ),
        links_added=link_changes(after_state, before_state, knowing, added=True, made=made),
        links_removed=link_changes(after_state, before_state, knowing, added=False, made=made),
        departments=spawn_results(report.get("departments", {}), knowing, mine_after, full),
        received=[] if full else gifts_received(orders, outcomes, knowing, mine_before),
    )


def function_order(turn: Turn, order_id: int) -> Order | None:
    """R45: a function roll of `turn` the GM may write a note on, or None."""
    order = Order.objects.filter(turn=turn, pk=order_id, kind=Order.Kind.FUNCTION).first()
    if order is None or order.status == Order.Status.CANCELLED:
        return None
    return order
