"""What a GM does to a whole campaign from the campaign page (RULES R30, R31).

Thin wrappers over the turn job's services that first check the action makes sense now,
under the campaign row lock, so a stale page or a double click gets a clear error instead
of a second pause or a turn processed twice. Errors are ValueError with a message fit to
show the GM, as `campaign_start` raises.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.accounts.selectors.profile import language_of
from campaigns.engine.board import DEFAULT_ALIGNMENTS
from campaigns.models import Alignment, AuditEntry, Campaign, Membership, Notice, Order, Turn
from campaigns.services.audit import audit_record
from campaigns.services.notifications import (
    MAIL_RELATED,
    REMINDERS,
    TURN_PROCESSED,
    absolute_url,
    local_time_text,
    mail_member,
    notice_mailed,
)
from campaigns.services.schedule import following_deadline
from campaigns.services.turns import campaign_set_status, turn_process
from campaigns.words.notices import DEADLINE_EXTENDED, notice_fields, utc_param

# A guard against a mistyped year or month: one extension moves a deadline by four weeks at
# most (the GM may extend again, or pause the campaign for a longer break).
MAX_EXTENSION = dt.timedelta(days=28)


def campaign_status_change(
    *, campaign: Campaign, expect: str, status: str, actor: AbstractBaseUser | None, target: str
) -> None:
    """Pause or resume, logged (R53) in the same transaction: the status before and after,
    and the open turn's deadline if resuming moved it."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status != expect:
            raise ValueError(
                _("%(campaign)s is %(status)s, not %(expected)s.")
                % {
                    "campaign": locked,
                    "status": str(locked.get_status_display()).lower(),
                    "expected": str(Campaign.Status(expect).label).lower(),
                }
            )
        before: dict[str, Any] = {"status": locked.status, **open_deadline(locked)}
        campaign_set_status(campaign=locked, status=status)
        after: dict[str, Any] = {"status": status, **open_deadline(locked)}
        if before.get("deadline") == after.get("deadline"):  # only a resume may move it
            before.pop("deadline", None)
            after.pop("deadline", None)
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.SCHEDULE, target=target,
            before=before, after=after,
        )  # fmt: skip


def open_deadline(campaign: Campaign) -> dict[str, str]:
    """{"deadline": the open turn's deadline (ISO)}, or nothing without an open turn."""
    turn = campaign.turns.filter(status=Turn.Status.OPEN).first()
    return {"deadline": utc_text(turn.deadline)} if turn is not None else {}


def utc_text(instant: dt.datetime) -> str:
    """An instant as the audit log keeps it: ISO in UTC (shown in the reader's zone)."""
    return instant.astimezone(dt.UTC).isoformat()


def campaign_pause(*, campaign: Campaign, actor: AbstractBaseUser | None = None) -> None:
    """R30: stop the clock; no turn is processed on schedule until resumed."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.RUNNING, status=Campaign.Status.PAUSED,
        actor=actor, target="campaign paused",
    )  # fmt: skip


def campaign_resume(*, campaign: Campaign, actor: AbstractBaseUser | None = None) -> None:
    """R30: restart the clock (a deadline that passed meanwhile moves to the next slot)."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.PAUSED, status=Campaign.Status.RUNNING,
        actor=actor, target="campaign resumed",
    )  # fmt: skip


def turn_process_now(
    *, campaign: Campaign, number: int, actor: AbstractBaseUser | None = None
) -> Turn:
    """R30, R31: the GM processes turn `number` before its deadline. Returns the turn that
    opens. `number` is the turn the GM confirmed: if the tick (or another GM) got there
    first, nothing happens twice and the GM is told. Logged (R53) under the turn job's own
    lock and transaction, so the entry is there exactly when the turn was processed."""
    if campaign.status == Campaign.Status.FINISHED:
        raise ValueError(_("%(campaign)s is finished.") % {"campaign": campaign})

    def logged(locked: Campaign, turn: Turn, following: Turn) -> None:
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.SCHEDULE,
            target=f"turn {turn.number} processed now",
            before={"status": Turn.Status.OPEN, "deadline": utc_text(turn.deadline)},
            after={"status": turn.status, "opened_turn": following.number,
                   "deadline": utc_text(following.deadline)},
        )  # fmt: skip

    opened = turn_process(campaign_id=campaign.pk, number=number, then=logged)
    if opened is None:
        raise ValueError(not_open(number))
    return opened


