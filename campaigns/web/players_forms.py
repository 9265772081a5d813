"""Forms of the players page and of joining through an invitation link."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Invitation
from campaigns.services.players import MAX_DAYS, MAX_USES
from illumineaucracy.accounts import SignUpForm

__all__ = ["InvitationForm", "SignUpForm"]


class InvitationForm(forms.Form):
    role = forms.ChoiceField(
        choices=Invitation._meta.get_field("role").choices, label=_("They join as")
    )
    uses = forms.IntegerField(
        min_value=1,
        max_value=MAX_USES,
        initial=1,
        label=_("For how many people"),
        help_text=_("1: a link for one person. More: one link you can share with a group."),
    )
    days = forms.IntegerField(
        min_value=1, max_value=MAX_DAYS, initial=14, label=_("Valid for (days)")
    )
