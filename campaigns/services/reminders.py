"""Reminders before the deadline to players who have queued no orders.

Once per deadline: `PlayerTurn.reminded_for` holds the deadline instant a player was last
reminded of. A reminder is claimed by one conditional UPDATE

    UPDATE playerturn SET reminded_for = <deadline>
    WHERE id = .. AND reminded_for IS DISTINCT FROM <deadline>

and mailed only by the caller whose UPDATE changed the row. Two ticks running at once
(a beat tick and a cron run, a redelivered task) race on that row: the database lets one
UPDATE through and the other then finds the condition false, so one mail goes out, never
two. Moving the deadline makes the condition true again: exactly one more reminder.

The claim is made before the mail is sent, so a mail server that is down loses that
reminder (logged) rather than risking a second one: at most once is what "sent once" asks.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns.accounts.selectors.profile import language_of
from campaigns.models import Campaign, Membership, Order, PlayerTurn, Turn
from campaigns.services.notifications import (
    MAIL_RELATED,
    REMINDERS,
    absolute_url,
    local_time_text,
    mail_member,
)

log = logging.getLogger(__name__)


def reminders_due(now: dt.datetime) -> list[Turn]:
    """Open turns of running campaigns whose deadline is within the campaign's reminder
    lead time (Campaign.reminder_hours) and not yet past."""
    turns = Turn.objects.filter(
        status=Turn.Status.OPEN, campaign__status=Campaign.Status.RUNNING, deadline__gt=now
    ).select_related("campaign")
    return [
        t
        for t in turns
        if t.campaign.reminder_hours
        and t.deadline - now <= dt.timedelta(hours=t.campaign.reminder_hours)
    ]


def players_to_remind(turn: Turn) -> list[Membership]:
    """Players of the campaign with no queued order for `turn` who have not marked
    themselves ready (a player who is ready with no orders chose to pass)."""
    busy = Order.objects.filter(turn=turn, status=Order.Status.QUEUED).values("player_id")
    ready = PlayerTurn.objects.filter(turn=turn, ready_at__isnull=False).values("player_id")
    return list(
        turn.campaign.memberships.filter(role=Membership.Role.PLAYER)
        .exclude(pk__in=busy)
        .exclude(pk__in=ready)
        .select_related(*MAIL_RELATED)
    )


def reminder_claim(turn: Turn, player: Membership) -> bool:
    """Mark `player` reminded of `turn`'s current deadline; True only for the one caller
    whose UPDATE changed the row (see the module docstring)."""
    try:
        with transaction.atomic():
            PlayerTurn.objects.get_or_create(turn=turn, player=player)
    except IntegrityError:
        pass  # made by a concurrent tick in the meantime: it exists now
    claimed = (
        PlayerTurn.objects.filter(turn=turn, player=player)
        .filter(Q(reminded_for__isnull=True) | ~Q(reminded_for=turn.deadline))
        .update(reminded_for=turn.deadline)
    )
    return claimed == 1


def reminder_mail(turn: Turn, player: Membership) -> bool:
    campaign = turn.campaign
    player.campaign = campaign
    with translation.override(language_of(player.user)):
        values = {"n": turn.number, "campaign": campaign.name}
        subject = _("Turn %(n)s closes soon and you have no orders") % values
        body = "\n\n".join(
            [
                _(
                    "Turn %(n)s of %(campaign)s closes on %(deadline)s, "
                    "and you have queued no orders for it."
                )
                % {**values, "deadline": local_time_text(campaign, turn.deadline, player.user)},
                _("Queue your orders: %(url)s")
                % {"url": absolute_url(campaign.get_absolute_url())},
                _("To stop these reminders: %(url)s")
                % {"url": absolute_url(reverse("notification_settings"))},
            ]
        )
    return mail_member(player, REMINDERS, subject, body)


def reminders_send(now: dt.datetime | None = None) -> int:
    """Remind every player who has queued nothing for a turn whose deadline is near, once
    per deadline. Safe to run from any number of ticks at once. Returns mails sent."""
    now = now or timezone.now()
    sent = 0
    for turn in reminders_due(now):
        for player in players_to_remind(turn):
            if not reminder_claim(turn, player):
                continue
            try:
                sent += reminder_mail(turn, player)
            except Exception:
                log.exception("could not remind %s of %s", player, turn)
    return sent
