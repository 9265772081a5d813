"""RULES R30: weekly deadlines at a wall-clock time in the campaign's own time zone, across
daylight-saving changes; the tick (turns_due + turn_process) runs each turn once, at its
deadline, and catches up missed weeks in order. The clock is simulated: every instant is
passed in as `now`."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, Turn, TurnRecord, Weekday
from campaigns.selectors.turns import turns_due
from campaigns.services.schedule import next_deadline
from campaigns.services.turns import campaign_set_status, turn_process
from tests.support.turn_job import GM_EMAIL, UTC, Game, make_due, started_campaign

HOUR = dt.timedelta(hours=1)
MINUTE = dt.timedelta(minutes=1)


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def schedule(zone: str, weekday: int = Weekday.FRIDAY, at: dt.time = dt.time(18, 0)) -> Campaign:
    """An unsaved campaign: next_deadline needs only its schedule."""
    return Campaign(time_zone=zone, deadline_weekday=weekday, deadline_time=at)


# --- next_deadline ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "after", "expected"),
    [
        # Berlin: CET (UTC+1) until Sunday 2026-03-29, CEST (UTC+2) until Sunday 2026-10-25.
        ("Europe/Berlin", utc(2026, 3, 26, 12), utc(2026, 3, 27, 17)),
        ("Europe/Berlin", utc(2026, 3, 27, 17), utc(2026, 4, 3, 16)),  # across spring forward
        ("Europe/Berlin", utc(2026, 10, 23, 16), utc(2026, 10, 30, 17)),  # across fall back
        ("Europe/Berlin", utc(2026, 7, 10, 15, 59), utc(2026, 7, 10, 16)),
        # New York: EST (UTC-5) until Sunday 2026-03-08, EDT (UTC-4) until 2026-11-01.
        ("America/New_York", utc(2026, 3, 6, 23), utc(2026, 3, 13, 22)),
        ("America/New_York", utc(2026, 10, 30, 22), utc(2026, 11, 6, 23)),
        # 18:00 EST is 23:00 UTC the same Friday; one second later is next week.
        ("America/New_York", utc(2026, 1, 2, 23, 0, 1), utc(2026, 1, 9, 23)),
        ("UTC", utc(2026, 1, 2, 17, 59, 59), utc(2026, 1, 2, 18)),
    ],
)
def test_next_deadline_is_the_wall_clock_time_in_the_campaigns_zone(
    zone: str, after: dt.datetime, expected: dt.datetime
) -> None:
    assert next_deadline(schedule(zone), after) == expected


def test_next_deadline_is_strictly_after_and_in_utc() -> None:
    deadline = utc(2026, 1, 9, 17)
    assert next_deadline(schedule("Europe/Berlin"), deadline - dt.timedelta(microseconds=1)) == (
        deadline
    )
    result = next_deadline(schedule("Europe/Berlin"), deadline)
    assert result == utc(2026, 1, 16, 17)
    assert result.utcoffset() == dt.timedelta(0)


def test_next_deadline_takes_an_instant_in_any_zone() -> None:
    tokyo = dt.datetime(2026, 1, 10, 1, 30, tzinfo=ZoneInfo("Asia/Tokyo"))  # Fri 16:30 UTC
    assert next_deadline(schedule("Europe/Berlin"), tokyo) == utc(2026, 1, 9, 17)
    tokyo = dt.datetime(2026, 1, 10, 2, 30, tzinfo=ZoneInfo("Asia/Tokyo"))  # Fri 17:30 UTC
    assert next_deadline(schedule("Europe/Berlin"), tokyo) == utc(2026, 1, 16, 17)


def test_a_deadline_inside_the_spring_forward_gap_falls_an_hour_later() -> None:
    """Sunday 02:30 does not exist in Berlin on 2026-03-29 (02:00 CET -> 03:00 CEST). It is
    read with the offset before the gap (UTC+1): 01:30 UTC, which the clocks show as 03:30.
    Open corner decided by schedule.next_deadline's docstring (zoneinfo's fold=0)."""
    berlin = schedule("Europe/Berlin", weekday=Weekday.SUNDAY, at=dt.time(2, 30))
    assert next_deadline(berlin, utc(2026, 3, 28, 12)) == utc(2026, 3, 29, 1, 30)
    assert next_deadline(berlin, utc(2026, 3, 29, 1, 29)) == utc(2026, 3, 29, 1, 30)
    # The week after, 02:30 exists again (CEST): 00:30 UTC.
    assert next_deadline(berlin, utc(2026, 3, 29, 1, 30)) == utc(2026, 4, 5, 0, 30)
    new_york = schedule("America/New_York", weekday=Weekday.SUNDAY, at=dt.time(2, 30))
    assert next_deadline(new_york, utc(2026, 3, 7)) == utc(2026, 3, 8, 7, 30)


def test_a_deadline_in_the_repeated_fall_back_hour_is_its_first_occurrence() -> None:
    """Sunday 02:30 happens twice in Berlin on 2026-10-25: the deadline is the first (CEST,
    00:30 UTC), once; the second 02:30 (01:30 UTC) is not another deadline."""
    berlin = schedule("Europe/Berlin", weekday=Weekday.SUNDAY, at=dt.time(2, 30))
    assert next_deadline(berlin, utc(2026, 10, 24, 12)) == utc(2026, 10, 25, 0, 30)
    assert next_deadline(berlin, utc(2026, 10, 25, 0, 30)) == utc(2026, 11, 1, 1, 30)


ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]


@settings(max_examples=300, deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    weekday=st.sampled_from(list(Weekday)),
    at=st.times(),
    after=st.datetimes(
        min_value=dt.datetime(2025, 1, 1), max_value=dt.datetime(2028, 1, 1), timezones=st.just(UTC)
    ),
)
def test_next_deadline_is_the_first_weekly_slot_after_any_instant(
    zone: str, weekday: int, at: dt.time, after: dt.datetime
) -> None:
    campaign = schedule(zone, weekday, at)
    result = next_deadline(campaign, after)
    assert result > after
    assert result - after <= dt.timedelta(days=7, hours=1)
    local = result.astimezone(ZoneInfo(zone))
    assert local.weekday() == weekday
    if local.time() != at:  # only inside a spring-forward gap: the wall time does not exist
        wall = dt.datetime.combine(local.date(), at, tzinfo=ZoneInfo(zone))
        assert wall.astimezone(UTC).astimezone(ZoneInfo(zone)).replace(tzinfo=None) != (
            wall.replace(tzinfo=None)
        )
    # Nothing in between: from any instant before it, the next slot is still this one.
    assert next_deadline(campaign, result - dt.timedelta(microseconds=1)) == result
    assert next_deadline(campaign, after + (result - after) / 2) == result


# --- the tick through a whole year ----------------------------------------------------------


def summer_time(zone: str, day: dt.date) -> bool:
    """2026's daylight-saving dates, written out (not asked of zoneinfo)."""
    if zone == "Europe/Berlin":
        return dt.date(2026, 3, 29) < day < dt.date(2026, 10, 25)
    assert zone == "America/New_York"
    return dt.date(2026, 3, 8) < day < dt.date(2026, 11, 1)


