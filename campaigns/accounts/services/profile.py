"""Writes of a user's profile: display name, time zone, language and last visit."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Profile


def profile_set(
    *, user: AbstractBaseUser, display_name: str, time_zone: str, language: str
) -> Profile:
    """Save the user's profile (made the first time). The values were checked by the form;
    the model's validators check the time zone again."""
    profile, _created = Profile.objects.get_or_create(user=user)
    profile.display_name = display_name.strip()
    profile.time_zone = time_zone
    profile.language = language
    profile.full_clean()
    profile.save()
    return profile


def profile_language_set(*, user: AbstractBaseUser, language: str) -> None:
    """The footer's switch, for a logged-in user: the profile remembers the language, so
    it follows them to every browser."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(
            _("There is no language %(code)s on this site.") % {"code": repr(language)}
        )
    Profile.objects.update_or_create(user=user, defaults={"language": language})


# A visit within this long of the last stamp writes nothing: most pages cost no extra query.
LAST_SEEN_EVERY = dt.timedelta(minutes=5)


def last_seen_mark(
    *, user: AbstractBaseUser, profile: Profile, now: dt.datetime | None = None
) -> bool:
    """The user visits the site now: stamp `profile.last_seen` (the user's profile as read
    for this request, saved or not) unless it was stamped less than LAST_SEEN_EVERY ago.
    One UPDATE (one INSERT for a user without a profile row yet), or no query at all.
    Returns whether it wrote."""
    now = now or timezone.now()
    if profile.last_seen is not None and now - profile.last_seen < LAST_SEEN_EVERY:
        return False
    if profile.pk is None:
        # A request at the same moment may make the row first: then that one stamped it.
        Profile.objects.bulk_create([Profile(user=user, last_seen=now)], ignore_conflicts=True)
    else:
        Profile.objects.filter(pk=profile.pk).update(last_seen=now)
    profile.last_seen = now
    return True
