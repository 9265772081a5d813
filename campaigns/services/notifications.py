"""Messages to people. Sent only after the transaction that caused them has committed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import dateformat, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaigns.accounts.selectors.profile import cached_profile, language_of
from campaigns.classic.selectors.wins import ClassicWin, classic_wins
from campaigns.models import Campaign, Election, Membership, Notice, NotificationSettings
from campaigns.stored_times import times_in_words
from campaigns.words.classic import win_text
from campaigns.words.notices import notice_text

# The kinds of mail a user can switch off (NotificationSettings has one field each).
TURN_PROCESSED, REMINDERS, ATTACK_NOTICES = "turn_processed", "reminders", "attack_notices"
ANNOUNCEMENTS, PRESS_DIGEST = "announcements", "press_digest"


def absolute_url(path: str) -> str:
    """A link that works from a mail client: SITE_URL (read at call time) plus the path."""
    return f"{settings.SITE_URL}{path}"


# Fetch members with this, and `wants_mail` reads their settings (and language_of their
# profile's language) without a query each.
MAIL_RELATED = ("user", "user__notification_settings", "user__profile")


def local_time_text(
    campaign: Campaign, instant: dt.datetime, reader: AbstractBaseUser | None = None
) -> str:
    """`instant` as a mail says it: in the reader's time zone if their profile names one,
    else in the campaign's (UTC if that is invalid), in the active language (the reader's:
    callers write mail under translation.override). Fetch the reader with its profile."""
    profile = cached_profile(reader) if reader is not None else None
    zone: dt.tzinfo = dt.UTC
    for name in (profile.time_zone if profile is not None else "", campaign.time_zone):
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):  # none chosen, or invalid: the next
            continue
        break
    return dateformat.format(
        instant.astimezone(zone),
        pgettext("date format of a time in a mail", "l d F Y \\a\\t H:i T"),
    )


def notice_mailed(campaign: Campaign, notice: Notice, reader: AbstractBaseUser) -> str:
    """A notice as its mail says it: in the active language (the reader's: call under
    translation.override), each time in the reader's zone (local_time_text)."""
    said = notice_text(notice.code, notice.params, notice.text)
    return times_in_words(said, lambda when: local_time_text(campaign, when, reader))


def wants_mail(member: Membership, kind: str) -> bool:
    """Has this user left mail of `kind` switched on? (No settings row: everything on.)"""
    return user_wants_mail(member.user, kind)


def user_wants_mail(user: AbstractBaseUser, kind: str) -> bool:
    try:
        chosen = user.notification_settings  # type: ignore[attr-defined]
    except NotificationSettings.DoesNotExist:
        return True
    return bool(getattr(chosen, kind))


def mail_member(member: Membership, kind: str, subject: str, body: str) -> bool:
    """Send one user mail of `kind` unless they switched it off or have no address. The
    one door for mail to players: call it after commit, never with anything the member's
    knowledge (R50) hides. Returns whether a mail went out."""
    return mail_user(member.user, kind, f"[{member.campaign.name}] {subject}", body)


def mail_user(user: AbstractBaseUser, kind: str, subject: str, body: str) -> bool:
    """`mail_member` for mail about several campaigns at once (the press digest)."""
    if not getattr(user, "email", "") or not user_wants_mail(user, kind):
        return False
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])  # type: ignore[attr-defined]
    return True


def notify_gms(campaign: Campaign, words: Callable[[], tuple[str, str]]) -> None:
    """Tell the campaign's GMs something they must act on (a failed or late turn). `words`
    gives (subject, body) in the active language: it is called for each GM in theirs."""
    gms = campaign.memberships.filter(role=Membership.Role.GM).select_related(*MAIL_RELATED)
    for gm in gms:
        if not gm.user.email:
            continue
        with translation.override(language_of(gm.user)):
            subject, body = words()
        send_mail(
            f"[{campaign.name}] {subject}", body, settings.DEFAULT_FROM_EMAIL, [gm.user.email]
        )


def election_lines(election: Election | None, member: Membership, number: int) -> list[str]:
    """R80: the turn-processed mail's words for a player when the turn that opens holds an
    election (in the active language)."""
    if election is None or member.role != Membership.Role.PLAYER:
        return []
    office = election.office
    text = _(
        "Turn %(n)s holds an election for %(office)s on %(board)s (R80): nominate a ticket, "
        "give it your departments' support, and vote: %(url)s"
    ) % {
        "n": number,
        "office": office.name,
        "board": office.board.name,
        "url": absolute_url(reverse("election", args=[member.campaign.slug])),
    }
    return [text, ""]


def win_lines(wins: list[ClassicWin], member: Membership) -> list[str]:
    """R98: the turn-processed mail's words when someone won a classic board: who and how
    (public: the fact and its kind, never a goal's figures, R99), and what comes next; the
    GM is asked to decide on the campaign page (in the active language)."""
    if not wins:
        return []
    lines = [_("The turn has a winner (R98):")]
    lines += [win_text(w.board_name, name, by) for w in wins for name, by in w.winners]
    if member.role == Membership.Role.GM:
        lines.append(
            _("End the campaign or play on, on the campaign page: %(url)s")
            % {"url": absolute_url(member.campaign.get_absolute_url())}
        )
    else:
        lines.append(_("The GM now ends the campaign or plays on."))
    return [*lines, ""]


def notify_turn_processed(campaign: Campaign, number: int) -> int:
    """Tell every player and GM that turn `number` is done, with the link to their own
    report, through `mail_member` (so each user's opt-out holds). The mail says nothing of
    the turn itself: what happened is on the report page, where R50 decides what each
    reader sees; but a classic board's win, public by R98, is told to all (`win_lines`,
    no goal's figures). A player for whom the turn opened an envelope (R71, R72) is told only that
    one opened, never what it says. Returns how many mails went out."""
    path = reverse("turn_report", args=[campaign.slug, number])
    sent = 0
    members = campaign.memberships.select_related(*MAIL_RELATED).filter(
        role__in=[Membership.Role.PLAYER, Membership.Role.GM]
    )
    opened = set(
        Notice.objects.filter(
            turn__campaign=campaign, turn__number=number, kind=Notice.Kind.ENVELOPE
        ).values_list("player_id", flat=True)
    )
    # R80: the turn that opens holds an election: every player is told in this mail too.
    election = (
        Election.objects.filter(campaign=campaign, number=number + 1)
        .select_related("office__board")
        .first()
    )
    wins = classic_wins(campaign, number)
    for member in members:
        member.campaign = campaign
        with translation.override(language_of(member.user)):
            subject = _("Turn %(n)s processed") % {"n": number}
            envelope = (
                [_("A sealed envelope opened for you this turn: read it on the site."), ""]
                if member.pk in opened
                else []
            )
            body = "\n".join(
                [
                    _("Turn %(n)s of %(campaign)s has been processed and turn %(next)s is open.")
                    % {"n": number, "campaign": campaign.name, "next": number + 1},
                    "",
                    *win_lines(wins, member),
                    *envelope,
                    *election_lines(election, member, number + 1),
                    _("Your report: %(url)s") % {"url": absolute_url(path)},
                    _("The campaign: %(url)s") % {"url": absolute_url(campaign.get_absolute_url())},
                    "",
                    _("To stop these mails: %(url)s")
                    % {"url": absolute_url(reverse("notification_settings"))},
                ]
            )
        sent += mail_member(member, TURN_PROCESSED, subject, body)
    return sent