# 18:00 local in UTC: Berlin 16:00 in summer, 17:00 in winter; New York 22:00 and 23:00.
UTC_HOUR = {"Europe/Berlin": (16, 17), "America/New_York": (22, 23)}
FRIDAYS_2026 = [dt.date(2026, 1, 2) + dt.timedelta(weeks=n) for n in range(52)]


def expected_deadline(zone: str, day: dt.date) -> dt.datetime:
    summer, winter = UTC_HOUR[zone]
    hour = summer if summer_time(zone, day) else winter
    return dt.datetime.combine(day, dt.time(hour), tzinfo=UTC)


@pytest.mark.slow
@pytest.mark.django_db
def test_a_year_of_hourly_ticks_processes_each_week_once_at_its_deadline() -> None:
    # A Wednesday: turn 1 leaves a day before the attempt cut-off (R46), so its deadline is
    # Friday 2 January (started on the Thursday, it would be the 9th).
    start = utc(2025, 12, 31, 0)
    games = {
        zone: started_campaign(
            boards=1, start=start, time_zone=zone, slug=zone.split("/")[1].lower()
        )
        for zone in UTC_HOUR
    }
    zone_of = {game.campaign.pk: zone for zone, game in games.items()}
    runs: dict[str, list[tuple[int, dt.datetime]]] = {zone: [] for zone in UTC_HOUR}

    now = start
    while now < utc(2027, 1, 1):
        for campaign_id, number in turns_due(now):
            assert (campaign_id, number) not in turns_due(now - MINUTE)  # due at now, not before
            opened = turn_process(campaign_id=campaign_id, number=number, now=now)
            assert opened is not None
            runs[zone_of[campaign_id]].append((number, now))
        now += HOUR

    for zone, game in games.items():
        expected = [expected_deadline(zone, friday) for friday in FRIDAYS_2026]
        assert runs[zone] == list(enumerate(expected, start=1)), zone
        processed = Turn.objects.filter(campaign=game.campaign, number__gte=1).exclude(
            status=Turn.Status.OPEN
        )
        assert [(t.number, t.deadline, t.processed_at) for t in processed] == [
            (n, d, d) for n, d in enumerate(expected, start=1)
        ]
        assert TurnRecord.objects.filter(turn__campaign=game.campaign).count() == 53  # 0..52
        (still_open,) = Turn.objects.filter(campaign=game.campaign, status=Turn.Status.OPEN)
        assert still_open.number == 53
        assert still_open.deadline == expected_deadline(zone, dt.date(2027, 1, 1))

    deadlines = {
        (zone, t.deadline.date()): t.deadline
        for zone, game in games.items()
        for t in game.campaign.turns.all()
    }
    # The weeks around the changes, by hand.
    assert deadlines["Europe/Berlin", dt.date(2026, 3, 27)] == utc(2026, 3, 27, 17)
    assert deadlines["Europe/Berlin", dt.date(2026, 4, 3)] == utc(2026, 4, 3, 16)
    assert deadlines["Europe/Berlin", dt.date(2026, 10, 23)] == utc(2026, 10, 23, 16)
    assert deadlines["Europe/Berlin", dt.date(2026, 10, 30)] == utc(2026, 10, 30, 17)
    assert deadlines["America/New_York", dt.date(2026, 3, 6)] == utc(2026, 3, 6, 23)
    assert deadlines["America/New_York", dt.date(2026, 3, 13)] == utc(2026, 3, 13, 22)
    assert deadlines["America/New_York", dt.date(2026, 10, 30)] == utc(2026, 10, 30, 22)
    assert deadlines["America/New_York", dt.date(2026, 11, 6)] == utc(2026, 11, 6, 23)


