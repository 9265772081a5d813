"""Weekly deadlines in the campaign's own time zone (RULES R30)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from campaigns.models import Campaign


def next_deadline(campaign: Campaign, after: dt.datetime) -> dt.datetime:
    """The first weekly deadline strictly after `after`, as an aware UTC instant.

    The wall-clock time is fixed in the campaign's zone, so the UTC instant moves by an
    hour across a daylight-saving change (18:00 Berlin is 16:00 UTC in summer, 17:00 in
    winter). A wall time that does not exist on the day (inside a spring-forward gap) is
    read with the offset in force before the gap, as zoneinfo does for fold=0.
    """
    zone = ZoneInfo(campaign.time_zone)
    local = after.astimezone(zone)
    day = local.date() + dt.timedelta(days=(campaign.deadline_weekday - local.weekday()) % 7)
    while True:
        candidate = dt.datetime.combine(day, campaign.deadline_time, tzinfo=zone)
        instant = candidate.astimezone(dt.UTC)
        if instant > after:
            return instant
        day += dt.timedelta(days=7)


def first_deadline_after(campaign: Campaign, start: dt.datetime) -> dt.datetime:
    """The instant turn 1's deadline must come after: a campaign started shortly before its
    weekly slot would otherwise open a turn of a few hours, in which the attempt cut-off
    (R46) has already passed and nobody may attack. Turn 1 therefore leaves the players at
    least a full day before that cut-off; its deadline is the first weekly slot after this."""
    return start + dt.timedelta(hours=campaign.attempt_cutoff_hours + 24)


def early_deadline(campaign: Campaign, opened_at: dt.datetime) -> dt.datetime:
    """R30: the deadline of a turn that opens at `opened_at` because the turn before it was
    processed early: the first weekly deadline that leaves at least the campaign's minimum
    turn length after it opens. Counting from the old deadline instead pushed every early
    turn a week further out (three early turns once put turn 4 27 days away)."""
    earliest = opened_at + dt.timedelta(hours=campaign.min_turn_hours)
    # next_deadline is strictly after; a deadline exactly the minimum away is allowed.
    return next_deadline(campaign, earliest - dt.timedelta(microseconds=1))


def following_deadline(campaign: Campaign, deadline: dt.datetime, now: dt.datetime) -> dt.datetime:
    """R30: when the next turn is due if the open turn, due at `deadline`, is processed at
    `now`. Early: see early_deadline. On time or late: the next weekly deadline after the
    old one, so missed weeks are each processed in turn. The turn job and the GM's
    confirmation page both ask this, so the page shows the date the job will set."""
    if now < deadline:
        return early_deadline(campaign, now)
    return next_deadline(campaign, deadline)
