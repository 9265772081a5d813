"""Players' weekly orders (RULES R40-R47): submit, edit, reorder, cancel, mark ready, the
standing defence.

Every order is checked at submission through the engine (selectors.order_checks, R40), and
refusals reach the player filtered by R50.

Writes hold the campaign row lock and then the turn row lock (the turn job takes the campaign
lock first too), so a submission racing the turn job either lands before it or is refused.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns.accounts.selectors.profile import language_of
from campaigns.classic.selectors.orders import CLASSIC_KINDS, classic_order_check
from campaigns.intrigue.selectors.handover_offers import handover_check_single
from campaigns.intrigue.services.deal_notices import handover_notify
from campaigns.models import (
    Board,
    Campaign,
    Department,
    Membership,
    Notice,
    Order,
    OrderLog,
    PlayerTurn,
    Turn,
)
from campaigns.selectors.order_checks import (
    OrderRefused,
    attempt_check_cutoff,
    departments_by_name,
    order_check,
    queued_orders,
    rejected_ids,
    rejected_reason,
    safe_reason,
    turn_check_open,
)
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.reinforcement import reinforcement
from campaigns.selectors.visibility import Level, level_of, viewer_knowledge
from campaigns.services.knowledge import knowledge_raise
from campaigns.services.notifications import (
    ATTACK_NOTICES,
    absolute_url,
    mail_member,
    notice_mailed,
)
from campaigns.words import game, labels
from campaigns.words.notices import ATTACK, ATTACK_WITHDRAWN, notice_fields

Kind = Order.Kind
Action = OrderLog.Action


def locked_turn(turn: Turn) -> Turn:
    """Call inside a transaction: the campaign row lock (as the turn job takes it), then the
    turn row, re-read."""
    Campaign.objects.select_for_update().get(pk=turn.campaign_id)
    return Turn.objects.select_for_update().select_related("campaign").get(pk=turn.pk)


def locked_open_turn(turn: Turn, now: dt.datetime) -> Turn:
    """Call inside a transaction: `locked_turn`, refused unless it takes orders (R31/R40)."""
    turn = locked_turn(turn)
    turn_check_open(turn, now)
    return turn


# Free text in an order (a function roll's intent or task) and the whole payload are capped:
# a 2.6 MB intent was once stored, copied into OrderLog on every edit and shown on every page.
MAX_INTENT_CHARS = 1000
MAX_PAYLOAD_CHARS = 4000


def payload_check(payload: dict[str, Any]) -> None:
    """Refuse an order whose free text or whole payload is beyond the caps."""
    for field in ("intent", "function"):
        text = payload.get(field)
        if isinstance(text, str) and len(text) > MAX_INTENT_CHARS:
            message = (
                _(
                    "The intent is %(n)s characters long; at most %(limit)s are allowed. "
                    "Nothing was stored."
                )
                if field == "intent"
                else _(
                    "The task is %(n)s characters long; at most %(limit)s are allowed. "
                    "Nothing was stored."
                )
            )
            raise OrderRefused(
                message % {"n": labels.number(len(text)), "limit": labels.number(MAX_INTENT_CHARS)}
            )
    if len(json.dumps(payload, default=str)) > MAX_PAYLOAD_CHARS:
        raise OrderRefused(
            _("The order is too large (more than %(limit)s characters). Nothing was stored.")
            % {"limit": labels.number(MAX_PAYLOAD_CHARS)}
        )


def require_player(player: Membership) -> None:
    if player.role != Membership.Role.PLAYER:
        raise OrderRefused(_("Only players queue orders."))


def order_changed(order: Order, action: str) -> None:
    """Every change to a player's orders is logged (append-only) and clears their "ready":
    orders that changed after "ready" are not the orders they declared complete."""
    OrderLog.objects.create(
        turn=order.turn, player=order.player, order=order, action=action,
        kind=order.kind, payload=order.payload, seq=order.seq,
    )  # fmt: skip
    PlayerTurn.objects.filter(turn=order.turn, player=order.player, ready_at__isnull=False).update(
        ready_at=None
    )


def orders_submit(
    *,
    player: Membership,
    turn: Turn,
    board: Board,
    kind: str,
    payload: dict[str, Any],
    client_token: str = "",
    now: dt.datetime | None = None,
) -> Order:
    """Queue one order after the engine has checked it (R40); a form posted twice (same
    `client_token`) returns the order the first post stored."""
    now = now or timezone.now()
    require_player(player)
    payload_check(payload)
    if board.campaign_id != turn.campaign_id or player.campaign_id != turn.campaign_id:
        raise OrderRefused(_("That board is not in this campaign."))
    with transaction.atomic():
        turn = locked_turn(turn)
        if client_token:
            existing = Order.objects.filter(player=player, client_token=client_token).first()
            if existing is not None:
                return existing
        turn_check_open(turn, now)
        if kind == Kind.ATTEMPT:
            attempt_check_cutoff(turn.campaign, turn, now)
        last = Order.objects.filter(player=player, turn=turn).aggregate(m=Max("seq"))["m"]
        seq = 0 if last is None else last + 1
        if kind == Kind.HANDOVER:
            handover_check_single(player=player, turn=turn, board=board, payload=payload)
        if board.is_classic or kind in CLASSIC_KINDS:
            classic_order_check(player=player, turn=turn, board=board, kind=kind, payload=payload)
        else:
            order_check(
                player=player, turn=turn, board=board, kind=kind, payload=payload, seq=seq
            )  # fmt: skip
        try:
            with transaction.atomic():
                order = Order.objects.create(
                    turn=turn, board=board, player=player, kind=kind, payload=payload,
                    seq=seq, client_token=client_token,
                )  # fmt: skip
        except IntegrityError:
            return Order.objects.get(player=player, client_token=client_token)
        order_changed(order, Action.SUBMITTED)
        if kind == Kind.ATTEMPT:
            attempt_notify(order, cancelled=False)
        if kind == Kind.HANDOVER:
            handover_notify(order, withdrawn=False)
    return order


def order_for_change(order: Order, player: Membership, now: dt.datetime) -> Order:
    """Inside a transaction: the order re-read under the locks, if `player` may change it."""
    if order.player_id != player.pk:
        raise OrderRefused(_("That is not your order."))
    turn = locked_open_turn(order.turn, now)
    order = Order.objects.select_related("board", "player").get(pk=order.pk)
    order.turn = turn
    if order.status != Order.Status.QUEUED:
        raise OrderRefused(_("Only queued orders can be changed."))
    return order


def order_edit(
    *, player: Membership, order: Order, payload: dict[str, Any], now: dt.datetime | None = None
) -> Order:
    """R40: change a queued order's fields; checked again as if submitted in its place."""
    now = now or timezone.now()
    payload_check(payload)
    with transaction.atomic():
        order = order_for_change(order, player, now)
        if order.kind == Kind.ATTEMPT:
            attempt_check_cutoff(order.turn.campaign, order.turn, now)
        if order.kind == Kind.HANDOVER:
            handover_check_single(
                player=player, turn=order.turn, board=order.board, payload=payload,
                replacing=order,
            )  # fmt: skip
        if order.board.is_classic:
            classic_order_check(
                player=player, turn=order.turn, board=order.board, kind=order.kind,
                payload=payload,
            )  # fmt: skip
        else:
            order_check(
                player=player, turn=order.turn, board=order.board, kind=order.kind,
                payload=payload, seq=order.seq, replacing=order,
            )  # fmt: skip
        if same_fields(payload, order.payload):
            # Saved unchanged (a form opened and saved again): nothing changed, so nothing
            # is logged and "ready" stays (order_changed would clear it).
            return order
        sides = ("attacker", "target")
        moved = order.kind == Kind.ATTEMPT and any(
            order.payload.get(k) != payload.get(k) for k in sides
        )
        offered = order.kind == Kind.HANDOVER and any(
            order.payload.get(k) != payload.get(k) for k in ("department", "to")
        )
        if moved:  # R46: the old defender is told it is over, the new one at once
            attempt_notify(order, cancelled=True)
        if offered:  # R62: so is the receiver of a hand-over
            handover_notify(order, withdrawn=True)
        order.payload = payload
        order.save(update_fields=["payload", "updated_at"])
        order_changed(order, Action.EDITED)
        if moved:
            attempt_notify(order, cancelled=False)
        if offered:
            handover_notify(order, withdrawn=False)
    return order


