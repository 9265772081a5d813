"""Press by mail: the GM's announcements (to every member, at once) and the digest of unread
messages (at most one mail an hour per user). Each mail is written in its reader's language
and goes through services/notifications.py, so each user's switches hold."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaigns.accounts.selectors.profile import language_of, member_name
from campaigns.models import Announcement, AuditEntry, DigestClock, Membership, Participant
from campaigns.models.press import MAX_ANNOUNCEMENT_CHARS
from campaigns.press.selectors.press_unread import MAX_LINES, DigestEntry, digest_entries
from campaigns.press.services.press import PressRefused, text_checked
from campaigns.selectors.visibility import is_gm
from campaigns.services.audit import audit_record
from campaigns.services.notifications import (
    ANNOUNCEMENTS,
    MAIL_RELATED,
    PRESS_DIGEST,
    absolute_url,
    mail_member,
    mail_user,
)

DIGEST_EVERY = dt.timedelta(hours=1)
# A message is mailed about only once it has waited this long unread: players talking on
# the site right now get no mail about what they are reading anyway.
DIGEST_GRACE = dt.timedelta(minutes=10)
EXCERPT = 300  # characters of each message quoted in a digest


def announcement_post(*, gm: Membership, text: str) -> Announcement:
    """The GM's word to every member: stored, shown on the campaign page, and mailed to
    every other member after commit (each in their language, under their switch). Its text
    is in the audit log (R53)."""
    if not is_gm(gm):
        raise PressRefused(_("Only the GM makes announcements."))
    text = text_checked(text, MAX_ANNOUNCEMENT_CHARS)
    with transaction.atomic():
        announcement = Announcement.objects.create(campaign=gm.campaign, author=gm, text=text)
        audit_record(
            campaign=gm.campaign, actor=gm.user, action=AuditEntry.Action.ANNOUNCEMENT,
            target="announcement", before={}, after={"text": text},
        )  # fmt: skip
        transaction.on_commit(lambda: announcement_mail(announcement))
    return announcement


def announcement_mail(announcement: Announcement) -> int:
    campaign = announcement.campaign
    members = (
        campaign.memberships.exclude(pk=announcement.author_id)
        .select_related(*MAIL_RELATED, "user__profile")
        .order_by("pk")
    )
    author = member_name(announcement.author)
    sent = 0
    for member in members:
        member.campaign = campaign
        with translation.override(language_of(member.user)):
            subject = _("Announcement from the GM")
            sent += mail_member(
                member, ANNOUNCEMENTS, subject, announcement_text(announcement, author)
            )
    return sent


def announcement_text(announcement: Announcement, author: str) -> str:
    """The mail's body, in the active language."""
    campaign = announcement.campaign
    intro = _("%(author)s, the GM of %(campaign)s, announces:")
    return "\n\n".join(
        [
            intro % {"author": author, "campaign": campaign.name},
            announcement.text,
            _("The campaign: %(url)s") % {"url": absolute_url(campaign.get_absolute_url())},
            _("To stop these mails: %(url)s")
            % {"url": absolute_url(reverse("notification_settings"))},
        ]
    )


# --- The digest of unread messages -----------------------------------------------------------


def channel_read_marks_ensure() -> int:
    """Every member gets a read mark in their campaign's public channel once it has a
    message, so the digest finds what they have not read there. Two queries."""
    has_mark = Participant.objects.filter(
        conversation__campaign=OuterRef("campaign"),
        conversation__is_public=True,
        member=OuterRef("pk"),
    )
    missing = (
        Membership.objects.filter(
            campaign__conversations__is_public=True, campaign__conversations__last_seq__gt=0
        )
        .exclude(Exists(has_mark))
        .values_list("pk", "campaign__conversations__pk")
    )
    made = Participant.objects.bulk_create(
        [Participant(member_id=m, conversation_id=c) for m, c in missing], ignore_conflicts=True
    )
    return len(made)


def press_digests_send(*, now: dt.datetime | None = None) -> int:
    """Mail each user what they have not read (nor been mailed) for DIGEST_GRACE, at most
    once per DIGEST_EVERY. Safe to run twice at once: a user is claimed by locking their
    DigestClock row and moving it on only if it is due, in one transaction; the other run
    waits, then finds it not due. Returns how many mails were handed to the mailer."""
    now = now or timezone.now()
    channel_read_marks_ensure()
    digests = digest_entries(now, DIGEST_GRACE)
    if not digests:
        return 0
    DigestClock.objects.bulk_create(
        [DigestClock(user_id=user_id) for user_id in digests], ignore_conflicts=True
    )
    due = Q(sent_at__isnull=True) | Q(sent_at__lte=now - DIGEST_EVERY)
    with transaction.atomic():
        claimed = list(
            DigestClock.objects.select_for_update()
            .filter(due, user_id__in=list(digests))
            .values_list("user_id", flat=True)
        )
        DigestClock.objects.filter(user_id__in=claimed).update(sent_at=now)
        entries = [entry for user_id in claimed for entry in digests[user_id]]
        for entry in entries:
            entry.reader.mailed_seq = entry.through
        Participant.objects.bulk_update([e.reader for e in entries], ["mailed_seq"])
        mails = [digests[user_id] for user_id in claimed]
        transaction.on_commit(lambda: digests_mail(mails))
    return len(claimed)


def digests_mail(digests: list[list[DigestEntry]]) -> int:
    return sum(digest_mail(entries) for entries in digests)


def digest_mail(entries: list[DigestEntry]) -> bool:
    user = entries[0].reader.member.user
    with translation.override(language_of(user)):
        parts = [_("Messages you have not read yet:")]
        for entry in entries:
            parts.append(digest_section(entry))
        parts.append(
            _("To stop these mails: %(url)s")
            % {"url": absolute_url(reverse("notification_settings"))}
        )
        return mail_user(
            user, PRESS_DIGEST, _("[Illumineaucracy] Unread messages"), "\n\n".join(parts)
        )


def digest_section(entry: DigestEntry) -> str:
    lines = [entry.title()]
    for sender, text in entry.lines():
        excerpt = text if len(text) <= EXCERPT else text[:EXCERPT] + "…"
        lines.append(f"  {sender}: {excerpt}")
    more = len(entry.messages) - MAX_LINES
    if more > 0:
        lines.append("  " + _("… and %(count)d more") % {"count": more})
    lines.append("  " + _("Read them: %(url)s") % {"url": absolute_url(entry.path)})
    return "\n".join(lines)
