"""Mail (issue 4, part 7): the turn-processed mail with the report link, reminders once
per deadline to players with no orders, each kind switched off per user on a settings page."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from campaigns import tasks
from campaigns.models import Campaign, NotificationSettings, Order, PlayerTurn, Turn
from campaigns.selectors.turns import MAIL_SWEEP_AFTER
from campaigns.services.demo import demo_create
from campaigns.services.notifications import notify_turn_processed
from campaigns.services.reminders import reminder_claim, reminders_send
from campaigns.services.turn_mail import turn_mail_send
from campaigns.services.turns import turn_process
from tests.support.demo import Played
from tests.support.handmade import ClientFor

SITE = "https://illumineaucracy.example.org"


def recipients(mailoutbox: list) -> list[str]:
    return sorted(address for mail in mailoutbox for address in mail.to)


def opt_out(username: str, **kinds: bool) -> None:
    user = get_user_model().objects.get(username=username)
    NotificationSettings.objects.update_or_create(user=user, defaults=kinds)


# --- Turn processed --------------------------------------------------------------------------


def test_the_turn_mail_links_each_member_to_the_report(
    played: Played, settings: Any, mailoutbox: list
) -> None:
    settings.SITE_URL = SITE
    assert notify_turn_processed(played.campaign, 1) == 4
    assert recipients(mailoutbox) == [f"{u}@example.com" for u in ["alice", "bob", "carol", "gm"]]
    for mail in mailoutbox:
        assert f"{SITE}/c/tourmaline/turn/1/report/" in mail.body
        assert "Turn 1 processed" in mail.subject
        # Nothing of the turn itself: no department, no order, no roll.
        for secret in ["Mint", "Guild", "Thieves", "SENTINEL", ":function", ":attack"]:
            assert secret not in mail.body


def test_the_turn_mail_respects_the_opt_out(played: Played, mailoutbox: list) -> None:
    opt_out("bob", turn_processed=False)
    opt_out("carol", reminders=False)  # another kind: she still gets this one
    notify_turn_processed(played.campaign, 1)
    assert "bob@example.com" not in recipients(mailoutbox)
    assert "carol@example.com" in recipients(mailoutbox)


def test_the_turn_job_sends_the_mail_after_commit(
    db: None, mailoutbox: list, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = demo_create()
    opt_out("alice", turn_processed=False)
    with django_capture_on_commit_callbacks(execute=True):
        turn_process(campaign_id=campaign.pk, number=1)
    assert recipients(mailoutbox) == ["bob@example.com", "carol@example.com", "gm@example.com"]
    assert all("/c/tourmaline/turn/1/report/" in m.body for m in mailoutbox)


def test_the_turn_mail_goes_out_once_however_often_its_task_runs(
    db: None, mailoutbox: list, django_capture_on_commit_callbacks: Any
) -> None:
    """R31 step 4 in its own task: run again (a redelivery, the tick's sweep), it finds the
    turn's mail claimed in the database and sends nothing."""
    campaign = demo_create()
    with django_capture_on_commit_callbacks(execute=True):
        turn_process(campaign_id=campaign.pk, number=1)
    turn = campaign.turns.get(number=1)
    assert len(mailoutbox) == 4 and not turn.mail_owed

    assert tasks.send_turn_mail(turn.pk) == 0
    assert turn_mail_send(turn_id=turn.pk) == 0
    assert len(mailoutbox) == 4


def test_the_tick_sends_the_turn_mail_nobody_queued(db: None, mailoutbox: list) -> None:
    """The process died between the turn's commit and queueing its mail (here: the on-commit
    hooks never run): the turn owes its mail, and the tick's sweep sends it, once."""
    campaign = demo_create()
    turn_process(campaign_id=campaign.pk, number=1)
    turn = campaign.turns.get(number=1)
    assert turn.mail_owed and mailoutbox == []
    tasks.process_due_turns()
    assert mailoutbox == []  # not yet: the job's own task may still be on its way

    Turn.objects.filter(pk=turn.pk).update(processed_at=turn.processed_at - MAIL_SWEEP_AFTER)
    tasks.process_due_turns()
    tasks.process_due_turns()

    assert recipients(mailoutbox) == [f"{u}@example.com" for u in ["alice", "bob", "carol", "gm"]]


# --- Reminders -------------------------------------------------------------------------------


@pytest.fixture
def week(db: None) -> tuple[Campaign, Turn]:
    """The demo with turn 1 open; Alice has queued an order, Bob and Carol nothing."""
    campaign = demo_create()
    turn = campaign.turns.get(number=1)
    alice = campaign.memberships.get(user__username="alice")
    Order.objects.create(
        turn=turn, board=campaign.boards.get(slug="city"), player=alice,
        kind=Order.Kind.FUNCTION, payload={"department": "mint", "function": "coinage"},
    )  # fmt: skip
    return campaign, turn


def soon(turn: Turn, hours: float = 2) -> dt.datetime:
    return turn.deadline - dt.timedelta(hours=hours)


def test_a_reminder_goes_once_to_players_with_no_orders(
    week: tuple[Campaign, Turn], mailoutbox: list
) -> None:
    _campaign, turn = week
    assert reminders_send(soon(turn)) == 2
    assert recipients(mailoutbox) == ["bob@example.com", "carol@example.com"]
    assert "no orders" in mailoutbox[0].subject
    assert "/c/tourmaline/" in mailoutbox[0].body
    assert "Mint" not in mailoutbox[0].body
    assert reminders_send(soon(turn, 1)) == 0
    assert len(mailoutbox) == 2


def test_no_reminder_before_the_lead_time_nor_after_the_deadline_nor_when_paused(
    week: tuple[Campaign, Turn], mailoutbox: list
) -> None:
    campaign, turn = week
    assert campaign.reminder_hours == 24
    assert reminders_send(soon(turn, 25)) == 0
    assert reminders_send(turn.deadline + dt.timedelta(minutes=1)) == 0
    campaign.status = Campaign.Status.PAUSED
    campaign.save()
    assert reminders_send(soon(turn)) == 0
    assert mailoutbox == []


def test_moving_the_deadline_rearms_exactly_one_reminder(
    week: tuple[Campaign, Turn], mailoutbox: list
) -> None:
    _campaign, turn = week
    now = soon(turn)
    assert reminders_send(now) == 2
    # The GM extends the deadline twice before the next tick: one more reminder each, not two.
    turn.deadline += dt.timedelta(hours=3)
    turn.save()
    turn.deadline += dt.timedelta(hours=1)
    turn.save()
    assert reminders_send(now) == 2
    assert reminders_send(now) == 0
    assert reminders_send(now + dt.timedelta(minutes=5)) == 0
    assert recipients(mailoutbox) == ["bob@example.com"] * 2 + ["carol@example.com"] * 2
    assert set(PlayerTurn.objects.filter(turn=turn).values_list("reminded_for", flat=True)) == {
        turn.deadline
    }


def test_a_second_claim_of_the_same_deadline_loses(week: tuple[Campaign, Turn]) -> None:
    """What two ticks racing come down to: one conditional UPDATE changes the row, the
    other finds it already set to this deadline."""
    campaign, turn = week
    bob = campaign.memberships.get(user__username="bob")
    assert reminder_claim(turn, bob) is True
    assert reminder_claim(turn, bob) is False


def test_reminders_respect_the_opt_out_and_readiness(
    week: tuple[Campaign, Turn], mailoutbox: list
) -> None:
    campaign, turn = week
    opt_out("carol", reminders=False)
    bob = campaign.memberships.get(user__username="bob")
    assert reminders_send(soon(turn)) == 1
    assert recipients(mailoutbox) == ["bob@example.com"]
    # Carol switches reminders back on: this deadline's is spent (claimed), no late one.
    opt_out("carol", reminders=True)
    assert reminders_send(soon(turn)) == 0
    # A player who marked themselves ready with no orders chose to pass: no reminder.
    turn.deadline += dt.timedelta(hours=1)
    turn.save()
    PlayerTurn.objects.filter(turn=turn, player=bob).update(ready_at=soon(turn, 5))
    assert reminders_send(soon(turn)) == 1
    assert recipients(mailoutbox)[-1] == "carol@example.com"


def test_the_command_and_the_task_send_reminders(
    week: tuple[Campaign, Turn], mailoutbox: list, capsys: Any
) -> None:
    _campaign, turn = week
    turn.deadline = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    turn.save()
    call_command("send_reminders")
    assert "sent 2 reminder(s)" in capsys.readouterr().out
    turn.deadline += dt.timedelta(minutes=30)
    turn.save()
    assert tasks.send_reminders() == 2
    assert len(mailoutbox) == 4


def test_the_beat_runs_reminders_every_five_minutes(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["send-reminders"]
    assert entry == {"task": "campaigns.tasks.send_reminders", "schedule": 300}


# --- Settings page -----------------------------------------------------------------------------


def test_each_user_switches_each_kind_of_mail_off(
    played: Played, client_for: ClientFor, mailoutbox: list
) -> None:
    url = reverse("notification_settings")
    bob = client_for("bob")
    page = bob.get(url).content.decode()
    # No row yet: everything on (turn processed, reminders, attacks, announcements, digest).
    assert page.count("checked") == 5
    response = bob.post(url, {"reminders": "on", "attack_notices": "on", "press_digest": "on"})
    assert response.status_code == 302
    chosen = NotificationSettings.objects.get(user__username="bob")
    assert (chosen.turn_processed, chosen.reminders, chosen.attack_notices) == (False, True, True)
    assert (chosen.announcements, chosen.press_digest) == (False, True)
    notify_turn_processed(played.campaign, 1)
    assert "bob@example.com" not in recipients(mailoutbox)
    bob.post(url, {})  # everything off
    chosen.refresh_from_db()
    assert not (chosen.turn_processed or chosen.reminders or chosen.attack_notices)
    assert not (chosen.announcements or chosen.press_digest)
    assert NotificationSettings.objects.filter(user__username="bob").count() == 1


def test_the_settings_page_needs_a_login(client: Any) -> None:
    response = client.get(reverse("notification_settings"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
