"""Forms of the GM's set-up pages. They check input only; services/setup.py (and the engine
behind it) decide whether the campaign can take it."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign
from campaigns.models.campaign import MIN_TURN_HOURS, validate_min_turn_hours
from campaigns.selectors.audit import AuditChoices, AuditFilters
from campaigns.services.setup import SETTINGS

ZONES = sorted(zoneinfo.available_timezones())
NAME_MAX = Campaign._meta.get_field("name").max_length or 120


class CampaignSettingsForm(forms.ModelForm):
    """A new campaign's settings, and the GM's changes to them later."""

    class Meta:
        model = Campaign
        fields = list(SETTINGS)
        labels = {
            "name": _("Name"),
            "time_zone": _("Time zone"),
            "deadline_weekday": _("Deadline weekday"),
            "deadline_time": _("Deadline time"),
            "min_turn_hours": _("Minimum turn length, hours"),
            "max_out_links": _("Departments one department may supply"),
            "max_in_links": _("Suppliers one department may have"),
            "attempts_per_turn": _("Linking attempts per player per turn"),
            "attempt_cutoff_hours": _("Attempt cut-off, hours before the deadline"),
            "reminder_hours": _("Reminder, hours before the deadline"),
            "early_processing": _("Process a turn early once every player is ready"),
        }
        help_texts = {
            "time_zone": _(
                "Type to search, e.g. Europe/Berlin. Deadlines are in this zone; "
                "each player sees them in their own."
            ),
            "deadline_time": _("In the campaign's time zone, e.g. 18:00."),
            "min_turn_hours": _(
                "After a turn is processed early, the next one is due at the first weekly "
                "deadline at least this long after it opens (1 to 168; keep it above the "
                "attempt cut-off, so players can still attack)."
            ),
            "attempt_cutoff_hours": _(
                "Attempts queued later than this are refused, so the "
                "defender has time to reinforce."
            ),
            "reminder_hours": _(
                "Players who have queued nothing are reminded by mail this long "
                "before the deadline (0: no reminders)."
            ),
            "early_processing": _(
                "The turn is then processed shortly after the last player "
                "marks their orders ready, without waiting for the deadline."
            ),
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
        # The model's own check says what is wrong in one message (the archive's import
        # holds to it too); the column's generic "greater than or equal to 0" would be a
        # second, vaguer one.
        hours = self.fields["min_turn_hours"]
        hours.validators = [validate_min_turn_hours]
        hours.widget.attrs.update(min=MIN_TURN_HOURS[0], max=MIN_TURN_HOURS[1])

    def clean_time_zone(self) -> str:
        zone = str(self.cleaned_data["time_zone"]).strip()
        if zone not in zoneinfo.available_timezones():
            raise forms.ValidationError(
                _(
                    "%(zone)r is not a time zone this site knows. Pick one from the list, "
                    "e.g. Europe/Berlin or America/New_York."
                )
                % {"zone": zone}
            )
        return zone


class AlignmentForm(forms.Form):
    """One line of the catalogue (R5): an alignment and its opposite, a single one, or a
    self-opposed one."""

    name = forms.CharField(max_length=40, label=_("Alignment"))
    opposite = forms.CharField(max_length=40, required=False, label=_("Its opposite"))
    self_opposed = forms.BooleanField(required=False, label=_("Opposed to itself"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("self_opposed") and data.get("opposite"):
            raise forms.ValidationError(
                _("An alignment opposed to itself has no other opposite (R5): clear one of them.")
            )
        name, opposite = data.get("name", ""), data.get("opposite", "")
        if name and opposite and name.casefold() == opposite.casefold():
            raise forms.ValidationError(
                _("%(name)s cannot be its own opposite: tick 'Opposed to itself' instead.")
                % {"name": name}
            )
        return data


AlignmentFormSet = forms.formset_factory(
    AlignmentForm, extra=2, can_delete=True, max_num=40, validate_max=True
)


BOARD_FILE_MAX = 5 * 1024 * 1024  # bytes: a board of 1,000 departments is well under 1 MB
# A file's text is kept in the form after a problem up to this size: the whole form is
# posted again, and Django refuses a post of more than DATA_UPLOAD_MAX_MEMORY_SIZE.
BOARD_TEXT_MAX = min(BOARD_FILE_MAX, settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 64 * 1024)


class BoardImportForm(forms.Form):
    """A board file to import: the engine's JSON (with names), or a CSV of departments, which
    has no room for the board's own name and address, so the form asks for them. The file
    is chosen, or its text given in `text` (where the page keeps a chosen file's text after
    a problem, so the GM need not choose it again; it works without JavaScript)."""

    file = forms.FileField(
        label=_("Board file"),
        required=False,
        help_text=_(
            "A .json board file, or a .csv spreadsheet of departments or of a classic board's "
            "groups (see below)."
        ),
    )
    text = forms.CharField(
        label=_("Or the board's text"),
        required=False,
        strip=False,
        max_length=BOARD_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "class": "font-monospace"}),
        help_text=_(
            "Paste a board's JSON or CSV here instead of choosing a file. After a problem, "
            "the file you chose is kept here: correct it here and import again, or choose "
            "a file. A chosen file is imported rather than this text."
        ),
    )
    name = forms.CharField(max_length=120, required=False, label=_("Board name (for a CSV file)"))
    slug = forms.SlugField(
        max_length=50,
        required=False,
        label=_("Board address (for a CSV file)"),
        help_text=_("Letters, digits and dashes, e.g. old-town; it appears in the board's URL."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload and upload.size > BOARD_FILE_MAX:
            raise forms.ValidationError(
                _("The file is %(size)s KB; the limit is %(limit)s KB.")
                % {"size": upload.size // 1024, "limit": BOARD_FILE_MAX // 1024}
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload:
            try:
                # spreadsheets often write a byte-order mark
                data["content"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error(
                    "file", _("The file is not UTF-8 text; save it as UTF-8 (CSV UTF-8).")
                )
                return data
            data["csv"] = str(upload.name).lower().endswith(".csv")
        elif (data.get("text") or "").strip():
            data["content"] = data["text"]
            # A board's JSON is an object; a CSV begins with its column names.
            data["csv"] = not data["text"].lstrip().startswith(("{", "["))
        elif "file" not in self.errors and "text" not in self.errors:
            self.add_error("file", _("Choose a board file, or paste its text below."))
            return data
        if data.get("csv"):
            for field in ("name", "slug"):
                if not data.get(field):
                    self.add_error(
                        field, _("A CSV file has no board name or address: give them here.")
                    )
        return data

    def is_csv(self) -> bool:
        return bool(self.cleaned_data.get("csv"))

    def content(self) -> str | None:
        """The board's text, chosen or pasted (None if none could be read)."""
        return self.cleaned_data.get("content") if hasattr(self, "cleaned_data") else None


