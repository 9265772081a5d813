"""R62: the receiver of a hand-over is told at once, as a defender is told of an attempt
(R46): a notice in the app and mail after commit, saying who offers which department and
where to accept it, and again when the offer is withdrawn or changed.

One notice per hand-over: queuing, withdrawing and queuing again the same department to the
same receiver in a turn (else 25 such orders would give 25 notices and 25 mails)
keeps one notice, rewritten in place to say how things stand now, and mails again only once
the receiver has read the notice: an unread notice already tells them to look.

The deal names the department, so queuing it makes it `rumoured` to the receiver (its name
and board, R50): that lets them read the offer and queue their accept, which names it.
Nothing else of the department or of the giver's structure reaches them."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation

from campaigns.accounts.selectors.profile import language_of
from campaigns.models import Membership, Notice, Order
from campaigns.models.campaign import membership_pk_of
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level, department_rows, level_of, viewer_knowledge
from campaigns.services.knowledge import knowledge_raise
from campaigns.services.notifications import (
    ATTACK_NOTICES,
    absolute_url,
    mail_member,
    notice_mailed,
)
from campaigns.words.intrigue import handover_notice
from campaigns.words.notices import HANDOVER_OFFERED, HANDOVER_WITHDRAWN, notice_fields

HANDOVER_CODES = (HANDOVER_OFFERED, HANDOVER_WITHDRAWN)


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
    # What the notice may name is decided now, and stored as such (None: unnamed, R50).
    said = {"giver": giver, "department": dept.name if known else None, "board": order.board.name}
    notice = Notice(
        player=receiver, turn=order.turn, url=reverse("orders", args=[receiver.campaign.slug]),
        **notice_fields(HANDOVER_WITHDRAWN if withdrawn else HANDOVER_OFFERED, said),
    )  # fmt: skip
    if not notice_merged(notice):
        return
    # The mail now, in the receiver's language; the notice is put into words when read.
    with translation.override(language_of(receiver.user)):
        subject = handover_notice(
            giver, dept.name if known else str(UNNAMED), order.board.name, withdrawn=withdrawn
        )[0]
        body = f"{notice_mailed(receiver.campaign, notice, receiver.user)}\n\n"
    body += absolute_url(notice.url)
    transaction.on_commit(lambda: mail_member(receiver, ATTACK_NOTICES, subject, body), robust=True)


def notice_merged(notice: Notice) -> bool:
    """Store `notice` as the receiver's notice about this hand-over; whether to mail it.

    The notice about the same hand-over is the receiver's notice of the turn that says this
    giver offers or withdrew this department of this board: its parameters are the
    hand-over's key (the notice has no other field for it). No such notice: a new one,
    mailed. The same code: nothing new, nothing mailed. The other code (offered <->
    withdrawn): rewritten in place, unread and on top again; mailed only if the receiver had
    read it."""
    same = next(
        (
            row
            for row in Notice.objects.filter(
                player=notice.player, turn=notice.turn, code__in=HANDOVER_CODES
            ).order_by("-created_at", "-pk")
            if row.params == notice.params
        ),
        None,
    )
    if same is None:
        notice.save()
        return True
    if same.code == notice.code:
        return False
    Notice.objects.filter(pk=same.pk).update(
        code=notice.code, text=notice.text, url=notice.url, read_at=None, created_at=timezone.now()
    )
    return same.read_at is not None
