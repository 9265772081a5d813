"""The base of every order form (RULES R40): the one-time token, the turn the form was
opened for, the engine's legal choices of its context (selectors.order_context), and the
token fields most kinds share. The forms are in web/order_forms.py and
intrigue/web/deal_forms.py."""

from __future__ import annotations

import re
import uuid
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.engine.board import TYPES
from campaigns.engine.errors import EngineError
from campaigns.models import Order
from campaigns.selectors.order_checks import refusal
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.visibility import Level
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


NO_LONGER_OFFERED = _("%(choice)s is no longer offered: %(reason)s")
CHANGED = _("the board or your orders changed since this form was opened")
ARROW = " → "

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

    # Said before `why_not` when the form has nothing to offer (order_form.html).
    why_not_lead = _("You cannot give this order on this board now.")

    def __init__(self, *args: Any, ctx: OrderContext, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ctx = ctx
        # Why the form offers nothing to choose (its kind has no legal choice now), if so:
        # the page says it in words and offers nothing to queue; a post gets the same words.
        self.why_not: str | None = None
        self.legal = ctx.legal(without=self.edited_id())
        self.fields["client_token"].initial = uuid.uuid4().hex
        self.fields["turn"].initial = ctx.turn.number
        self.helper = fields_only_helper()
        self.setup()
        linked_help(self)

    def nothing_to_choose(self, reason: str) -> None:
        """The kind has no legal choice now (the GM changed a stash, another tab used the
        tokens): say `reason`, never a list left empty whose post says "This field is
        required"."""
        self.why_not = reason
        for field in self.fields.values():
            field.required = False

    def clean(self) -> dict[str, Any]:
        if self.why_not is not None:
            raise forms.ValidationError(self.why_not)
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

    def full_clean(self) -> None:
        super().full_clean()
        if gone := self.gone_choices():
            self.explain_gone(gone)

    def gone_choices(self) -> list[str]:
        """The fields whose posted value the form does not offer (now)."""
        return [
            name
            for name, errors in (self._errors or {}).items()
            if name in self.fields and any(e.code == "invalid_choice" for e in errors.as_data())
        ]

    def explain_gone(self, gone: list[str]) -> None:
        """A choice the form offered when it was opened may be gone when it is posted: a
        second tab queued an order that used the tokens, the board changed. Say which
        choice and why, in the engine's words where it gives a reason, never Django's
        "Select a valid choice"."""
        reason = self.engine_reason(gone) or str(CHANGED)
        for name in gone:
            message = NO_LONGER_OFFERED % {"choice": self.choice_named(name), "reason": reason}
            self._errors[name] = self.error_class(
                [forms.ValidationError(message, code="gone")], renderer=self.renderer
            )

    def posted(self, name: str) -> Any:
        field = self.fields[name]
        return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))

    def engine_reason(self, gone: list[str]) -> str | None:
        """R40: why the engine refuses the order as posted (R50-safe), or None where it
        would take it (the form may offer less than the engine, R50) or cannot say."""
        posted = {name: self.posted(name) for name in gone}
        if any("\x00" in str(value) for value in posted.values()):
            return None  # junk no form offered (and PostgreSQL cannot even look it up)
        kept = self.cleaned_data
        self.cleaned_data = {**kept, **posted}
        try:
            payload = self.payload()
        except (forms.ValidationError, LookupError, ValueError, TypeError, AttributeError):
            return None  # other fields are wrong too, or the value is junk: they say so
        finally:
            self.cleaned_data = kept
        edited = self.edited_id()
        mine = [o for o in self.ctx.state["orders"] if o.get("player") == self.ctx.player.player_id]
        seqs = {str(o.get("id")): o.get("seq", 0) for o in mine}
        seq = seqs[edited] if edited in seqs else max([-1, *seqs.values()]) + 1
        try:
            return refusal(
                player=self.ctx.player, turn=self.ctx.turn, board=self.ctx.board,
                kind=self.kind, payload=payload, seq=seq,
                replacing=Order(pk=int(edited)) if edited else None,
            )  # fmt: skip
        except EngineError:
            return None

    def choice_named(self, name: str) -> str:
        """The posted choice in words: the departments it names, where the player may
        name each (R50), else the field it was made in."""
        value = self.posted(name)
        values = value if isinstance(value, list) else [value]
        parts = [part for v in values for part in re.split(r"[|,]", str(v))]
        named = [self.part_named(part) for part in parts]
        if parts and all(named):
            return ARROW.join(str(n) for n in named)
        return str(_("Your choice for “%(field)s”") % {"field": self.fields[name].label})

    def part_named(self, part: str) -> str | None:
        """A department's name from a part of a form value, if the player may name it
        (R50): by its id where they know it at least as rumoured, by its slug only where
        they know its card (a rumoured department's slug must not be confirmed by a guess)."""
        by_id = part.lstrip("#").isdigit()
        slug = self.ctx.slug_of(part.lstrip("#")) if by_id else part
        least = Level.RUMOURED if by_id else Level.KNOWN
        if slug is None or self.ctx.levels.get(slug, Level.UNKNOWN) < least:
            return None
        return self.ctx.names.get(slug)

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
