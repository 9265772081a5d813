"""Writes of a user's profile: display name, time zone and language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
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
