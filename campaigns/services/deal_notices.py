"""R62: the receiver of a hand-over is told at once, as a defender is told of an attempt
(R46): a notice in the app and mail after commit, saying who offers which department and
where to accept it, and again when the offer is withdrawn or changed.

The deal names the department, so queuing it makes it `rumoured` to the receiver (its name
and board, R50): that lets them read the offer and queue their accept, which names it.
Nothing else of the department or of the giver's structure reaches them."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import translation

from campaigns import intrigue_words
from campaigns.models import Membership, Notice, Order
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.profile import language_of
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level, department_rows, level_of, viewer_knowledge

from .knowledge import knowledge_raise
from .notifications import ATTACK_NOTICES, absolute_url, mail_member


def handover_notify(order: Order, *, withdrawn: bool) -> None:
    """Call inside the transaction that queued, changed or cancelled the hand-over `order`
    (its payload as it stands: the department and the receiving player)."""
    pk = membership_pk_of(str(order.payload.get("to", "")))
    receiver = (
        Membership.objects.filter(
            pk=pk, campaign_id=order.turn.campaign_id, role=Membership.Role.PLAYER
        )
        .select_related("user__profile", "campaign")
        .first()
    )
    dept = department_rows(board=order.board, slug=order.payload.get("department")).first()
    if receiver is None or dept is None or receiver.pk == order.player_id:
        return  # the engine rejects such a hand-over; nobody is offered anything
    if not withdrawn:
        knowledge_raise(player=receiver, department=dept, level=Level.RUMOURED)
    known = level_of(dept, receiver, viewer_knowledge(receiver, pk=dept.pk)) >= Level.RUMOURED
    giver = Membership.objects.select_related("user").get(pk=order.player_id).display_name
    with translation.override(language_of(receiver.user)):
        subject, text = intrigue_words.handover_notice(
            giver, dept.name if known else str(UNNAMED), order.board.name, withdrawn=withdrawn
        )
    url = reverse("orders", args=[receiver.campaign.slug])
    Notice.objects.create(player=receiver, turn=order.turn, text=text, url=url)
    body = f"{text}\n\n{absolute_url(url)}"
    transaction.on_commit(lambda: mail_member(receiver, ATTACK_NOTICES, subject, body), robust=True)
