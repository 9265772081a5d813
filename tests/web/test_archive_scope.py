"""The GM's archive (the site's download) holds what the GM may read there, no more; the full
archive, private conversations and members' email addresses too, is `manage.py
export_campaign`'s alone (docs/campaign-archive.md). Issue 24, item 4."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.archive.selectors.archive import archive_text, campaign_archive
from campaigns.archive.selectors.archive_ids import checksum
from campaigns.archive.services.archive import ArchiveError, campaign_import
from campaigns.models import Campaign, Participant
from campaigns.press.selectors.press_unread import digest_readers, unread_counts
from campaigns.press.services.press import channel_ensure, conversation_read, conversation_start
from campaigns.press.services.press import message_send as send
from campaigns.press.services.press_mail import announcement_post, channel_read_marks_ensure
from tests.support.archive_rows import without_slug
from tests.support.demo import Played, member

pytestmark = pytest.mark.django_db

SECRET_SUBJECT = "Sealed plot 7f3a"
SECRET_TEXT = "Betray the GM at dawn 91c2"
SECRET_REPLY = "Agreed, bring the Mint 5d0e"
TO_GM_TEXT = "A question for the GM 3b8e"
PUBLIC_TEXT = "Hello everyone 44aa"
ANNOUNCED = "Elections next month 62f1"
ALICE_EMAIL = "alice.private@example.org"


@pytest.fixture
def talked(played: Played) -> Campaign:
    """Alice and Bob talk privately (Bob has read it), Alice writes to the GM, Alice and Bob
    write in the public channel, and the GM announces. The GM reads no conversation they
    are not in (the campaign's default)."""
    campaign = played.campaign
    alice, bob, gm = (member(campaign, n) for n in ("alice", "bob", "gm"))
    type(alice.user).objects.filter(pk=alice.user_id).update(email=ALICE_EMAIL)
    plot = conversation_start(member=alice, recipients=[bob], subject=SECRET_SUBJECT,
                              text=SECRET_TEXT)  # fmt: skip
    plot.is_participant = True
    send(member=bob, conversation=plot, text=SECRET_REPLY)
    conversation_start(member=alice, recipients=[gm], subject="", text=TO_GM_TEXT)
    channel = channel_ensure(campaign=campaign)
    channel.is_participant = False
    send(member=alice, conversation=channel, text=PUBLIC_TEXT)
    conversation_read(member=bob, conversation=channel, seq=1)
    announcement_post(gm=gm, text=ANNOUNCED)
    assert not Campaign.objects.get(pk=campaign.pk).gm_reads_press
    return Campaign.objects.get(pk=campaign.pk)


def gm_reads(campaign: Campaign, rules: str = Campaign.PressRules.FULL) -> Campaign:
    Campaign.objects.filter(pk=campaign.pk).update(gm_reads_press=True, press_rules=rules)
    return Campaign.objects.get(pk=campaign.pk)


def download(client_for: Any, campaign: Campaign) -> bytes:
    response = client_for("gm").get(reverse("campaign_archive", args=[campaign.slug]))
    assert response.status_code == 200
    return response.content


def exported(campaign: Campaign) -> str:
    out = StringIO()
    call_command("export_campaign", campaign.slug, "-", stdout=out)
    return out.getvalue()


def test_the_gms_download_leaves_out_the_conversations_the_gm_may_not_read(
    talked: Campaign, client_for: Any
) -> None:
    raw = download(client_for, talked)
    for secret in (SECRET_SUBJECT, SECRET_TEXT, SECRET_REPLY, ALICE_EMAIL):
        assert secret.encode() not in raw, secret
    for shown in (PUBLIC_TEXT, ANNOUNCED, TO_GM_TEXT):
        assert shown.encode() in raw, shown
    archive = json.loads(raw)
    assert archive["scope"] == "gm" and archive["checksum"] == checksum(archive)
    conversations = archive["press"]["conversations"]
    # The channel and the GM's own conversation, as the GM's press pages list them; of
    # Alice and Bob's not even that it exists.
    assert sorted(c["is_public"] for c in conversations) == [False, True]
    (to_gm,) = (c for c in conversations if not c["is_public"])
    # Alice's read marks are hers: the GM's archive keeps only the GM's own. Everyone is in
    # the channel: every member is listed there, with no marks (the GM has read nothing).
    assert to_gm["participants"] == [
        {"member": "alice"}, {"member": "gm", "last_read_seq": 0, "mailed_seq": 0}
    ]  # fmt: skip
    (channel,) = (c for c in conversations if c["is_public"])
    assert [p["member"] for p in channel["participants"]] == [m["user"] for m in archive["members"]]
    assert [p for p in channel["participants"] if len(p) > 1] == [
        {"member": "gm", "last_read_seq": 0, "mailed_seq": 0}
    ]
    assert all("email" not in m for m in archive["members"])


@pytest.mark.parametrize("rules", [Campaign.PressRules.FULL, Campaign.PressRules.GREY])
def test_the_gms_download_holds_every_conversation_when_the_gm_reads_press(
    talked: Campaign, client_for: Any, rules: str
) -> None:
    """With the rule that lets the GM read every conversation. Under grey press the GM
    still sees who wrote and who is in a conversation (docs/user-guide.md, Messages), so it names
    them too; what the site shows the GM of nobody, email addresses, stays out."""
    raw = download(client_for, gm_reads(talked, rules))
    for shown in (SECRET_SUBJECT, SECRET_TEXT, SECRET_REPLY, PUBLIC_TEXT, ANNOUNCED):
        assert shown.encode() in raw, shown
    assert ALICE_EMAIL.encode() not in raw
    (plot,) = (c for c in json.loads(raw)["press"]["conversations"] if c["subject"])
    assert plot["started_by"] == "alice"
    assert plot["participants"] == [{"member": "alice"}, {"member": "bob"}]
    assert [(m["sender"], m["text"]) for m in plot["messages"]] == [
        ("alice", SECRET_TEXT), ("bob", SECRET_REPLY)
    ]  # fmt: skip


@pytest.mark.parametrize("gm_may_read", [False, True], ids=["gm-reads-not", "gm-reads"])
def test_the_command_line_export_is_the_full_archive(talked: Campaign, gm_may_read: bool) -> None:
    campaign = gm_reads(talked) if gm_may_read else talked
    text = exported(campaign)
    for shown in (SECRET_SUBJECT, SECRET_TEXT, SECRET_REPLY, TO_GM_TEXT, PUBLIC_TEXT, ALICE_EMAIL):
        assert shown in text, shown
    archive = json.loads(text)
    assert archive["scope"] == "full"
    (plot,) = (c for c in archive["press"]["conversations"] if c["subject"])
    assert plot["participants"] == [
        {"member": "alice", "last_read_seq": 1, "mailed_seq": 0},
        {"member": "bob", "last_read_seq": 2, "mailed_seq": 0},
    ]


def test_the_gms_download_imports_and_exports_again_the_same(
    talked: Campaign, client_for: Any
) -> None:
    first = json.loads(download(client_for, talked))
    copy_ = campaign_import(data=json.loads(json.dumps(first)), slug="gm-copy")
    assert copy_.conversations.count() == 2
    assert SECRET_TEXT not in archive_text(campaign_archive(copy_))
    # The players' marks were not in the archive: they are taken to have read and been
    # mailed everything, so the copy shows them nothing unread and mails them nothing old.
    marks = Participant.objects.filter(conversation__campaign=copy_).exclude(member__role="gm")
    assert {(p.last_read_seq, p.mailed_seq) for p in marks} == {(1, 1)}
    for name in ("alice", "bob", "carol"):
        assert copy_.pk not in unread_counts(member(copy_, name).user), name
    channel_read_marks_ensure()  # as the digest job does first
    assert not digest_readers().filter(conversation__campaign=copy_).exclude(member__role="gm")
    # Exported again as the copy's GM: the same archive, apart from the slug, the checksum
    # that covers it and the open turn's commitment (the import draws new dice, R23).
    second = campaign_archive(copy_, reader=member(copy_, "gm"))
    assert without_slug(second) == without_slug(first)


def test_an_archive_of_an_unknown_scope_is_refused(talked: Campaign) -> None:
    archive = campaign_archive(talked)
    archive["scope"] = "players"
    archive["checksum"] = checksum(archive)
    with pytest.raises(ArchiveError, match="archive scope 'players'"):
        campaign_import(data=archive, slug="odd-scope")
    assert not Campaign.objects.filter(slug="odd-scope").exists()