def next_due_if_processed(
    *, campaign: Campaign, turn: Turn, now: dt.datetime | None = None
) -> tuple[dt.datetime, bool]:
    """R30: what the GM sees before confirming *Process turn now*: when the next turn would
    be due if open `turn` were processed at `now`, and whether that processing is early
    (before `turn`'s deadline). The turn job sets the same date (schedule.following_deadline)."""
    now = now or timezone.now()
    return following_deadline(campaign, turn.deadline, now), now < turn.deadline


def turn_extend_deadline(
    *,
    campaign: Campaign,
    number: int,
    deadline: dt.datetime,
    now: dt.datetime | None = None,
    actor: AbstractBaseUser | None = None,
) -> Turn:
    """R30: the GM moves the deadline of open turn `number` later. Only that turn moves: the
        turn after it is due at the first regular slot after the new deadline (turns.py). Every
        player is told in the app and by mail (their reminder setting), and a player who has
        queued nothing gets one more reminder before the new deadline (reminders.py). The old and
    the new deadline are in the audit log (R53)."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        now = now or timezone.now()  # after the lock: the turn job may have held it
        turn = extendable_turn(locked, number, deadline, now)
        before = turn.deadline
        turn.deadline = deadline
        turn.save(update_fields=["deadline"])
        audit_record(
            campaign=locked, actor=actor, action=AuditEntry.Action.SCHEDULE,
            target=f"deadline of turn {number}", before={"deadline": utc_text(before)},
            after={"deadline": utc_text(deadline)},
        )  # fmt: skip
        players = list(
            locked.memberships.filter(role=Membership.Role.PLAYER).select_related(*MAIL_RELATED)
        )
        url = locked.get_absolute_url()
        notices = []
        said = notice_fields(DEADLINE_EXTENDED, {"n": number, "deadline": utc_param(deadline)})
        for player in players:
            player.campaign = locked
            # The notice is put into words when read; the mail now, in the player's language
            # and zone.
            notice = Notice(player=player, turn=turn, url=url, **said)
            with translation.override(language_of(player.user)):
                subject, body = deadline_extended_mail(locked, notice, player.user)
            notices.append(notice)
            # robust: a mail server that is down is logged; the deadline has moved anyway.
            transaction.on_commit(
                lambda p=player, s=subject, b=body: mail_member(p, REMINDERS, s, b), robust=True
            )
        Notice.objects.bulk_create(notices)
    return turn


def extendable_turn(locked: Campaign, number: int, deadline: dt.datetime, now: dt.datetime) -> Turn:
    """Open turn `number` of `locked`, if its deadline may move to `deadline` (R30); else
    ValueError saying why, fit to show the GM."""
    if locked.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ValueError(
            _("%(campaign)s is %(status)s.")
            % {"campaign": locked, "status": str(locked.get_status_display()).lower()}
        )
    turn = locked.turns.filter(number=number, status=Turn.Status.OPEN).first()
    if turn is None:
        raise ValueError(not_open(number))
    if locked.status == Campaign.Status.RUNNING and turn.deadline <= now:
        raise ValueError(
            _("Turn %(n)s's deadline has passed: it is being processed.") % {"n": number}
        )
    if deadline <= max(turn.deadline, now):
        raise ValueError(
            _(
                "The new deadline must be in the future and later than the current one "
                "(%(deadline)s)."
            )
            % {"deadline": local_time_text(locked, turn.deadline)}
        )
    # From now if the deadline passed during a pause: a long pause can still end in a new
    # deadline.
    if deadline - max(turn.deadline, now) > MAX_EXTENSION:
        raise ValueError(
            _(
                "A deadline can be extended by at most 28 days at a time "
                "(for a longer break, pause the campaign)."
            )
        )
    return turn


def not_open(number: int) -> str:
    return _("Turn %(n)s is not open (it may have been processed already).") % {"n": number}


def deadline_extended_mail(
    campaign: Campaign, notice: Notice, reader: AbstractBaseUser
) -> tuple[str, str]:
    """R30: the mail's subject and body when the GM extends a deadline, in the active
    language: the notice's words (campaigns/words/notices.py), the deadline in the reader's zone."""
    body = "\n".join(
        [
            notice_mailed(campaign, notice, reader),
            "",
            _("The campaign: %(url)s") % {"url": absolute_url(campaign.get_absolute_url())},
            "",
            _("To stop these mails: %(url)s")
            % {"url": absolute_url(reverse("notification_settings"))},
        ]
    )
    return _("Turn %(n)s deadline extended") % {"n": notice.params["n"]}, body


def alignments_create_default(*, campaign: Campaign) -> None:
    """R5: give a new campaign the card game's ten alignments as its catalogue."""
    Alignment.objects.bulk_create(
        Alignment(
            campaign=campaign,
            name=str(entry["name"]),
            opposite=str(entry.get("opposite", "")),
            self_opposed=bool(entry.get("self_opposed")),
        )
        for entry in DEFAULT_ALIGNMENTS
    )


