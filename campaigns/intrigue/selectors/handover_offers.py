"""R62: one pending hand-over per department and receiver. The engine takes any number of
hand-overs of a department (ENGINE.md: they resolve in the giver's sequence, and the first
one its receiver accepted goes through), so offering it to two players stays allowed.
The same department offered twice to the same player can do nothing the first offer does not:
it only told the receiver again (once, 25 identical posts queued 25 orders and sent 25
notices and mails). The site refuses it, in the service (under the turn lock) and in the form,
whose department select leaves out what the player has already offered to everyone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Board, Membership, Order, Turn
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.order_checks import OrderRefused


def offered_pairs(queued: Iterable[dict[str, Any]], without: str | None) -> dict[str, set[str]]:
    """Department slug -> the players it is offered to, from the player's queued hand-overs
    as the engine state holds them (OrderContext.queued); `without`: the engine id of the
    order being edited, which does not stand in its own way."""
    pairs: dict[str, set[str]] = {}
    for order in queued:
        if str(order.get("id")) != without:
            pairs.setdefault(str(order.get("department")), set()).add(str(order.get("to")))
    return pairs


def pending_id(
    queued: Iterable[dict[str, Any]], without: str | None, department: object, receiver: object
) -> str | None:
    """The engine id of the player's queued hand-over of `department` to `receiver` (as
    `offered_pairs` reads them), or None."""
    for order in queued:
        if str(order.get("id")) == without:
            continue
        if order.get("department") == department and order.get("to") == receiver:
            return str(order.get("id"))
    return None


def already_offered(department: str, receiver: str, pk: object) -> str:
    """The refusal, in words: the player's own department and the receiver are theirs to see."""
    return _(
        "You already offer %(department)s to %(receiver)s this turn (order #%(pk)s). Nothing "
        "was stored: edit or cancel that order on your orders page instead (R62)."
    ) % {"department": department, "receiver": receiver, "pk": pk}


def handover_check_single(
    *,
    player: Membership,
    turn: Turn,
    board: Board,
    payload: dict[str, Any],
    replacing: Order | None = None,
) -> None:
    """Raise OrderRefused if `player` has a queued hand-over of the same department to the
    same player on `board` this turn (other than `replacing`, the order being edited).
    Call under the turn lock (services.orders), so two posts at once cannot both pass."""
    rows = Order.objects.filter(
        player=player, turn=turn, board=board, kind=Order.Kind.HANDOVER,
        status=Order.Status.QUEUED,
    )  # fmt: skip
    if replacing is not None:
        rows = rows.exclude(pk=replacing.pk)
    department, receiver = payload.get("department"), payload.get("to")
    for order in rows:
        if order.payload.get("department") == department and order.payload.get("to") == receiver:
            names = board.departments.filter(slug=department).values_list("name", flat=True)
            name = names.first() or str(department)
            raise OrderRefused(already_offered(name, receiver_name(player, receiver), order.pk))


def receiver_name(player: Membership, receiver: object) -> str:
    """The display name of the engine player id `receiver` in the player's campaign."""
    pk = membership_pk_of(receiver if isinstance(receiver, str) else None)
    rows = Membership.objects.filter(pk=pk, campaign_id=player.campaign_id).select_related("user")
    member = rows.first()
    return member.display_name if member is not None else str(receiver)
