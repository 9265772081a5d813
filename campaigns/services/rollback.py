"""RULES R52: the GM undoes the last processed turn.

Every board returns to the state the turn job read before that turn (`TurnRecord.before`:
the previous turn's result plus the GM's changes since), every member's knowledge to what it
was then (`TurnRecord.knowledge_before`: envelope grants and deal knowledge included), what
the turn did beside the boards is taken back (services/turn_effects.py `effects_undo`: goal
counts and progress, office holders, the election's result, dossier entries, contingency
envelopes opened and their notices), the turn's orders are queued again as they were,
and the turn reopens with a new secret seed and commitment. The old seed was published with
the report and stays published: in the audit log and in the notice every player gets. The
turn opened after it is removed, with its orders, which the GM must agree to discard.

Errors are ValueError with a message fit to show the GM.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.accounts.selectors.profile import language_of
from campaigns.classic.selectors.state import stored_of
from campaigns.engine.dice import commitment
from campaigns.models import (
    AuditEntry,
    Campaign,
    ClassicBoard,
    Department,
    Knowledge,
    Membership,
    Notice,
    Order,
    PlayerTurn,
    Turn,
    TurnRecord,
)
from campaigns.services.audit import audit_record
from campaigns.services.notifications import (
    MAIL_RELATED,
    TURN_PROCESSED,
    absolute_url,
    mail_member,
    notice_mailed,
)
from campaigns.services.state import board_restore
from campaigns.services.turn_effects import effects_undo
from campaigns.words.notices import TURN_UNDONE, notice_fields, utc_param


@dataclass(frozen=True)
class RollbackPlan:
    """What a rollback of the last processed turn would do, for the GM's confirmation."""

    turn: Turn  # the turn that reopens
    following: Turn  # the open turn that goes away
    orders_again: int  # orders of `turn` queued again
    orders_discarded: int  # queued orders of `following`, lost


def rollback_plan(campaign: Campaign) -> RollbackPlan:
    """The rollback the GM may confirm now, or ValueError saying why there is none."""
    if campaign.status == Campaign.Status.FINISHED:
        raise ValueError(_("The campaign has ended: its turns can no longer be undone."))
    following = campaign.turns.filter(status=Turn.Status.OPEN).order_by("-number").first()
    if following is None:
        raise ValueError(_("There is no processed turn to undo: the campaign has not started."))
    last = campaign.turns.filter(number=following.number - 1).first()
    if last is None or last.number == 0 or last.status != Turn.Status.PROCESSED:
        raise ValueError(
            _(
                "There is no processed turn to undo: the start of the campaign (turn 0) cannot "
                "be undone."
            )
        )
    return RollbackPlan(
        turn=last,
        following=following,
        orders_again=last.orders.exclude(status=Order.Status.CANCELLED).count(),
        orders_discarded=following.orders.filter(status=Order.Status.QUEUED).count(),
    )


def turn_rollback(
    *,
    campaign: Campaign,
    actor: AbstractBaseUser,
    number: int,
    discard_orders: bool = False,
    now: dt.datetime | None = None,
) -> Turn:
    """R52: undo processed turn `number`, which must be the last one (the GM confirmed that
    number, so a stale page cannot undo a different turn). Refused while the open turn has
    queued orders unless `discard_orders`. Returns the reopened turn. Takes the campaign row
    lock, like the turn job, so the two never interleave."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        now = now or timezone.now()
        plan = rollback_plan(locked)
        turn, following = plan.turn, plan.following
        plan_confirmed(plan, number, discard_orders)
        restore_boards(locked, turn)
        old_seed, old_commitment = turn.seed, turn.commitment
        Order.objects.filter(turn=turn).exclude(status=Order.Status.CANCELLED).update(
            status=Order.Status.QUEUED, result={}, gm_note_published=False
        )
        PlayerTurn.objects.filter(turn=turn).update(ready_at=None)
        turn.seed = secrets.token_hex(32)
        turn.commitment = commitment(turn.seed)
        turn.status = Turn.Status.OPEN
        turn.processed_at = None
        turn.failures = 0
        turn.last_error = ""
        # Players get the week that was theirs: the deadline of the turn that goes away, or
        # the GM's extension of this turn where that was later (a turn extended and then
        # processed early must not come back due sooner than the GM had promised).
        turn.deadline = max(following.deadline, turn.deadline, now)
        turn.save()
        following.delete()  # its orders, notices and readiness with it
        if locked.played_on_after is not None and locked.played_on_after >= turn.number:
            # R98: a win of the undone turn is gone; one when it runs again is asked anew.
            locked.played_on_after = None
            locked.save(update_fields=["played_on_after"])
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.ROLLBACK,
            target=f"turn {turn.number}",
            before={"seed": old_seed, "commitment": old_commitment, "status": "processed"},
            after={
                "commitment": turn.commitment,
                "status": "open",
                "orders_queued_again": plan.orders_again,
                "orders_discarded": plan.orders_discarded,
            },
        )
        players_tell(locked, turn, old_seed)
    return turn


def plan_confirmed(plan: RollbackPlan, number: int, discard_orders: bool) -> None:
    """ValueError unless the GM confirmed this plan: the turn they saw is still the last
    processed one, and they agreed to discard the open turn's queued orders, if any."""
    if plan.turn.number != number:
        raise ValueError(
            _("Turn %(n)s is not the last processed turn (turn %(last)s is): nothing was undone.")
            % {"n": number, "last": plan.turn.number}
        )
    if plan.orders_discarded and not discard_orders:
        raise ValueError(
            ngettext(
                "Turn %(n)s already has %(count)s queued order: confirm that it is "
                "discarded to undo the turn.",
                "Turn %(n)s already has %(count)s queued orders: confirm that they are "
                "discarded to undo the turn.",
                plan.orders_discarded,
            )
            % {"n": plan.following.number, "count": plan.orders_discarded}
        )


