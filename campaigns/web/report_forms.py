"""Forms of the report, verify-the-dice and mail-settings pages. They check input only."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from campaigns.models import NotificationSettings
from campaigns.words.labels import lazy_format

# A roll's dice are its stat plus tokens spent: far below this. The cap keeps a request from
# asking the server for millions of HMACs.
MAX_DICE = 100


class GmNoteForm(forms.Form):
    """R45: what a function roll meant in the world, and whether its player may read it."""

    gm_note = forms.CharField(
        label=_("What it meant in the world"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    publish = forms.BooleanField(label=_("Published to the player"), required=False)


class VerifyDiceForm(forms.Form):
    """R23: a roll key and how many dice to recompute from the published seed."""

    key = forms.CharField(
        label=_("Roll key"),
        max_length=120,
        help_text=_('As in the report, e.g. "1:42:attack" (turn:order id:kind).'),
    )
    dice = forms.IntegerField(
        label=_("Number of dice"),
        min_value=0,
        max_value=MAX_DICE,
        help_text=lazy_format(_("0 to %(max)d."), max=MAX_DICE),
    )
    # A classic board's attack rolls d6 with a key like any other's ("1:42:attack"), so its
    # report's links say so; without it, the key decides (d6 for a perception check, else d10).
    sides = forms.IntegerField(
        label=_("Sides of each die"), required=False, min_value=2, max_value=100,
        help_text=_("Empty for the usual dice: d10, or d6 for a perception check."),
    )  # fmt: skip


class VerifyDigestForm(forms.Form):
    """R80, R23: an election roll-off's key, whose HMAC-SHA256 digest under the published
    seed is recomputed."""

    digest_key = forms.CharField(
        label=_("Roll-off key"),
        max_length=200,
        help_text=_(
            "As in the report: turn:election:candidate, or turn:election:department:candidate."
        ),
    )


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["turn_processed", "reminders", "attack_notices", "announcements", "press_digest"]
        labels = {
            "turn_processed": _("Turn processed (with the link to your report)"),
            "reminders": _(
                "Reminder before the deadline when I have queued no orders, and word when "
                "the GM extends a deadline"
            ),
            "attack_notices": _(
                "One of my departments is the target of a linking attempt, or another player "
                "offers me a department"
            ),
            "announcements": gettext_lazy("The GM's announcements"),
            "press_digest": gettext_lazy(
                "Messages I have not read for a while (at most one mail an hour)"
            ),
        }
