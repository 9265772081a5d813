"""RULES R30: the GM extends one turn's deadline (the service, the page, and once in a real
browser). The demo is due Fridays 18:00 Europe/Berlin; turn 1 is open."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Membership, Notice, PlayerTurn, Turn
from campaigns.selectors.turns import turns_due
from campaigns.services.campaigns import campaign_pause, campaign_resume, turn_extend_deadline
from campaigns.services.demo import demo_create
from campaigns.services.reminders import reminders_send
from campaigns.services.turns import turn_process, turn_process_safely
from campaigns.stored_times import time_marker
from tests.support.browser import BROWSER_MARKS, DESKTOP, log_in, shot

BERLIN = ZoneInfo("Europe/Berlin")
URL = reverse("extend_deadline", args=["tourmaline"])


def open_turn(campaign: Campaign) -> Turn:
    return campaign.turns.get(status=Turn.Status.OPEN)


def test_extending_moves_the_deadline_and_tells_every_player(
    demo: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    turn = open_turn(demo)
    later = turn.deadline + dt.timedelta(days=2, hours=3)
    with django_capture_on_commit_callbacks(execute=True):
        moved = turn_extend_deadline(campaign=demo, number=turn.number, deadline=later)
    turn.refresh_from_db()
    assert moved.pk == turn.pk and turn.deadline == later
    local = later.astimezone(BERLIN)
    players = ["alice", "bob", "carol"]
    notices = Notice.objects.filter(turn=turn).select_related("player__user")
    assert sorted(n.player.user.username for n in notices) == players
    # The notice holds the instant, put into words in each reader's zone (test_stored_times.py).
    assert all(time_marker(later) in n.text and "extended" in n.text for n in notices)
    assert sorted(m.to[0].split("@")[0] for m in mail.outbox) == players
    assert all(m.subject.endswith("Turn 1 deadline extended") for m in mail.outbox)
    assert f"{local:%A %d %B %Y at %H:%M}" in mail.outbox[0].body


def test_a_player_reminded_of_the_old_deadline_is_reminded_once_more(
    demo: Campaign, django_capture_on_commit_callbacks: Any
) -> None:
    turn = open_turn(demo)
    assert reminders_send(turn.deadline - dt.timedelta(hours=2)) == 3  # nobody has orders
    new = turn.deadline + dt.timedelta(hours=5)
    turn_extend_deadline(campaign=demo, number=1, deadline=new)
    assert reminders_send(new - dt.timedelta(hours=2)) == 3
    assert reminders_send(new - dt.timedelta(hours=1)) == 0
    assert set(PlayerTurn.objects.values_list("reminded_for", flat=True)) == {new}


def test_the_next_turn_is_due_at_the_first_regular_slot_after_the_new_deadline(
    demo: Campaign,
) -> None:
    turn = open_turn(demo)
    friday = turn.deadline
    sunday = friday + dt.timedelta(days=2)
    turn_extend_deadline(campaign=demo, number=1, deadline=sunday)
    opened = turn_process(campaign_id=demo.pk, number=1, now=sunday + dt.timedelta(minutes=1))
    assert opened is not None
    # The next Friday, 18:00 in Berlin (wall time: a DST change may fall in between).
    next_friday = friday.astimezone(BERLIN).date() + dt.timedelta(days=7)
    assert opened.deadline == dt.datetime.combine(next_friday, dt.time(18, 0), tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("earlier", "later than the current one"),
        ("same", "later than the current one"),
        ("too far", "at most 28 days"),
        ("wrong turn", "Turn 2 is not open"),
        ("already due", "deadline has passed"),
        ("finished", "is finished"),
    ],
)
def test_refusals_say_why_and_change_nothing(demo: Campaign, case: str, message: str) -> None:
    turn = open_turn(demo)
    before = turn.deadline
    number, deadline, now = 1, before + dt.timedelta(hours=1), None
    if case == "earlier":
        deadline = before - dt.timedelta(hours=1)
    elif case == "same":
        deadline = before
    elif case == "too far":
        deadline = before + dt.timedelta(days=28, minutes=1)
    elif case == "wrong turn":
        number = 2
    elif case == "already due":
        now = before + dt.timedelta(minutes=1)
    else:
        Campaign.objects.filter(pk=demo.pk).update(status=Campaign.Status.FINISHED)
    with pytest.raises(ValueError, match=message):
        turn_extend_deadline(campaign=demo, number=number, deadline=deadline, now=now)
    turn.refresh_from_db()
    assert turn.deadline == before
    assert not Notice.objects.exists()


def test_a_paused_campaign_s_passed_deadline_can_be_moved_into_the_future(
    demo: Campaign,
) -> None:
    turn = open_turn(demo)
    Campaign.objects.filter(pk=demo.pk).update(status=Campaign.Status.PAUSED)
    now = turn.deadline + dt.timedelta(days=3)
    with pytest.raises(ValueError, match="later than the current one"):
        turn_extend_deadline(campaign=demo, number=1, deadline=now - dt.timedelta(hours=1), now=now)
    new = now + dt.timedelta(days=1)
    turn_extend_deadline(campaign=demo, number=1, deadline=new, now=now)
    turn.refresh_from_db()
    assert turn.deadline == new


# --- the page --------------------------------------------------------------------------------


def test_the_gm_types_the_new_deadline_in_the_campaign_s_time_zone(
    demo: Campaign, client_for: Any
) -> None:
    gm = client_for("gm")
    turn = open_turn(demo)
    page = gm.get(URL)
    assert page.status_code == 200
    local = turn.deadline.astimezone(BERLIN)
    assert f'value="{local:%Y-%m-%dT%H:%M}"' in page.content.decode()
    assert "Europe/Berlin" in page.content.decode()
    new_local = (local + dt.timedelta(days=1)).replace(hour=21, minute=30)
    response = gm.post(URL, {"number": 1, "deadline": f"{new_local:%Y-%m-%dT%H:%M}"})
    assert response.status_code == 302
    turn.refresh_from_db()
    assert turn.deadline == new_local.replace(tzinfo=None).replace(tzinfo=BERLIN)
    messages = [
        str(m) for m in gm.get(reverse("campaign", args=["tourmaline"])).context["messages"]
    ]
    assert messages == ["Turn 1's deadline is extended."]


def test_a_time_that_does_not_exist_in_the_zone_is_a_form_error(
    demo: Campaign, client_for: Any
) -> None:
    """Clocks in Berlin jump from 02:00 to 03:00 on 28 March 2027: 02:30 never happens."""
    turn = open_turn(demo)
    friday = dt.datetime(2027, 3, 26, 18, 0, tzinfo=BERLIN)
    Turn.objects.filter(pk=turn.pk).update(deadline=friday)
    response = client_for("gm").post(URL, {"number": 1, "deadline": "2027-03-28T02:30"})
    assert response.status_code == 200
    assert "may be ambiguous or it may not exist" in response.content.decode()
    turn.refresh_from_db()
    assert turn.deadline == friday


@pytest.mark.parametrize(
    "data",
    [
        {"number": 1, "deadline": "not a date"},
        {"number": 1, "deadline": ""},
        {"number": "x", "deadline": "2030-01-01T18:00"},
        {"number": 1, "deadline": "2001-01-01T18:00"},
        {"number": 1, "deadline": "9999-12-31T23:59"},
    ],
)
def test_bad_input_is_a_form_error_and_changes_nothing(
    demo: Campaign, client_for: Any, data: dict[str, Any]
) -> None:
    before = open_turn(demo).deadline
    response = client_for("gm").post(URL, data)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert open_turn(demo).deadline == before
    assert not Notice.objects.exists()


@pytest.mark.parametrize(("username", "status"), [("alice", 403), ("outsider", 404)])
def test_only_the_gm_may_extend(
    demo: Campaign, client_for: Any, django_user_model: Any, username: str, status: int
) -> None:
    if username == "outsider":
        django_user_model.objects.create_user("outsider", password="x")
    else:
        assert demo.memberships.get(user__username=username).role == Membership.Role.PLAYER
    before = open_turn(demo).deadline
    client = client_for(username)
    assert client.get(URL).status_code == status
    response = client.post(URL, {"number": 1, "deadline": "2030-01-01T18:00"})
    assert response.status_code == status
    assert open_turn(demo).deadline == before


# --- in a real browser -----------------------------------------------------------------------


@pytest.mark.browser
@BROWSER_MARKS[1]
def test_the_gm_extends_the_deadline_in_a_browser_and_alice_is_told(
    live_server: Any, transactional_db: None, browser: Any
) -> None:
    from playwright.sync_api import expect

    campaign = demo_create()
    turn = open_turn(campaign)
    new_local = (turn.deadline.astimezone(BERLIN) + dt.timedelta(days=1)).replace(hour=20)
    base = live_server.url
    gm = log_in(browser, base, "gm", DESKTOP)
    gm.goto(f"{base}{campaign.get_absolute_url()}")
    gm.get_by_role("link", name="Extend the deadline…").click()
    expect(gm.get_by_role("heading", name="Extend the deadline of turn 1")).to_be_visible()
    gm.fill("#id_deadline", f"{new_local:%Y-%m-%dT%H:%M}")
    shot(gm, "extend-deadline-gm-desktop")
    gm.get_by_role("button", name="Extend the deadline").click()
    expect(gm.locator(".alert-success")).to_contain_text("deadline is extended")
    turn.refresh_from_db()
    assert turn.deadline == new_local
    assert turn.deadline > timezone.now()

    alice = log_in(browser, base, "alice", DESKTOP)
    alice.goto(f"{base}{reverse('orders', args=[campaign.slug])}")
    expect(alice.locator("#notices")).to_contain_text("The GM extended the deadline of turn 1")


def test_a_queued_job_for_a_turn_whose_deadline_was_extended_meanwhile_does_nothing(
    demo: Campaign,
) -> None:
    """The tick found the turn due and queued the job; before a worker ran it, the GM
    paused, extended the deadline and resumed. The job decides under the lock: not due."""
    turn = open_turn(demo)
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - dt.timedelta(minutes=1))
    assert turns_due() == [(demo.pk, 1)]  # queued by the tick
    campaign_pause(campaign=demo)
    new = timezone.now() + dt.timedelta(days=2)
    turn_extend_deadline(campaign=demo, number=1, deadline=new)
    campaign_resume(campaign=demo)
    assert turn_process_safely(campaign_id=demo.pk, number=1) is None  # the queued job
    turn.refresh_from_db()
    assert (turn.status, turn.deadline) == (Turn.Status.OPEN, new)


def test_a_campaign_paused_long_past_its_deadline_can_still_be_extended(demo: Campaign) -> None:
    turn = open_turn(demo)
    Campaign.objects.filter(pk=demo.pk).update(status=Campaign.Status.PAUSED)
    now = turn.deadline + dt.timedelta(days=40)
    new = now + dt.timedelta(days=3)
    turn_extend_deadline(campaign=demo, number=1, deadline=new, now=now)
    turn.refresh_from_db()
    assert turn.deadline == new
