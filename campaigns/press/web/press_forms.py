"""Forms of the press pages. They check input only; press/services/press.py decides whether the
campaign's press rules allow it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign
from campaigns.models.press import MAX_ANNOUNCEMENT_CHARS, MAX_MESSAGE_CHARS, MAX_SUBJECT_CHARS
from campaigns.web.order_form_base import NOT_PREFILLED
from campaigns.web.order_forms import FORMS
from campaigns.words.labels import lazy_format

# A quoted order keeps the order form's own fields only, each value short: it is a link.
QUOTE_VALUES = 10
QUOTE_VALUE_CHARS = 200


def message_field() -> forms.CharField:
    return forms.CharField(
        label=_("Message"),
        max_length=MAX_MESSAGE_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": MAX_MESSAGE_CHARS}),
        help_text=lazy_format(
            _("Plain text; web addresses become links. At most %(limit)d characters."),
            limit=MAX_MESSAGE_CHARS,
        ),
    )


class MessageForm(forms.Form):
    text = message_field()
    attach_quote = forms.BooleanField(label=_("Send the quoted order with it"), required=False)


class ConversationForm(forms.Form):
    """A new private conversation: whom to write to, an optional subject, the first message."""

    recipients = forms.TypedMultipleChoiceField(
        label=_("To"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    subject = forms.CharField(label=_("Subject"), max_length=MAX_SUBJECT_CHARS, required=False)
    text = message_field()
    attach_quote = forms.BooleanField(label=_("Send the quoted order with it"), required=False)

    def __init__(self, *args: Any, members: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["recipients"].choices = members


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Announcement"),
        max_length=MAX_ANNOUNCEMENT_CHARS,
        widget=forms.Textarea(attrs={"rows": 5, "maxlength": MAX_ANNOUNCEMENT_CHARS}),
        help_text=_("Every member reads it on the campaign page and gets it by mail."),
    )


class PressRulesForm(forms.Form):
    rules = forms.ChoiceField(
        label=_("Press rules"), choices=Campaign.PressRules.choices, widget=forms.RadioSelect
    )
    gm_reads = forms.BooleanField(
        label=_("The GM may read every conversation, private ones too"),
        required=False,
        help_text=_("Players are told before they write."),
    )


def quote_from(data: QueryDict, board: str, kind: str) -> dict[str, Any] | None:
    """A quoted order from an order form's posted fields: the board, the kind and the
    form's own fields (values trimmed), or None for a kind that has no form."""
    form = FORMS.get(kind)
    if form is None:
        return None
    fields = {}
    for name in form.base_fields:
        values = [v[:QUOTE_VALUE_CHARS] for v in data.getlist(name) if v and "\x00" not in v]
        if name not in NOT_PREFILLED and values:
            fields[name] = values[:QUOTE_VALUES]
    return {"board": board, "kind": kind, "fields": fields}
