"""Forms of the campaign pages. They check input only; the services decide what it means."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class ProcessTurnForm(forms.Form):
    """The GM's confirmation before processing a turn early (R30). `number` pins the turn
    the GM looked at, so a confirmation can never process a later turn by accident."""

    number = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    confirm = forms.BooleanField(
        required=True,
        label=_("Yes, resolve every queued order now."),
        error_messages={"required": _("Tick the box to confirm.")},
    )


class ExtendDeadlineForm(forms.Form):
    """R30: the GM's new deadline for the open turn, typed in the campaign's time zone (the
    view validates the form with that zone active, so a time that does not exist there, or
    happens twice, on a daylight-saving change is an error). `number` pins the turn."""

    number = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    deadline = forms.DateTimeField(
        label=_("New deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )

    def __init__(self, *args: Any, zone: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The field says which zone it takes: a datetime-local input has none of its own.
        label = _("New deadline, in the campaign's time zone (%(zone)s)")
        self.fields["deadline"].label = label % {"zone": zone}
        self.fields["deadline"].help_text = _(
            "“Show the new deadline” shows it in your own time zone too, before anything changes."
        )


class RollbackForm(forms.Form):
    """R52: the GM's confirmation before undoing the last processed turn. `number` pins the
    turn the GM read about; `discard` is asked for only when the open turn has orders."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    confirm = forms.BooleanField(
        required=True,
        label=_("Yes, undo this turn: the boards go back to how they were before it."),
        error_messages={"required": _("Tick the box to confirm.")},
    )
    discard = forms.BooleanField(
        required=False, label=_("Yes, discard the orders already queued for the open turn.")
    )


class ConfirmForm(forms.Form):
    """A GM's confirmation of a step that cannot be undone (ending or opening a campaign)."""

    confirm = forms.BooleanField(
        required=True,
        label=_("Yes, I understand this cannot be undone."),
        error_messages={"required": _("Tick the box to confirm.")},
    )


class PlayOnForm(forms.Form):
    """R98: the GM plays on after a classic board's win. `number` pins the turn whose win
    the GM read about, so a stale page cannot dismiss a later one."""

    number = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