# --- catching up, pausing ----------------------------------------------------------------------


def tick(now: dt.datetime) -> list[int]:
    """What the beat tick and process_turn's chaining do together, on a simulated clock:
    process every due turn, then whatever became due by doing so."""
    done = []
    while due := turns_due(now):
        for campaign_id, number in due:
            assert turn_process(campaign_id=campaign_id, number=number, now=now) is not None
            done.append(number)
    return done


@pytest.mark.django_db
def test_after_two_missed_deadlines_both_turns_run_in_order_once_and_the_gm_is_told(
    django_capture_on_commit_callbacks, mailoutbox
) -> None:
    start = utc(2026, 1, 3, 10)  # Saturday; deadlines Fri 9 and Fri 16 January, 17:00 UTC
    game = started_campaign(start=start)
    now = start + dt.timedelta(days=15)  # Sunday 18 January: the service was down

    with django_capture_on_commit_callbacks(execute=True):
        assert tick(now) == [1, 2]
        assert tick(now) == []

    turn_1, turn_2, turn_3 = (game.turn(n) for n in (1, 2, 3))
    assert (turn_1.deadline, turn_2.deadline) == (utc(2026, 1, 9, 17), utc(2026, 1, 16, 17))
    assert turn_1.status == turn_2.status == Turn.Status.PROCESSED
    assert turn_1.processed_at == turn_2.processed_at == now
    assert (turn_3.status, turn_3.deadline) == (Turn.Status.OPEN, utc(2026, 1, 23, 17))
    assert turn_3.deadline > now
    records = list(TurnRecord.objects.filter(turn__number__gte=1).order_by("pk"))
    assert [(r.turn.number, r.board_id) for r in records] == [
        (1, game.boards[0].pk),
        (1, game.boards[1].pk),
        (2, game.boards[0].pk),
        (2, game.boards[1].pk),
    ]
    late = [m for m in mailoutbox if "late" in m.subject]
    assert [m.subject for m in late] == [
        f"[{game.campaign.name}] Turn 1 was processed late",
        f"[{game.campaign.name}] Turn 2 was processed late",
    ]
    assert all(m.to == [GM_EMAIL] for m in late)
    assert "2026-01-09 17:00 UTC" in late[0].body