def same_fields(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two payloads order the same: an optional field left empty ({} spent, no drops) is
    the same as one left out (a form writes every field, a quoted order or script may not)."""

    def filled(payload: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in payload.items() if v not in (None, "", [], {})}

    return filled(a) == filled(b)


def order_cancel(*, player: Membership, order: Order, now: dt.datetime | None = None) -> Order:
    """R40: withdraw a queued order; the defender of a cancelled attempt is told."""
    now = now or timezone.now()
    with transaction.atomic():
        order = order_for_change(order, player, now)
        order.status = Order.Status.CANCELLED
        order.save(update_fields=["status", "updated_at"])
        order_changed(order, Action.CANCELLED)
        if order.kind == Kind.ATTEMPT:
            attempt_notify(order, cancelled=True)
        if order.kind == Kind.HANDOVER:
            handover_notify(order, withdrawn=True)
    return order


def orders_reorder(
    *, player: Membership, turn: Turn, order_ids: list[int], now: dt.datetime | None = None
) -> list[Order]:
    """R40: give the player's queued orders of `turn` the sequence `order_ids` (every one of
    them, each once). Refused if an order the engine accepts now would be rejected in the
    new sequence."""
    now = now or timezone.now()
    require_player(player)
    with transaction.atomic():
        turn = locked_open_turn(turn, now)
        orders = queued_orders(player=player, turn=turn)
        if sorted(order_ids) != sorted(o.pk for o in orders):
            raise OrderRefused(_("Name each of your queued orders once."))
        old_seq = {o.pk: o.seq for o in orders}
        if [o.pk for o in orders] == list(order_ids):
            return orders  # the same sequence: nothing changes, ready stays as it is
        before = rejected_ids(orders)
        by_id = {o.pk: o for o in orders}
        for seq, pk in enumerate(order_ids):
            by_id[pk].seq = seq
        after = rejected_ids(orders)
        if after - before:
            order = by_id[int(min(after - before))]
            reason = rejected_reason(order, orders)
            raise OrderRefused(
                _("In that sequence, %(kind)s #%(pk)s would be rejected: %(reason)s")
                % {
                    "kind": labels.in_text(order.get_kind_display()),
                    "pk": order.pk,
                    "reason": safe_reason(reason, board=order.board, player=player),
                }
            )
        for order in sorted(orders, key=lambda o: o.seq):
            if order.seq != old_seq[order.pk]:
                order.save(update_fields=["seq", "updated_at"])
                order_changed(order, Action.REORDERED)
    return sorted(orders, key=lambda o: o.seq)


def department_set_defence(
    *, player: Membership, department: Department, defence: dict[str, int]
) -> Department:
    """R47: how many tokens of each type `department` spends when attacked. A standing
    setting of the controller, not an order: it takes effect at once."""
    require_player(player)
    if any(not isinstance(n, int) or n < 0 for n in defence.values()):
        raise OrderRefused(_("Defence amounts are whole numbers >= 0."))
    with transaction.atomic():
        # The campaign row lock, as the turn job takes it: it reads and writes back every
        # department's defence, so a setting saved meanwhile would be lost.
        Campaign.objects.select_for_update().get(pk=player.campaign_id)
        department = Department.objects.select_related("structure").get(pk=department.pk)
        if department.structure is None or department.structure.player_id != player.pk:
            raise OrderRefused(_("You can set the defence only of your own departments."))
        department.defence = {k: n for k, n in defence.items() if n}
        department.save(update_fields=["defence"])
    return department


def turn_mark_ready(
    *, player: Membership, turn: Turn, ready: bool, now: dt.datetime | None = None
) -> PlayerTurn:
    """The player's orders are complete (or not any more): early processing counts them."""
    now = now or timezone.now()
    require_player(player)
    with transaction.atomic():
        turn = locked_open_turn(turn, now)
        row, _ = PlayerTurn.objects.get_or_create(turn=turn, player=player)
        row.ready_at = now if ready else None
        row.save(update_fields=["ready_at"])
    return row


