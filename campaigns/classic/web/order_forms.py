"""The order forms of a classic board (RULES R94-R97, ENGINE.md part 10): one form for every
kind, whose select offers exactly the engine's legal choices (classic/selectors/orders.py),
named by groups' and players' names; anything else is refused in words and writes nothing."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.classic.selectors.orders import (
    AMOUNTS,
    CHOICE_FIELDS,
    REQUIRED_AMOUNTS,
    SEP,
    ClassicOrderContext,
)

MOST_MB = 10**6  # far above any treasury; the engine's check says the real bound
AMOUNT_LABELS = {
    "spend": _("Megabucks from the attacking group"),
    "spend_illuminati": _("Megabucks from your Illuminati"),
    "transfer_after": _("Megabucks moved to the target if the control succeeds"),
    "amount": _("Megabucks"),
}
# R96: a standing defence spends from the defended group (each MB counting 2) and from the
# Illuminati (each counting 1), as far as they hold when the attack comes.
DEFEND_LABELS = {
    "spend": _("Megabucks from the defended group (each counts 2)"),
    "spend_illuminati": _("Megabucks from your Illuminati (each counts 1)"),
}


class ClassicOrderForm(forms.Form):
    """One classic order of `kind` (the site's value) for the context's player."""

    client_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The turn the form was opened for: a form left open over a turn's processing must not
    # queue its order into the next turn.
    turn = forms.IntegerField(
        widget=forms.HiddenInput, min_value=0, max_value=10**6, required=False
    )

    def __init__(
        self, data: Any = None, *, ctx: ClassicOrderContext, kind: str, **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.ctx, self.kind = ctx, kind
        self.options = {o.value: o for o in ctx.options(kind)}
        self.why_not = ctx.why_not(kind)
        if not self.is_bound:
            self.initial.setdefault("client_token", uuid.uuid4().hex)
            self.initial.setdefault("turn", ctx.turn.number)
        if CHOICE_FIELDS[kind]:
            self.fields["choice"] = forms.ChoiceField(
                label=_("Choice"), choices=[(o.value, o.label) for o in self.options.values()]
            )
        if kind == "attack":
            self.fields["assist"] = forms.MultipleChoiceField(
                label=_("Assistants (their transferable power helps; not the attacking group)"),
                choices=ctx.mine(),
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        for name in AMOUNTS.get(kind, ()):
            self.fields[name] = forms.IntegerField(
                label=(DEFEND_LABELS if kind == "defend" else AMOUNT_LABELS)[name],
                min_value=0,
                max_value=MOST_MB,
                required=kind in REQUIRED_AMOUNTS,
            )
        if kind == "pass":
            # R94: a pass rejects every other order of the player's this turn: said and
            # confirmed, not queued by a stray click (or an empty post).
            self.fields["confirm"] = forms.BooleanField(
                label=_("I pass: +5 MB to my Illuminati, and every other order of mine this "
                        "turn is rejected"),
            )  # fmt: skip
        if kind == "transfer":
            self.fields["action"] = forms.BooleanField(
                label=_("As one of your two actions (else a free transfer)"), required=False
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        turn = cleaned.get("turn")
        if turn is not None and turn != self.ctx.turn.number:
            raise forms.ValidationError(
                _("This form was opened for turn %(n)s, which is over. Nothing was stored.")
                % {"n": turn}
            )
        if self.errors:
            return cleaned
        if self.kind == "attack":
            attacker = self.options[cleaned["choice"]].fields["group"]
            if attacker in (cleaned.get("assist") or []):
                # R95: the engine's own check only says "not a legal choice".
                raise forms.ValidationError(
                    _("%(group)s makes the attack, so it cannot also assist it (R95). Nothing "
                      "was stored.") % {"group": self.ctx.group_name(attacker)}
                )  # fmt: skip
        reason = self.ctx.refusal(self.kind, self.payload())
        if reason is not None:
            raise forms.ValidationError(
                _("That order is not one the rules allow now: %(reason)s. Nothing was stored.")
                % {"reason": self.ctx.reason_words(reason)}
            )
        return cleaned

    @classmethod
    def initial_from(cls, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A queued order's fields as the form's initial values (editing it, R40)."""
        initial: dict[str, Any] = {
            name: payload[name] for name in (*AMOUNTS.get(kind, ()), "action") if name in payload
        }
        if CHOICE_FIELDS[kind]:
            initial["choice"] = SEP.join(str(payload.get(f, "")) for f in CHOICE_FIELDS[kind]
                                         if f in payload)  # fmt: skip
        if payload.get("assist"):
            initial["assist"] = list(payload["assist"])
        return initial

    def payload(self) -> dict[str, Any]:
        """The order's ENGINE.md part 10 fields (call after is_valid)."""
        data = self.cleaned_data
        payload: dict[str, Any] = {}
        if "choice" in self.fields:
            payload.update(self.options[data["choice"]].fields)
        if data.get("assist"):
            payload["assist"] = list(data["assist"])
        for name in AMOUNTS.get(self.kind, ()):
            if data.get(name) is not None:
                payload[name] = data[name]
        if data.get("action"):
            payload["action"] = True
        return payload