@pytest.mark.django_db
def test_a_turn_processed_on_time_is_not_reported_late(
    django_capture_on_commit_callbacks, mailoutbox
) -> None:
    game = started_campaign(start=utc(2026, 1, 3, 10))
    with django_capture_on_commit_callbacks(execute=True):
        assert tick(utc(2026, 1, 9, 17, 5)) == [1]
    assert not [m for m in mailoutbox if "late" in m.subject]
    assert f"[{game.campaign.name}] Turn 1 processed" in {m.subject for m in mailoutbox}


@pytest.mark.django_db
def test_a_paused_campaign_is_not_due_and_resuming_gives_the_next_slot() -> None:
    game = started_campaign(start=utc(2026, 1, 3, 10))
    campaign_set_status(campaign=game.campaign, status=Campaign.Status.PAUSED, now=utc(2026, 1, 5))
    assert turns_due(utc(2026, 1, 20)) == []

    campaign_set_status(
        campaign=game.campaign, status=Campaign.Status.RUNNING, now=utc(2026, 1, 20)
    )

    assert game.turn(1).deadline == utc(2026, 1, 23, 17)  # not processed at once
    assert turns_due(utc(2026, 1, 20)) == []
    assert turns_due(utc(2026, 1, 23, 17)) == [(game.campaign.pk, 1)]


@pytest.mark.django_db
def test_resuming_before_the_deadline_keeps_it() -> None:
    game = started_campaign(start=utc(2026, 1, 3, 10))
    campaign_set_status(campaign=game.campaign, status=Campaign.Status.PAUSED, now=utc(2026, 1, 5))
    campaign_set_status(campaign=game.campaign, status=Campaign.Status.RUNNING, now=utc(2026, 1, 6))
    assert game.turn(1).deadline == utc(2026, 1, 9, 17)


@pytest.mark.django_db
def test_r30_a_turn_processed_early_does_not_cut_the_next_one_short() -> None:
    """Turn 1 is due Friday 9 January; the GM processes it on Wednesday the 7th. Friday the
    9th would leave turn 2 only 53 hours, less than the minimum turn length (72): turn 2 is
    due Friday 16th, not two days later."""
    game = started_campaign(start=utc(2026, 1, 3, 10))
    opened = turn_process(campaign_id=game.campaign.pk, number=1, now=utc(2026, 1, 7, 12))
    assert opened is not None
    assert opened.deadline == utc(2026, 1, 16, 17)