def restore_boards(campaign: Campaign, turn: Turn) -> None:
    """Every board back to `turn`'s `before`, and the stored knowledge to `knowledge_before`.
    A board or department added or removed since cannot be restored: refused, naming it."""
    records = list(TurnRecord.objects.filter(turn=turn).select_related("board"))
    boards = {b.pk: b for b in campaign.boards.all()}
    recorded = {r.board_id for r in records}
    if recorded != set(boards):
        raise ValueError(
            _(
                "The boards changed since the turn was processed (one was added or removed): "
                "undo that change first."
            )
        )
    previous = {
        r.board_id: r.report.get("departments", {})
        for r in TurnRecord.objects.filter(turn__campaign=campaign, turn__number=turn.number - 1)
    }
    # A player removed since the turn gets nothing back: their departments stay uncontrolled.
    members = set(
        campaign.memberships.exclude(role=Membership.Role.REMOVED).values_list("pk", flat=True)
    )
    for record in records:
        if record.board.is_classic:  # R90: its state is one document (models/classic.py)
            ClassicBoard.objects.filter(pk=record.board_id).update(state=stored_of(record.before))
            continue
        board_restore(
            record.board, record.before, previous.get(record.board_id, {}), members=members
        )
    departments = {
        (d.board_id, d.slug): d.pk for d in Department.objects.filter(board__campaign=campaign)
    }
    Knowledge.objects.filter(department__board__campaign=campaign).delete()
    Knowledge.objects.bulk_create(
        Knowledge(player_id=int(member), department_id=departments[(r.board_id, slug)], level=lvl)
        for r in records
        for member, levels in r.knowledge_before.items()
        if int(member) in members
        for slug, lvl in levels.items()
        if (r.board_id, slug) in departments
    )
    effects_undo(turn, records)  # goals, offices, the election, dossiers, envelopes
    TurnRecord.objects.filter(turn=turn).delete()


def players_tell(campaign: Campaign, turn: Turn, old_seed: str) -> None:
    """R52: every player is told, in the app and by mail, with the old seed (so the dice of
    the report that is gone can still be checked against its commitment)."""
    players = list(
        campaign.memberships.filter(role=Membership.Role.PLAYER).select_related(*MAIL_RELATED)
    )
    url = reverse("orders", args=[campaign.slug])
    said = notice_fields(
        TURN_UNDONE, {"n": turn.number, "deadline": utc_param(turn.deadline), "seed": old_seed}
    )
    notices = []
    for player in players:
        player.campaign = campaign
        # The notice is put into words when read (words/notices.py), in the reader's language
        # and zone; the mail now, in the player's.
        notice = Notice(player=player, turn=turn, url=url, **said)
        with translation.override(language_of(player.user)):
            subject = _("Turn %(n)s undone") % {"n": turn.number}
            body = f"{notice_mailed(campaign, notice, player.user)}\n\n" + _(
                "Your orders: %(url)s"
            ) % {"url": absolute_url(url)}
        notices.append(notice)
        transaction.on_commit(
            lambda p=player, s=subject, b=body: mail_member(p, TURN_PROCESSED, s, b), robust=True
        )
    Notice.objects.bulk_create(notices)
