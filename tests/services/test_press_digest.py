"""The mail digest of unread press: at most one mail an hour per user, only messages left
unread for a while, never the same message twice, under its own switch, grey press kept in
the mail too; and two runs at once (PostgreSQL) send one mail."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from campaigns.models import Campaign, DigestClock, Message, NotificationSettings
from campaigns.press.services.press import channel_ensure, conversation_read, press_rules_set
from campaigns.press.services.press_mail import DIGEST_GRACE, press_digests_send
from tests.support.demo import member
from tests.support.press import say, talk

LATER = DIGEST_GRACE + dt.timedelta(minutes=1)
# The demo's character names (campaigns/demo/campaign.json): press names members by them.
ALICE, CAROL, GM = "Alice Ambergris, Comptroller", "Mother Carol of the Eye", "The Game Master"


def send(django_capture_on_commit_callbacks, at: dt.datetime) -> int:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=True):
        return press_digests_send(now=at)


def mails_to(username: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [f"{username}@example.com"]]


@pytest.mark.django_db
def test_bob_is_mailed_what_he_left_unread_once_and_at_most_hourly(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    secret = talk(demo, "alice", ["bob"], "Give me the Mint and I leave the harbour.", "Deal")
    now = timezone.now()
    mail.outbox.clear()
    assert send(django_capture_on_commit_callbacks, now) == 0  # too fresh: he may be reading
    assert send(django_capture_on_commit_callbacks, now + LATER) == 1
    [digest] = mail.outbox
    assert digest.to == ["bob@example.com"]
    assert "Tourmaline: Deal" in digest.body
    assert f"{ALICE}: Give me the Mint and I leave the harbour." in digest.body
    assert f"/c/tourmaline/press/{secret.pk}/" in digest.body
    # The same message is never mailed again, and a new one waits for the hour.
    assert send(django_capture_on_commit_callbacks, now + 2 * LATER) == 0
    say(demo, "alice", secret, "Well?")
    Message.objects.filter(text="Well?").update(created_at=now)
    assert send(django_capture_on_commit_callbacks, now + 2 * LATER) == 0
    assert send(django_capture_on_commit_callbacks, now + LATER + dt.timedelta(hours=1)) == 1
    assert "Well?" in mail.outbox[-1].body and "Give me the Mint" not in mail.outbox[-1].body
    assert mails_to("alice") == []  # her own messages are never news to her


@pytest.mark.django_db
def test_what_bob_has_read_is_not_mailed_and_his_switch_holds(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    channel = channel_ensure(campaign=demo)
    message = say(demo, "carol", channel, "Public notice")
    conversation_read(member=member(demo, "bob"), conversation=channel, seq=message.seq)
    NotificationSettings.objects.create(user=member(demo, "alice").user, press_digest=False)
    mail.outbox.clear()
    assert send(django_capture_on_commit_callbacks, timezone.now() + LATER) == 1
    assert [m.to for m in mail.outbox] == [["gm@example.com"]]
    assert f"{CAROL}: Public notice" in mail.outbox[0].body


@pytest.mark.django_db
def test_grey_press_keeps_the_sender_out_of_the_digest(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    press_rules_set(campaign=demo, actor=member(demo, "gm").user, rules="grey", gm_reads=True)
    demo.refresh_from_db()
    channel = channel_ensure(campaign=demo)
    say(demo, "carol", channel, "Someone will betray you")
    mail.outbox.clear()
    send(django_capture_on_commit_callbacks, timezone.now() + LATER)
    [bob] = mails_to("bob")
    assert "Anonymous: Someone will betray you" in bob.body
    assert "carol" not in bob.body.lower()
    [gm] = mails_to("gm")
    assert f"{CAROL}: Someone will betray you" in gm.body  # the GM sees who wrote


@pytest.mark.django_db
def test_hidden_messages_are_not_mailed(demo: Campaign, django_capture_on_commit_callbacks) -> None:
    from campaigns.press.services.press import message_hide

    channel = channel_ensure(campaign=demo)
    message = say(demo, "gm", channel, "Oops, wrong campaign")
    message_hide(gm=member(demo, "gm"), message_pk=message.pk)
    mail.outbox.clear()
    assert send(django_capture_on_commit_callbacks, timezone.now() + LATER) == 0
    assert mail.outbox == []


def test_the_beat_clock_runs_the_digest_every_ten_minutes() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["send-press-digests"]
    assert entry == {"task": "campaigns.tasks.send_press_digests", "schedule": 600}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_digest_runs_at_once_send_one_mail(postgres: None, demo: Campaign) -> None:
    from tests.support.race import race

    talk(demo, "alice", ["bob"], "One mail, please")
    at = timezone.now() + LATER
    mail.outbox.clear()
    results = race(4, lambda: press_digests_send(now=at))
    assert sorted(claimed for claimed, _ in results) == [0, 0, 0, 1]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert DigestClock.objects.get(user__username="bob").sent_at == at