# --- R46: telling the defender -------------------------------------------------------------


def attempt_notify(order: Order, *, cancelled: bool) -> None:
    """R46: the target's controller is told at once (a notice in the app, and mail after
    commit) which of their departments is targeted and by whom, with the reinforcement form.
    "By whom" is the attacking department: queuing raises the defender's knowledge of it to
    at least `rumoured`; its controller is named only where the defender knows its card."""
    # The target may be on another board ("<board>/<slug>": a cross_board shtick, R60).
    names = {str(order.payload.get(k)) for k in ("target", "attacker")}
    found = departments_by_name(order.board, names)
    target, attacker = (
        found.get(str(order.payload.get("target"))),
        found.get(str(order.payload.get("attacker"))),
    )
    if target is None or attacker is None or target.structure is None:
        return
    defender = Membership.objects.select_related("user", "campaign").get(
        pk=target.structure.player_id
    )
    if defender.pk == order.player_id:
        return
    if not cancelled:
        knowledge_raise(player=defender, department=attacker, level=Level.RUMOURED)
    level = level_of(attacker, defender, viewer_knowledge(defender, pk=attacker.pk))
    controller = order.player.display_name if level >= Level.KNOWN else None
    # The GM may have lowered what the defender knows since the attempt was queued (R50):
    # what the notice may name is decided now, and stored as such (None: unnamed).
    said = {
        "attacker": attacker.name if level >= Level.RUMOURED else None,
        "controller": controller,
        "target": target.name,
    }
    notice = attack_notice_create(order, defender, said, cancelled=cancelled)
    campaign = defender.campaign
    # The mail now, in the defender's language; the notice is put into words when read.
    with translation.override(language_of(defender.user)):
        subject = game.attack_subject(target.name, withdrawn=cancelled)
        body = f"{notice_mailed(campaign, notice, defender.user)}\n\n{absolute_url(notice.url)}"
    # robust: a mail server that is down is logged; the order is stored and the notice shown.
    transaction.on_commit(lambda: mail_member(defender, ATTACK_NOTICES, subject, body), robust=True)


def attack_notice_create(
    order: Order, defender: Membership, said: dict[str, Any], *, cancelled: bool
) -> Notice:
    """R46: the defender's notice of attempt `order` (or of its withdrawal), naming what
    `said` names; a reinforcement is promised only if the form will offer one
    (selectors/reinforcement.py), else the notice says why not."""
    slug = defender.campaign.slug
    if cancelled:
        url = reverse("orders", args=[slug])
        return Notice.objects.create(
            player=defender, turn=order.turn, url=url, **notice_fields(ATTACK_WITHDRAWN, said)
        )
    ctx = OrderContext.build(defender, order.turn, order.board)
    reason = reinforcement(ctx, str(order.payload.get("target"))).reason
    url = reverse("order_reinforce", args=[slug, order.pk])
    return Notice.objects.create(
        player=defender, turn=order.turn, url=url,
        **notice_fields(ATTACK, {**said, "no_reinforcement": reason}),
    )  # fmt: skip


def notices_mark_read(*, player: Membership, now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    return Notice.objects.filter(player=player, read_at__isnull=True).update(read_at=now)
