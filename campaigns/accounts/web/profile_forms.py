"""The profile page's form. It checks input only (the time zone against the zones Python
knows); accounts/services/profile.py saves it."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from campaigns.models import Profile
from campaigns.models.profile import MAX_DISPLAY_NAME


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label=gettext_lazy("Display name"),
        max_length=MAX_DISPLAY_NAME,
        required=False,
        help_text=gettext_lazy(
            "How press names you, unless the GM gave you a character's name. Empty: your username."
        ),
    )
    time_zone = forms.ChoiceField(
        label=gettext_lazy("Time zone"),
        required=False,
        help_text=gettext_lazy("Every deadline and time on the site is shown in it."),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language"), choices=Profile.Language.choices, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [
            ("", gettext_lazy("The browser's time zone")),
            *((z, z) for z in zones),
        ]
