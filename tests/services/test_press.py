"""Press writes (RULES R62): who may write under each press rule, messages that are never
changed, the GM's hiding kept in the audit log (R53), read marks, announcements by mail."""

from __future__ import annotations

import pytest
from django.core import mail

from campaigns.models import AuditEntry, Campaign, Conversation, Message, NotificationSettings
from campaigns.press.selectors.press import conversation_for
from campaigns.press.services.press import (
    PressRefused,
    channel_ensure,
    conversation_read,
    conversation_start,
    message_hide,
    message_send,
    press_rules_set,
)
from campaigns.press.services.press_mail import announcement_post
from tests.factories import MembershipFactory
from tests.support.demo import member
from tests.support.press import say, talk

pytestmark = pytest.mark.django_db
Rules = Campaign.PressRules


def rules(campaign: Campaign, value: str, gm_reads: bool = False) -> None:
    press_rules_set(
        campaign=campaign, actor=member(campaign, "gm").user, rules=value, gm_reads=gm_reads
    )
    campaign.refresh_from_db()


def test_alice_starts_a_conversation_with_bob_and_carol_and_they_answer(demo: Campaign) -> None:
    talk_row = talk(demo, "alice", ["bob", "carol"], "Shall we split the harbour?", "Harbour")
    say(demo, "bob", talk_row, "Only if Carol keeps out of the Mint.")
    talk_row.refresh_from_db()
    assert talk_row.subject == "Harbour"
    assert talk_row.last_seq == 2
    rows = list(talk_row.messages.order_by("seq").values_list("seq", "sender__user__username"))
    assert rows == [(1, "alice"), (2, "bob")]
    names = set(talk_row.participants.values_list("member__user__username", flat=True))
    assert names == {"alice", "bob", "carol"}


def test_a_conversation_needs_someone_else_and_some_text(demo: Campaign) -> None:
    alice = member(demo, "alice")
    with pytest.raises(PressRefused, match="at least one other member"):
        talk(demo, "alice", ["alice"], "Talking to myself")
    with pytest.raises(PressRefused, match="empty"):
        talk(demo, "alice", ["bob"], "   \n ")
    with pytest.raises(PressRefused, match="at most 2000 characters"):
        talk(demo, "alice", ["bob"], "x" * 2001)
    assert not Conversation.objects.filter(started_by=alice).exists()


def test_a_member_of_another_campaign_cannot_be_written_to(demo: Campaign) -> None:
    stranger = MembershipFactory()
    with pytest.raises(PressRefused, match="must be in this campaign"):
        conversation_start(
            member=member(demo, "alice"), recipients=[stranger], subject="", text="Psst"
        )
    assert Message.objects.count() == 0


@pytest.mark.parametrize(
    ("value", "private", "public"),
    [
        (Rules.FULL, True, True),
        (Rules.GREY, True, True),
        (Rules.PUBLIC, False, True),
        (Rules.NONE, False, False),
    ],
)
def test_each_press_rule_lets_players_write_where_it_says(
    demo: Campaign, value: str, private: bool, public: bool
) -> None:
    earlier = talk(demo, "alice", ["bob"], "Before the GM changed the rules")
    rules(demo, value)
    channel = channel_ensure(campaign=demo)
    for where, allowed in [(earlier, private), (channel, public)]:
        if allowed:
            assert say(demo, "bob", where, "Still talking").seq >= 1
        else:
            with pytest.raises(PressRefused):
                say(demo, "bob", where, "Still talking")
    if not private:
        with pytest.raises(PressRefused, match="no private conversations"):
            talk(demo, "carol", ["alice"], "A new one")
    # The GM writes in the channel and starts conversations whatever the rules.
    say(demo, "gm", channel, "The GM speaks")
    talk(demo, "gm", ["carol"], "A word, Carol")


def test_the_gm_reads_others_conversations_only_when_the_campaign_says_so(
    demo: Campaign,
) -> None:
    secret = talk(demo, "alice", ["bob"], "Between us")
    gm = member(demo, "gm")
    assert conversation_for(gm, secret.pk) is None
    assert conversation_for(member(demo, "carol"), secret.pk) is None
    rules(demo, Rules.FULL, gm_reads=True)
    gm = member(demo, "gm")
    readable = conversation_for(gm, secret.pk)
    assert readable is not None
    # Reading is not joining: the GM cannot write there.
    with pytest.raises(PressRefused, match="not in it"):
        message_send(member=gm, conversation=readable, text="Hello")
    assert conversation_for(member(demo, "carol"), secret.pk) is None


