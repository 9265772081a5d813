"""Forms of the GM's set-up pages. They check input only; services/setup.py (and the engine
behind it) decide whether the campaign can take it."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from campaigns.models import Campaign
from campaigns.services.setup import SETTINGS

ZONES = sorted(zoneinfo.available_timezones())
NAME_MAX = Campaign._meta.get_field("name").max_length or 120


class CampaignSettingsForm(forms.ModelForm):
    """A new campaign's settings, and the GM's changes to them later."""

    class Meta:
        model = Campaign
        fields = list(SETTINGS)
        labels = {
            "name": "Name",
            "time_zone": "Time zone",
            "deadline_weekday": "Deadline weekday",
            "deadline_time": "Deadline time",
            "max_out_links": "Departments one department may supply",
            "max_in_links": "Suppliers one department may have",
            "attempts_per_turn": "Linking attempts per player per turn",
            "attempt_cutoff_hours": "Attempt cut-off, hours before the deadline",
            "reminder_hours": "Reminder, hours before the deadline",
            "early_processing": "Process a turn early once every player is ready",
        }
        help_texts = {
            "time_zone": "Type to search, e.g. Europe/Berlin. Deadlines are in this zone; "
            "each player sees them in their own.",
            "deadline_time": "In the campaign's time zone, e.g. 18:00.",
            "attempt_cutoff_hours": "Attempts queued later than this are refused, so the "
            "defender has time to reinforce.",
            "reminder_hours": "Players who have queued nothing are reminded by mail this long "
            "before the deadline (0: no reminders).",
            "early_processing": "The turn is then processed shortly after the last player "
            "marks their orders ready, without waiting for the deadline.",
        }
        widgets = {
            "time_zone": forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
            "deadline_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    LIMITS = {
        "max_out_links": (1, 10),
        "max_in_links": (1, 10),
        "attempts_per_turn": (0, 10),
        "attempt_cutoff_hours": (0, 168),
        "reminder_hours": (0, 168),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (low, high) in self.LIMITS.items():
            field = self.fields[name]
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)

    def clean_time_zone(self) -> str:
        zone = str(self.cleaned_data["time_zone"]).strip()
        if zone not in zoneinfo.available_timezones():
            raise forms.ValidationError(
                f"{zone!r} is not a time zone this site knows. Pick one from the list, "
                "e.g. Europe/Berlin or America/New_York."
            )
        return zone


class AlignmentForm(forms.Form):
    """One line of the catalogue (R5): an alignment and its opposite, a single one, or a
    self-opposed one."""

    name = forms.CharField(max_length=40, label="Alignment")
    opposite = forms.CharField(max_length=40, required=False, label="Its opposite")
    self_opposed = forms.BooleanField(required=False, label="Opposed to itself")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("self_opposed") and data.get("opposite"):
            raise forms.ValidationError(
                "An alignment opposed to itself has no other opposite (R5): clear one of them."
            )
        name, opposite = data.get("name", ""), data.get("opposite", "")
        if name and opposite and name.casefold() == opposite.casefold():
            raise forms.ValidationError(
                f"{name} cannot be its own opposite: tick 'Opposed to itself' instead."
            )
        return data


AlignmentFormSet = forms.formset_factory(
    AlignmentForm, extra=2, can_delete=True, max_num=40, validate_max=True
)


BOARD_FILE_MAX = 5 * 1024 * 1024  # bytes: a board of 1,000 departments is well under 1 MB


class BoardImportForm(forms.Form):
    """A board file to import: the engine's JSON (with names), or a CSV of departments, which
    has no room for the board's own name and address, so the form asks for them."""

    file = forms.FileField(
        label="Board file",
        help_text="A .json board file, or a .csv spreadsheet of departments (see below).",
    )
    name = forms.CharField(max_length=120, required=False, label="Board name (for a CSV file)")
    slug = forms.SlugField(
        max_length=50,
        required=False,
        label="Board address (for a CSV file)",
        help_text="Letters, digits and dashes, e.g. old-town; it appears in the board's URL.",
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > BOARD_FILE_MAX:
            raise forms.ValidationError(
                f"The file is {upload.size // 1024} KB; the limit is {BOARD_FILE_MAX // 1024} KB."
            )
        return upload

    def is_csv(self) -> bool:
        return str(self.cleaned_data["file"].name).lower().endswith(".csv")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("file") and self.is_csv():
            for field in ("name", "slug"):
                if not data.get(field):
                    self.add_error(
                        field, "A CSV file has no board name or address: give them here."
                    )
        return data
