"""Each user's profile: the name others see in press, the time zone every time on the site
is shown in, the site's language, and when they last visited. Missing row, or an empty
field: the browser's."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .campaign import validate_time_zone

MAX_DISPLAY_NAME = 60


class Profile(models.Model):
    class Language(models.TextChoices):
        BROWSER = "", _("The browser's language")
        ENGLISH = "en", "English"
        GERMAN = "de", "Deutsch"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=MAX_DISPLAY_NAME, blank=True)
    # Empty: the browser's zone (deadline.js shows times in it).
    time_zone = models.CharField(max_length=64, blank=True, validators=[validate_time_zone])
    language = models.CharField(max_length=8, blank=True, choices=Language.choices)
    # The user's last visit to the site (the roster's "last seen"), stamped at most once
    # every LAST_SEEN_EVERY (accounts/services/profile.py): not on every page, to spare a write.
    last_seen = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"