# The years a filter of the audit log takes: wider than any log, narrow enough that a day's
# start and end exist in every time zone.
AUDIT_YEARS = (2000, 2999)


class AuditFilterForm(forms.Form):
    """The audit log's filters (R53). Always bound to the query string; a field that is not
    valid says so and filters nothing."""

    action = forms.ChoiceField(label=_("Show"), required=False)
    actor = forms.TypedChoiceField(label=_("Who"), required=False, coerce=int, empty_value=None)
    since = forms.DateField(
        label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    board = forms.ChoiceField(label=_("Board"), required=False)
    department = forms.ChoiceField(label=_("Department"), required=False)

    def __init__(self, data: Any, *, choices: AuditChoices) -> None:
        super().__init__(data)
        fields = self.fields
        fields["action"].choices = [("", _("every change")), *choices.actions]  # type: ignore[attr-defined]
        fields["actor"].choices = [  # type: ignore[attr-defined]
            ("", _("anyone")),
            *choices.actors,
            (0, _("(deleted user)")),
        ]
        fields["board"].choices = [("", _("every board")), *choices.boards]  # type: ignore[attr-defined]
        fields["department"].choices = [  # type: ignore[attr-defined]
            ("", _("every department")),
            *choices.departments,
        ]
        for field in fields.values():
            field.widget.attrs.setdefault("class", "form-select")
        for name in ("since", "until"):
            fields[name].widget.attrs["class"] = "form-control"

    def clean_day(self, name: str) -> Any:
        day = self.cleaned_data.get(name)
        low, high = AUDIT_YEARS
        if day is not None and not low <= day.year <= high:
            raise forms.ValidationError(
                _("Give a day from the year %(low)s to %(high)s.") % {"low": low, "high": high}
            )
        return day

    def clean_since(self) -> Any:
        return self.clean_day("since")

    def clean_until(self) -> Any:
        return self.clean_day("until")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The last day comes before the first."))
        return data

    def filters(self) -> AuditFilters:
        """The fields that are valid, as filters (the others filter nothing)."""
        self.is_valid()
        return AuditFilters(**{
            name: value for name, value in self.cleaned_data.items() if value not in ("", None)
        })  # fmt: skip
