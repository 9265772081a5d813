"""The order forms of RULES parts 7 and 8: a perception check (R70), a gift of tokens and a
hand-over of a department (R62), and the receiver's accept (which the orders page and the
campaign page show as one button on the offer). web/order_forms.py registers them in FORMS.
As there, the engine says what is legal (intrigue/web/deal_choices.py); the form keeps what the
player may see (R50) and turns the input into the ENGINE.md fields of the order."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.intrigue.selectors.handover_offers import already_offered, pending_id
from campaigns.intrigue.web.deal_choices import (
    SEP,
    accept_choices,
    gift_choice,
    gift_givers,
    gift_receivers,
    handover_departments,
    perceive_choices,
    perception_bonus,
)
from campaigns.models import Order
from campaigns.web.order_form_base import OrderForm, token_field, tokens_initial, tokens_of
from campaigns.words import labels


class PerceiveForm(OrderForm):
    """R70: a perception check on a department the player knows at least as `rumoured`:
    3d6 + Perception + shticks opens the envelopes whose target the total meets (R71)."""

    kind = Order.Kind.PERCEIVE
    department = forms.ChoiceField(label=gettext_lazy("Department to look into"))

    def setup(self) -> None:
        self.fields["department"].choices = perceive_choices(self.ctx, self.legal)
        if (slug := self.initial.get("department")) in self.ctx.pks:  # an edit: slug -> id
            self.initial["department"] = str(self.ctx.pks[slug])
        bonus = perception_bonus(self.ctx, self.legal)
        dice = _("3d6") if not bonus.dice else _("3d6 + %(n)s more d6") % {"n": bonus.dice}
        self.fields["department"].help_text = _(
            "Rolled at the deadline: %(dice)s + %(skill)s (your Perception and shticks). "
            "Every envelope on the department addressed to you whose target number the total "
            "meets opens into your dossier (R70, R71). Nothing is known of its envelopes "
            "before: how many there are, or their targets. One check per department a turn."
        ) % {"dice": dice, "skill": bonus.skill}

    def payload(self) -> dict[str, Any]:
        return {"department": self.ctx.slug_of(self.cleaned_data["department"])}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"department": payload.get("department")}


class GiftForm(OrderForm):
    """R62: unmoved tokens from one of the player's departments to a department of another
    player's structure that they know (`known`), resolved in the move phase."""

    kind = Order.Kind.GIFT
    giver = forms.ChoiceField(label=gettext_lazy("From your department"))
    receiver = forms.ChoiceField(
        label=gettext_lazy("To another player's department"),
        help_text=gettext_lazy(
            "Departments of other players' structures whose card you know (R50). The tokens "
            "arrive at the move phase and count as moved there (R42)."
        ),
    )
    tokens_money = token_field(gettext_lazy("Money given"))
    tokens_people = token_field(gettext_lazy("People given"))
    tokens_authority = token_field(gettext_lazy("Authority given"))

    def setup(self) -> None:
        self.fields["giver"].choices = gift_givers(self.ctx, self.legal)
        self.fields["receiver"].choices = gift_receivers(self.ctx, self.legal)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        giver, receiver = data.get("giver"), data.get("receiver")
        if not giver or not receiver:
            return data
        tokens = tokens_of(data, "tokens")
        choice = gift_choice(self.legal, giver)
        if not tokens:
            raise forms.ValidationError(_("Give at least one token."))
        if choice is None or choice.accepts(receiver, tokens):
            return data
        held = {t: n for t, n in choice.unmoved.items() if n}
        if any(n > choice.unmoved.get(t, 0) for t, n in tokens.items()):
            raise forms.ValidationError(
                _("%(giver)s has only %(tokens)s that have not moved this turn (R42, R62).")
                % {"giver": self.ctx.name(giver), "tokens": labels.tokens_text(held)}
            )
        # The receiver's stash and capacity are hidden (R50): say no more than that.
        raise forms.ValidationError(
            _("%(receiver)s cannot take that many tokens now (details you cannot see, R50).")
            % {"receiver": self.ctx.name(receiver)}
        )

    def payload(self) -> dict[str, Any]:
        return {
            "from": self.cleaned_data["giver"],
            "to": self.cleaned_data["receiver"],
            "tokens": tokens_of(self.cleaned_data, "tokens"),
        }

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {
            "giver": payload.get("from"),
            "receiver": payload.get("to"),
            **tokens_initial(payload.get("tokens"), "tokens"),
        }


class HandoverForm(OrderForm):
    """R62: one of the player's departments to another player, who must accept it in the
    same turn; resolved at the start of the link phase."""

    kind = Order.Kind.HANDOVER
    department = forms.ChoiceField(label=gettext_lazy("Your department"))
    receiver = forms.ChoiceField(
        label=gettext_lazy("Hand it over to"),
        help_text=gettext_lazy(
            "They are told at once and must accept it on their orders page this turn. It then "
            "joins their structure at the start of the link phase with its stash, every link "
            "to your structure is cut, and it stays only if a link to one of their departments "
            "ties it in by the end of that phase: they may queue that link once they accept "
            "(R62, R13)."
        ),
    )

    def setup(self) -> None:
        self.fields["department"].choices = handover_departments(self.ctx, self.legal)
        self.fields["receiver"].choices = self.ctx.other_players()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # A department already offered to every other player is not in the select: its
        # "not one of the available choices" becomes the reason below.
        department = data.get("department") or self.data.get("department")
        receiver = data.get("receiver")
        queued = self.ctx.queued(Order.Kind.HANDOVER)
        pk = pending_id(queued, self.ctx.edited_by(self.legal), department, receiver)
        if pk is not None and isinstance(department, str) and isinstance(receiver, str):
            self.errors.pop("department", None)
            players = dict(self.ctx.other_players())
            raise forms.ValidationError(
                already_offered(
                    self.ctx.names.get(department, department), players.get(receiver, receiver), pk
                )
            )
        return data

    def payload(self) -> dict[str, Any]:
        return {"department": self.cleaned_data["department"], "to": self.cleaned_data["receiver"]}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"department": payload.get("department"), "receiver": payload.get("to")}


class AcceptForm(OrderForm):
    """R62: the receiver's consent to one hand-over offered to them this turn."""

    kind = Order.Kind.ACCEPT
    offer = forms.ChoiceField(label=gettext_lazy("Hand-over offered to you"))

    def setup(self) -> None:
        players = dict(self.ctx.other_players())
        self.fields["offer"].choices = accept_choices(self.ctx, self.legal, players)
        if isinstance(offer := self.initial.get("offer"), str) and SEP in offer:  # an edit
            slug, giver = offer.split(SEP, 1)
            if slug in self.ctx.pks:
                self.initial["offer"] = f"{self.ctx.pks[slug]}{SEP}{giver}"

    def payload(self) -> dict[str, Any]:
        department, giver = self.cleaned_data["offer"].split(SEP, 1)
        return {"department": self.ctx.slug_of(department), "from": giver}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"offer": f"{payload.get('department')}{SEP}{payload.get('from')}"}


DEAL_FORMS: tuple[type[OrderForm], ...] = (PerceiveForm, GiftForm, HandoverForm, AcceptForm)
