"""The base of every order form (RULES R40): the one-time token, the turn the form was
opened for, the engine's legal choices of its context (selectors.order_context), and the
token fields most kinds share. The forms are in web/order_forms.py and web/deal_forms.py."""

from __future__ import annotations

import uuid
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.engine.board import TYPES
from campaigns.selectors.order_context import OrderContext
from campaigns.templatetags.rules import rule_links


def fields_only_helper() -> FormHelper:
    """crispy-forms renders the fields only: the page writes the <form> tag."""
    helper = FormHelper()
    helper.form_tag = False
    return helper


def linked_help(form: forms.Form) -> None:
    """Every rule id in the form's help texts as a link to How to play, as the site's own
    text has them (Django renders help text as it is: rule_links escapes it first)."""
    for field in form.fields.values():
        if field.help_text:
            field.help_text = rule_links(field.help_text)


# Fields of every order form that say how it was opened, not what is ordered: a link that
# prefills a form (a quoted order in press) leaves them out.
NOT_PREFILLED = frozenset({"client_token", "turn"})


class OrderForm(forms.Form):
    """Base: the one-time token (a form posted twice stores one order) and the context.
    Editing (initial given): the queued order being edited does not count against itself."""

    kind: str = ""
    client_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The turn the form was opened for: a form left open while the turn was processed must
    # not quietly queue its order into the next turn. (A post without it, from a script or
    # an old page, is judged against the open turn as before.)
    turn = forms.IntegerField(
        widget=forms.HiddenInput, min_value=0, max_value=10**6, required=False
    )

    def __init__(self, *args: Any, ctx: OrderContext, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ctx = ctx
        self.legal = ctx.legal(without=self.edited_id())
        self.fields["client_token"].initial = uuid.uuid4().hex
        self.fields["turn"].initial = ctx.turn.number
        self.helper = fields_only_helper()
        self.setup()
        linked_help(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        opened_for, now = data.get("turn"), self.ctx.turn.number
        if opened_for is not None and opened_for != now:
            # Re-render for the open turn, so the next post is judged afresh.
            self.data = self.data.copy()
            self.data["turn"] = str(now)
            raise forms.ValidationError(
                _(
                    "This form was opened for turn %(old)s, which is over: turn %(now)s is "
                    "open now. Nothing was stored; check the choices for turn %(now)s and queue "
                    "again."
                )
                % {"old": opened_for, "now": now}
            )
        return data

    def edited_id(self) -> str | None:
        """The engine id of the queued order this form edits: one of this kind whose
        fields give the form's initial values."""
        if not self.initial:
            return None
        for order in self.ctx.queued(self.kind):
            if self.initial_from(order) == self.initial:
                return str(order["id"])
        return None

    def setup(self) -> None:
        """Fill the choices (subclasses)."""

    def payload(self) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {}


def token_field(label: str) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=99, initial=0, required=False)


def tokens_of(data: dict[str, Any], prefix: str) -> dict[str, int]:
    return {t: data.get(f"{prefix}_{t}") or 0 for t in TYPES if data.get(f"{prefix}_{t}")}


def tokens_initial(tokens: dict[str, int] | None, prefix: str) -> dict[str, int]:
    return {f"{prefix}_{t}": n for t, n in (tokens or {}).items()}