def test_a_message_is_never_changed_or_deleted(demo: Campaign) -> None:
    message = talk(demo, "alice", ["bob"], "As sent").messages.get()
    message.text = "Rewritten"
    with pytest.raises(ValueError, match="never edited"):
        message.save()
    with pytest.raises(ValueError, match="never deleted"):
        message.delete()
    assert Message.objects.get().text == "As sent"


def test_the_gm_hides_a_message_and_the_audit_log_keeps_it(demo: Campaign) -> None:
    channel = channel_ensure(campaign=demo)
    message = say(demo, "carol", channel, "Alice cheats!")
    gm = member(demo, "gm")
    assert message_hide(gm=gm, message_pk=message.pk) is True
    assert message_hide(gm=gm, message_pk=message.pk) is False  # once only
    message.refresh_from_db()
    assert message.hidden_at is not None and message.text == "Alice cheats!"
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PRESS)
    assert entry.before == {"sender": "carol", "text": "Alice cheats!"}
    assert entry.after == {"hidden": True}
    with pytest.raises(PressRefused, match="Only the GM"):
        message_hide(gm=member(demo, "alice"), message_pk=message.pk)


def test_the_gm_cannot_hide_a_message_they_may_not_read(demo: Campaign) -> None:
    private = talk(demo, "alice", ["bob"], "Between us").messages.get()
    with pytest.raises(PressRefused, match="no such message"):
        message_hide(gm=member(demo, "gm"), message_pk=private.pk)
    assert Message.objects.get().hidden_at is None


def test_read_marks_only_go_up_and_the_sender_has_read_their_own(demo: Campaign) -> None:
    channel = channel_ensure(campaign=demo)
    say(demo, "alice", channel, "One")
    say(demo, "alice", channel, "Two")
    alice, bob = member(demo, "alice"), member(demo, "bob")
    assert channel.participants.get(member=alice).last_read_seq == 2
    conversation_read(member=bob, conversation=channel, seq=2)
    conversation_read(member=bob, conversation=channel, seq=1)
    assert channel.participants.get(member=bob).last_read_seq == 2


def test_press_rules_changes_are_audited(demo: Campaign) -> None:
    rules(demo, Rules.GREY, gm_reads=True)
    rules(demo, Rules.GREY, gm_reads=True)  # no change, no entry
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PRESS)
    assert entry.target == "press rules"
    assert entry.before == {"press_rules": "full", "gm_reads_press": False}
    assert entry.after == {"press_rules": "grey", "gm_reads_press": True}
    with pytest.raises(PressRefused):
        rules(demo, "shouting")


def test_an_announcement_is_mailed_to_every_other_member_who_wants_it(
    demo: Campaign, django_capture_on_commit_callbacks
) -> None:
    bob = member(demo, "bob").user
    NotificationSettings.objects.create(user=bob, announcements=False)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        announcement_post(gm=member(demo, "gm"), text="Turn 2 is due on Monday.")
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "carol@example.com"]
    sent = mail.outbox[0]
    assert sent.subject == "[Tourmaline] Announcement from the GM"
    assert "Turn 2 is due on Monday." in sent.body
    assert demo.announcements.get().text == "Turn 2 is due on Monday."
    with pytest.raises(PressRefused, match="Only the GM"):
        announcement_post(gm=member(demo, "alice"), text="I am the GM now")


def test_an_announcement_mail_is_written_in_each_readers_language(
    demo: Campaign, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import translation

    from campaigns.models import Profile
    from campaigns.press.services import press_mail

    Profile.objects.create(user=member(demo, "alice").user, language="de")
    languages: dict[str, str | None] = {}
    real = press_mail.mail_member

    def recording(member_row, *args, **kwargs):  # type: ignore[no-untyped-def]
        languages[member_row.user.username] = translation.get_language()
        return real(member_row, *args, **kwargs)

    monkeypatch.setattr(press_mail, "mail_member", recording)
    with django_capture_on_commit_callbacks(execute=True):
        announcement_post(gm=member(demo, "gm"), text="Hello")
    assert languages == {"alice": "de", "bob": "en", "carol": "en"}
