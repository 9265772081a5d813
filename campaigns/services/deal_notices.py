"""R62: the receiver of a hand-over is told at once, as a defender is told of an attempt
(R46): a notice in the app and mail after commit, saying who offers which department and
where to accept it, and again when the offer is withdrawn or changed.

One notice per hand-over: queuing, withdrawing and queuing again the same department to the
same receiver in a turn (the flood of issue 24: 25 orders gave 25 notices and 25 mails)
keeps one notice, rewritten in place to say how things stand now, and mails again only once
the receiver has read the notice: an unread notice already tells them to look.

The deal names the department, so queuing it makes it `rumoured` to the receiver (its name
and board, R50): that lets them read the offer and queue their accept, which names it.
Nothing else of the department or of the giver's structure reaches them."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

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
        words = {
            gone: intrigue_words.handover_notice(
                giver, dept.name if known else str(UNNAMED), order.board.name, withdrawn=gone
            )
            for gone in (False, True)
        }
    subject, text = words[withdrawn]
    url = reverse("orders", args=[receiver.campaign.slug])
    if not notice_merged(receiver, order, text, url, {t for _, t in words.values()}):
        return
    body = f"{text}\n\n{absolute_url(url)}"
    transaction.on_commit(lambda: mail_member(receiver, ATTACK_NOTICES, subject, body), robust=True)


def notice_merged(receiver: Membership, order: Order, text: str, url: str, about: set[str]) -> bool:
    """Store `text` as the receiver's notice about this hand-over; whether to mail it.

    The notice about the same hand-over is the receiver's notice of the turn that says, in
    their language, that this giver offers or withdrew this department: its words are the
    hand-over's key (the notice has no other field for it). No such notice: a new one,
    mailed. The same words: nothing new, nothing mailed. Other words (offered <-> withdrawn):
    rewritten in place, unread and on top again; mailed only if the receiver had read it."""
    same = (
        Notice.objects.filter(player=receiver, turn=order.turn, text__in=about)
        .order_by("-created_at", "-pk")
        .first()
    )
    if same is None:
        Notice.objects.create(player=receiver, turn=order.turn, text=text, url=url)
        return True
    if same.text == text:
        return False
    Notice.objects.filter(pk=same.pk).update(
        text=text, url=url, read_at=None, created_at=timezone.now()
    )
    return same.read_at is not None
