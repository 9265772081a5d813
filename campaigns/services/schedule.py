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