def campaign_end(*, campaign: Campaign, actor: AbstractBaseUser) -> None:
    """The GM ends a running or paused campaign (R51). The open turn closes without being
    processed: its queued orders are discarded, and the last processed turn is the end of
    the story. No turn job runs for it again. Every member is told."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
            raise ValueError(
                _("%(campaign)s is %(status)s: only a running or paused campaign can end.")
                % {"campaign": locked, "status": str(locked.get_status_display()).lower()}
            )
        open_turn = locked.turns.filter(status=Turn.Status.OPEN).first()
        discarded = 0
        if open_turn is not None:
            discarded = open_turn.orders.filter(status=Order.Status.QUEUED).count()
            open_turn.delete()
        last = locked.turns.order_by("-number").values_list("number", flat=True).first()
        locked.status = Campaign.Status.FINISHED
        locked.save(update_fields=["status"])
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.CAMPAIGN,
            target="campaign ended",
            before={"status": campaign.status},
            after={"status": "finished", "last_turn": last, "orders_discarded": discarded},
        )
        members_tell(locked, ENDED, {"name": locked.name, "last": last})


def campaign_open(*, campaign: Campaign, actor: AbstractBaseUser) -> None:
    """R51: the GM opens an ended campaign: from now on every member sees everything of
    every turn (every department, stash, order and roll). It cannot be closed again."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status != Campaign.Status.FINISHED:
            raise ValueError(_("Only an ended campaign can be opened: end it first."))
        if locked.opened:
            raise ValueError(_("%(campaign)s is open already.") % {"campaign": locked})
        locked.opened = True
        locked.save(update_fields=["opened"])
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditEntry.Action.CAMPAIGN,
            target="campaign opened",
            before={"opened": False},
            after={"opened": True},
        )
        members_tell(locked, OPENED, {"name": locked.name})


# (subject, text) of the mails members_tell sends, translated for each reader as it goes.
ENDED = (
    gettext_lazy("The campaign has ended"),
    gettext_lazy(
        "The GM has ended %(name)s; turn %(last)s was its last. The turn reports stay here to read."
    ),
)
OPENED = (
    gettext_lazy("The campaign is open"),
    gettext_lazy(
        "The GM has opened %(name)s: every member can now see everything of every turn, "
        "every structure and every roll."
    ),
)


def members_tell(campaign: Campaign, words: tuple[Any, Any], values: dict[str, Any]) -> None:
    """Mail every member (their turn-report setting) after commit, `words` (subject, text)
    in each member's own language. No notice in the app: a notice belongs to a turn, and an
    ended campaign says it on its page."""
    url = absolute_url(campaign.get_absolute_url())
    members = campaign.memberships.exclude(role=Membership.Role.REMOVED)
    for member in members.select_related(*MAIL_RELATED):
        member.campaign = campaign
        with translation.override(language_of(member.user)):
            subject, body = str(words[0]), f"{words[1] % values}\n\n{url}"
        transaction.on_commit(
            lambda m=member, s=subject, b=body: mail_member(m, TURN_PROCESSED, s, b), robust=True
        )