@pytest.mark.django_db
def test_r30_an_extended_deadline_is_followed_by_the_next_weekly_slot() -> None:
    """The GM extended turn 1 to Saturday 10th, 12:00 UTC; turn 2 is due Friday 16th."""
    game = started_campaign(start=utc(2026, 1, 3, 10))
    make_due(game, 1, utc(2026, 1, 10, 12))
    opened = turn_process(campaign_id=game.campaign.pk, number=1, now=utc(2026, 1, 10, 12, 5))
    assert opened is not None
    assert opened.deadline == utc(2026, 1, 16, 17)


# --- R30: the next deadline after a turn processed early ----------------------------------------

FRIDAY_9 = utc(2026, 1, 9, 17)  # 18:00 in Berlin: the regular deadline of turn 1
FRIDAY_16 = utc(2026, 1, 16, 17)


def process_early(game: Game, number: int, now: dt.datetime) -> Turn:
    """The turn job, as *Process turn now* runs it, at `now` (before the turn's deadline)."""
    assert now < game.turn(number).deadline
    opened = turn_process(campaign_id=game.campaign.pk, number=number, now=now)
    assert opened is not None
    return opened


@pytest.mark.django_db
def test_r30_three_early_turns_in_a_row_do_not_push_the_deadline_further_out() -> None:
    """Issue 25: turns 1, 2 and 3 processed early on Saturday, Sunday and Monday each put
    the next deadline a week later (turn 4 was due Friday 30 January, 27 days away). Each
    next turn is due at the first regular deadline at least 72 hours away: Friday 9th."""
    game = started_campaign(start=utc(2026, 1, 3, 10))  # Saturday; turn 1 due Friday 9th
    assert game.turn(1).deadline == FRIDAY_9
    for number, day in [(1, 3), (2, 4), (3, 5)]:
        opened = process_early(game, number, utc(2026, 1, day, 12))
        assert (opened.number, opened.deadline) == (number + 1, FRIDAY_9)
    # Not early, the weekly schedule holds, however little is left of the week (the
    # minimum is for early processing only): at that deadline the tick processes turn 4
    # on time, and turn 5 is due a week later; turn 5 processed six days late, a day
    # before turn 6's deadline, still leaves turn 6 due Friday 23rd.
    assert tick(FRIDAY_9) == [4]
    assert game.turn(5).deadline == FRIDAY_16
    late = turn_process(campaign_id=game.campaign.pk, number=5, now=utc(2026, 1, 22, 17))
    assert late is not None and late.deadline == utc(2026, 1, 23, 17)


@pytest.mark.parametrize(
    ("hours", "now", "due"),
    [
        # Exactly the minimum before Friday 9th: that deadline still counts.
        (72, FRIDAY_9 - dt.timedelta(hours=72), FRIDAY_9),
        # A minute less than the minimum: the regular deadline after it.
        (72, FRIDAY_9 - dt.timedelta(hours=72) + MINUTE, FRIDAY_16),
        # A shorter minimum of the GM's: Wednesday noon leaves 53 hours, enough for 24.
        (24, utc(2026, 1, 7, 12), FRIDAY_9),
        (24, FRIDAY_9 - dt.timedelta(hours=23), FRIDAY_16),
        # A week's minimum: from Saturday, Friday 9th is only 149 hours away.
        (168, utc(2026, 1, 3, 12), FRIDAY_16),
    ],
)
@pytest.mark.django_db
def test_r30_the_next_turn_after_an_early_one_leaves_at_least_the_minimum_length(
    hours: int, now: dt.datetime, due: dt.datetime
) -> None:
    game = started_campaign(start=utc(2026, 1, 3, 10))
    Campaign.objects.filter(pk=game.campaign.pk).update(min_turn_hours=hours)
    opened = process_early(game, 1, now)
    assert opened.deadline == due
    assert opened.deadline - opened.opened_at >= dt.timedelta(hours=hours)
    assert opened.opened_at == now
