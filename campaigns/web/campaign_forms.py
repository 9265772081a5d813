"""Forms of the campaign pages. They check input only; the services decide what it means."""

from __future__ import annotations

from django import forms


class ProcessTurnForm(forms.Form):
    """The GM's confirmation before processing a turn early (R30). `number` pins the turn
    the GM looked at, so a confirmation can never process a later turn by accident."""

    number = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    confirm = forms.BooleanField(
        required=True,
        label="Yes, resolve every queued order now. This cannot be undone.",
        error_messages={"required": "Tick the box to confirm."},
    )


class ExtendDeadlineForm(forms.Form):
    """R30: the GM's new deadline for the open turn, typed in the campaign's time zone (the
    view validates the form with that zone active, so a time that does not exist there, or
    happens twice, on a daylight-saving change is an error). `number` pins the turn."""

    number = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    deadline = forms.DateTimeField(
        label="New deadline",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
