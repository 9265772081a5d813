"""What a GM does to a whole campaign from the campaign page (RULES R30, R31).

Thin wrappers over the turn job's services that first check the action makes sense now,
under the campaign row lock, so a stale page or a double click gets a clear error instead
of a second pause or a turn processed twice. Errors are ValueError with a message fit to
show the GM, as `campaign_start` raises.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.engine.board import DEFAULT_ALIGNMENTS
from campaigns.models import Alignment, AuditEntry, Campaign, Membership, Notice, Order, Turn

from .audit import audit_record
from .notifications import (
    MAIL_RELATED,
    REMINDERS,
    TURN_PROCESSED,
    absolute_url,
    local_time_text,
    mail_member,
)
from .turns import campaign_set_status, turn_process

# A guard against a mistyped year or month: one extension moves a deadline by four weeks at
# most (the GM may extend again, or pause the campaign for a longer break).
MAX_EXTENSION = dt.timedelta(days=28)


def campaign_status_change(*, campaign: Campaign, expect: str, status: str) -> None:
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status != expect:
            raise ValueError(f"{locked} is {locked.get_status_display().lower()}, not {expect}")
        campaign_set_status(campaign=locked, status=status)


def campaign_pause(*, campaign: Campaign) -> None:
    """R30: stop the clock; no turn is processed on schedule until resumed."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.RUNNING, status=Campaign.Status.PAUSED
    )


def campaign_resume(*, campaign: Campaign) -> None:
    """R30: restart the clock (a deadline that passed meanwhile moves to the next slot)."""
    campaign_status_change(
        campaign=campaign, expect=Campaign.Status.PAUSED, status=Campaign.Status.RUNNING
    )


def turn_process_now(*, campaign: Campaign, number: int) -> Turn:
    """R30, R31: the GM processes turn `number` before its deadline. Returns the turn that
    opens. `number` is the turn the GM confirmed: if the tick (or another GM) got there
    first, nothing happens twice and the GM is told."""
    if campaign.status == Campaign.Status.FINISHED:
        raise ValueError(f"{campaign} is finished")
    opened = turn_process(campaign_id=campaign.pk, number=number)
    if opened is None:
        raise ValueError(f"Turn {number} is not open (it may have been processed already)")
    return opened


def turn_extend_deadline(
    *, campaign: Campaign, number: int, deadline: dt.datetime, now: dt.datetime | None = None
) -> Turn:
    """R30: the GM moves the deadline of open turn `number` later. Only that turn moves: the
    turn after it is due at the first regular slot after the new deadline (turns.py). Every
    player is told in the app and by mail (their reminder setting), and a player who has
    queued nothing gets one more reminder before the new deadline (reminders.py)."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        now = now or timezone.now()  # after the lock: the turn job may have held it
        if locked.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
            raise ValueError(f"{locked} is {locked.get_status_display().lower()}")
        turn = locked.turns.filter(number=number, status=Turn.Status.OPEN).first()
        if turn is None:
            raise ValueError(f"Turn {number} is not open (it may have been processed already)")
        if locked.status == Campaign.Status.RUNNING and turn.deadline <= now:
            raise ValueError(f"Turn {number}'s deadline has passed: it is being processed")
        if deadline <= max(turn.deadline, now):
            raise ValueError(
                f"The new deadline must be in the future and later than the current one "
                f"({local_time_text(locked, turn.deadline)})"
            )
        # From now if the deadline passed during a pause: a long pause can still end in a
        # new deadline.
        if deadline - max(turn.deadline, now) > MAX_EXTENSION:
            raise ValueError(
                "A deadline can be extended by at most 28 days at a time "
                "(for a longer break, pause the campaign)"
            )
        turn.deadline = deadline
        turn.save(update_fields=["deadline"])
        players = list(
            locked.memberships.filter(role=Membership.Role.PLAYER).select_related(*MAIL_RELATED)
        )
        text = (
            f"The GM extended the deadline of turn {number}: it now closes on "
            f"{local_time_text(locked, deadline)}."
        )
        url = locked.get_absolute_url()
        Notice.objects.bulk_create(Notice(player=p, turn=turn, text=text, url=url) for p in players)
        body = (
            f"{text}\n\nThe campaign: {absolute_url(url)}\n\n"
            f"To stop these mails: {absolute_url(reverse('notification_settings'))}"
        )
        for player in players:
            player.campaign = locked
            # robust: a mail server that is down is logged; the deadline has moved anyway.
            transaction.on_commit(
                lambda p=player: mail_member(
                    p, REMINDERS, f"Turn {number} deadline extended", body
                ),
                robust=True,
            )
    return turn


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
                f"{locked} is {locked.get_status_display().lower()}: only a running or "
                "paused campaign can end."
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
        members_tell(
            locked,
            "The campaign has ended",
            f"The GM has ended {locked.name}; turn {last} was its last. The turn reports stay "
            "here to read.",
        )


def campaign_open(*, campaign: Campaign, actor: AbstractBaseUser) -> None:
    """R51: the GM opens an ended campaign: from now on every member sees everything of
    every turn (every department, stash, order and roll). It cannot be closed again."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if locked.status != Campaign.Status.FINISHED:
            raise ValueError("Only an ended campaign can be opened: end it first.")
        if locked.opened:
            raise ValueError(f"{locked} is open already.")
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
        members_tell(
            locked,
            "The campaign is open",
            f"The GM has opened {locked.name}: every member can now see everything of every "
            "turn, every structure and every roll.",
        )


def members_tell(campaign: Campaign, subject: str, text: str) -> None:
    """Mail every member (their turn-report setting) after commit. No notice in the app:
    a notice belongs to a turn, and an ended campaign says it on its page."""
    url = campaign.get_absolute_url()
    body = f"{text}\n\n{absolute_url(url)}"
    members = campaign.memberships.exclude(role=Membership.Role.REMOVED)
    for member in members.select_related(*MAIL_RELATED):
        member.campaign = campaign
        transaction.on_commit(
            lambda m=member: mail_member(m, TURN_PROCESSED, subject, body), robust=True
        )
