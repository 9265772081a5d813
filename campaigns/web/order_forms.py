"""The order forms (RULES R41-R47), one per kind. The engine says what is legal
(campaigns.engine.legal, read through selectors.order_context.OrderContext); this module only
keeps what the player may see (R50: targets they know at least as `known` and do not control,
paths through departments they know), names the departments, and turns the input into the
ENGINE.md fields of the order. The service then has the engine judge it again (R40).

The attempt form keeps two selects (attacker, target: other pages and tests post those
fields); they offer only departments that are part of a legal pair, the pairs are listed
under them, and clean() refuses any other pair with the engine's reason (R43, filtered by
R50), an attempt the attacker's stash cannot pay (cost + spend), and one that cannot win
unless the player confirms it ("Queue it anyway")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from campaigns.elections.web.election_forms import ELECTION_FORMS
from campaigns.engine.board import TYPES
from campaigns.intrigue.web.deal_forms import DEAL_FORMS
from campaigns.models import Order
from campaigns.selectors.order_checks import safe_reason
from campaigns.selectors.order_context import MAX_PATH
from campaigns.selectors.reinforcement import reinforcement
from campaigns.services.orders import MAX_INTENT_CHARS
from campaigns.web.attempt_preview import AttemptPreview, attempt_preview
from campaigns.web.order_choices import (
    OTHER,
    Choices,
    end_slug,
    function_choices,
    link_choices,
    link_value,
    ordering_value,
    path_label,
    priority_choices,
    visible_pairs,
    visible_routes,
)
from campaigns.web.order_form_base import (
    OrderForm,
    fields_only_helper,
    token_field,
    tokens_initial,
    tokens_of,
)
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS, lazy_format

TOKEN_CHOICES = [("", _("default (Money, People, Authority)"))] + list(TYPE_LABELS.items())
# R43: the name of the button that queues an attempt that cannot win all the same.
CONFIRM = "anyway"
# R43 step 1 and step 3, R21: the two kinds of tokens an attempt uses, told apart.
COST_HELP = _(
    "Cost paid: the price of trying, twice what the target consumes (R43). It adds nothing "
    "to your roll and is paid whether the attempt wins or fails. Leave all three at 0 to pay "
    "the default: the type the target consumes."
)
SPEND_HELP = _(
    "Spent for dice and skill: extra tokens on your Impress roll (R21), also gone whether "
    "the attempt wins or fails."
)


class LinkForm(OrderForm):
    """R41: add or break a link S->C inside the player's structure."""

    link = forms.ChoiceField(label=_("Link"))

    def setup(self) -> None:
        self.fields["link"].choices = link_choices(self.ctx, self.legal, self.kind)
        if isinstance(link := self.initial.get("link"), str) and "|" in link:  # an edit
            ends = link.split("|", 1)
            self.initial["link"] = link_value(self.ctx, *ends) or link

    def payload(self) -> dict[str, Any]:
        supplier, consumer = (end_slug(self.ctx, e) for e in self.cleaned_data["link"].split("|"))
        return {"from": supplier, "to": consumer}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"link": f"{payload.get('from')}|{payload.get('to')}"}


class AddLinkForm(LinkForm):
    kind = Order.Kind.ADD_LINK


class BreakLinkForm(LinkForm):
    kind = Order.Kind.BREAK_LINK


class PriorityForm(OrderForm):
    """R12/R41: the order in which a supplier feeds its consumers."""

    kind = Order.Kind.PRIORITY
    ordering = forms.ChoiceField(label=_("Supplier and its consumers, first fed first"))

    def setup(self) -> None:
        self.fields["ordering"].choices = priority_choices(self.ctx, self.legal)
        if isinstance(ordering := self.initial.get("ordering"), str) and "|" in ordering:
            supplier, consumers = ordering.split("|", 1)  # an edit's slugs, as form values
            self.initial["ordering"] = ordering_value(self.ctx, supplier, consumers.split(","))

    def payload(self) -> dict[str, Any]:
        supplier, consumers = self.cleaned_data["ordering"].split("|")
        ends = [end_slug(self.ctx, end) for end in consumers.split(",")]
        return {"department": supplier, "consumers": ends}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"ordering": f"{payload.get('department')}|{','.join(payload['consumers'])}"}


class MoveForm(OrderForm):
    """R42: a route along existing links, the tokens carried, and the type of each drop."""

    kind = Order.Kind.MOVE
    route = forms.ChoiceField(label=_("From → path"))
    tokens_money = token_field(_("Money carried"))
    tokens_people = token_field(_("People carried"))
    tokens_authority = token_field(_("Authority carried"))
    drop_1 = forms.ChoiceField(label=_("Drop at the 1st department passed"), required=False)
    drop_2 = forms.ChoiceField(label=_("Drop at the 2nd"), required=False)
    drop_3 = forms.ChoiceField(label=_("Drop at the 3rd"), required=False)
    drop_4 = forms.ChoiceField(label=_("Drop at the 4th"), required=False)

    def setup(self) -> None:
        self.fields["route"].choices = self.route_choices()
        for i in range(1, MAX_PATH):
            self.fields[f"drop_{i}"].choices = TOKEN_CHOICES

    def route_choices(self) -> Choices:
        return visible_routes(self.ctx, self.legal.move)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "route" in data and not tokens_of(data, "tokens"):
            raise forms.ValidationError(_("Carry at least one token."))
        return data

    def payload(self) -> dict[str, Any]:
        start, *path = self.cleaned_data["route"].split(",")
        payload: dict[str, Any] = {
            "from": start,
            "path": path,
            "tokens": tokens_of(self.cleaned_data, "tokens"),
        }
        drops = [self.cleaned_data.get(f"drop_{i}") for i in range(1, len(path))]
        if any(drops):
            if not all(drops):
                raise forms.ValidationError(_("Name the type of every drop, or of none."))
            payload["drops"] = [{d: 1} for d in drops]
        return payload

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "route": ",".join([payload.get("from", ""), *payload.get("path", [])]),
            **tokens_initial(payload.get("tokens"), "tokens"),
        }
        for i, drop in enumerate(payload.get("drops") or [], start=1):
            initial[f"drop_{i}"] = next(iter(drop))
        return initial


class ReinforceForm(MoveForm):
    """R46: the defender's one free move, answering one attempt, ending at its target."""

    kind = Order.Kind.REINFORCE
    why_not_lead = _("No reinforcement is possible now.")

    def __init__(self, *args: Any, attempt: Order, **kwargs: Any) -> None:
        self.attempt = attempt
        super().__init__(*args, **kwargs)

    def route_choices(self) -> Choices:
        target = str(self.attempt.payload.get("target"))
        offer = reinforcement(self.ctx, target, self.legal)
        if offer.why_not is not None:
            self.nothing_to_choose(offer.why_not)
        return visible_routes(self.ctx, offer.routes)

    def payload(self) -> dict[str, Any]:
        return {"answers": self.attempt.engine_id, **super().payload()}


class FunctionForm(OrderForm):
    """R45/R22: a department's function (for 7s) or something else (for 9s)."""

    kind = Order.Kind.FUNCTION
    function = forms.ChoiceField(label=_("Department and function"))
    task = forms.CharField(
        label=_("Something else (free text, rolled for 9s)"), required=False, max_length=200
    )
    stat = forms.ChoiceField(label=_("Stat rolled"), choices=list(STAT_LABELS.items()))
    spend_money = token_field(_("Money spent"))
    spend_people = token_field(_("People spent"))
    spend_authority = token_field(_("Authority spent"))
    intent = forms.CharField(
        label=_("Intent"),
        max_length=MAX_INTENT_CHARS,
        help_text=lazy_format(
            _("What the department means to achieve; at most %(limit)s characters."),
            limit=lazy(number_format, str)(MAX_INTENT_CHARS, force_grouping=True),
        ),
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def setup(self) -> None:
        self.fields["function"].choices = function_choices(self.ctx, self.legal)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("function", "").endswith(f"|{OTHER}") and not data.get("task", "").strip():
            self.add_error("task", _("Say what the department tries to do."))
        return data

    def choice_named(self, name: str) -> str:
        """A department and its function ("The Mint: coinage") or something else."""
        value = str(self.posted(name))
        dept, _sep, function = value.partition("|")
        named = self.part_named(dept) if name == "function" else None
        if named is None or not function:
            return super().choice_named(name)
        what = _("something else") if function == OTHER else Truncator(function).chars(60)
        return f"{named}: {what}"

    def payload(self) -> dict[str, Any]:
        dept, function = self.cleaned_data["function"].split("|")
        if function == OTHER:
            function = self.cleaned_data["task"].strip()
        return {
            "department": dept,
            "function": function,
            "stat": self.cleaned_data["stat"],
            "spend": tokens_of(self.cleaned_data, "spend"),
            "intent": self.cleaned_data["intent"],
        }

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {
            "function": f"{payload.get('department')}|{payload.get('function')}",
            "stat": payload.get("stat"),
            "intent": payload.get("intent", ""),
            **tokens_initial(payload.get("spend"), "spend"),
        }


class AttemptForm(OrderForm):
    """R43: an attacker and a target forming a pair the engine allows (the target known to
    the player, R50), cost and spend; clean() refuses any other pair with the engine's
    reason, an attempt whose cost + spend the attacker's stash cannot cover, and one whose
    chance is 0 unless the post confirms it (the "Queue it anyway" button, CONFIRM): it
    would pay its cost and use the turn's attempt for nothing. Each problem is one error;
    while previewing, the preview says it and the form does not say it again."""

    kind = Order.Kind.ATTEMPT
    attacker = forms.ChoiceField(label=_("Attacker"))
    target = forms.ChoiceField(label=_("Target"))
    cost_money = token_field(_("Cost paid in Money"))
    cost_people = token_field(_("Cost paid in People"))
    cost_authority = token_field(_("Cost paid in Authority"))
    spend_authority = token_field(_("Authority spent (1 die each)"))
    spend_money = token_field(_("Money spent (1 skill each)"))
    spend_people = token_field(_("People spent (1 skill each)"))

    def setup(self) -> None:
        pairs = self.pairs = visible_pairs(self.ctx, self.legal)
        attackers = dict.fromkeys(c.attacker for c in pairs)
        targets = dict.fromkeys(c.target for c in pairs)
        self.fields["attacker"].choices = [(s, self.ctx.name(s)) for s in attackers]
        self.fields["target"].choices = [(s, self.ctx.name(s)) for s in targets]
        self.fields["target"].help_text = _("Possible pairs: %(pairs)s") % {
            "pairs": "; ".join(path_label(self.ctx, [c.attacker, c.target]) for c in pairs)
            or _("none")
        }
        self.fields["cost_money"].help_text = COST_HELP
        self.fields["spend_authority"].help_text = SPEND_HELP
        self.pair_ok = False
        self.previewing = False
        self.hopeless: str | None = None  # why the attempt cannot win, once cleaned

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        attacker, target = data.get("attacker"), data.get("target")
        if not attacker or not target:
            return data
        crossing = any(c.attacker == attacker and c.target == target for c in self.pairs)
        refusal = None if crossing else self.legal.attempt_refusal(attacker, target)
        if refusal is not None:
            self.add_error(None, safe_reason(refusal, board=self.ctx.board, player=self.ctx.player))
            return data
        self.pair_ok = True
        preview = attempt_preview(self.ctx, self.payload())
        if preview.missing:
            if not self.previewing:
                self.add_error(None, preview.missing)
            return data
        self.hopeless = preview.hopeless
        if self.hopeless and not self.previewing and self.data.get(CONFIRM) != "1":
            confirm = _("Press “Queue it anyway” to queue it all the same.")
            self.add_error(None, f"{self.hopeless} {confirm}")
        return data

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "attacker": self.cleaned_data["attacker"],
            "target": self.cleaned_data["target"],
            "spend": tokens_of(self.cleaned_data, "spend"),
        }
        cost = tokens_of(self.cleaned_data, "cost")
        if cost:
            payload["cost"] = cost
        return payload

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {
            "attacker": payload.get("attacker"),
            "target": payload.get("target"),
            **tokens_initial(payload.get("cost"), "cost"),
            **tokens_initial(payload.get("spend"), "spend"),
        }

    def preview(self) -> AttemptPreview | None:
        """The odds of a legal pair, with what is missing if the stash cannot pay, and why
        it cannot win if it cannot (the page then offers "Queue it anyway")."""
        self.previewing = True
        self.is_valid()
        if not self.pair_ok:
            return None
        return attempt_preview(self.ctx, self.payload())


class DefenceForm(forms.Form):
    """R47: what one department spends when attacked (a standing setting, not an order)."""

    defence_money = token_field(_("Money (1 skill each)"))
    defence_people = token_field(_("People (1 die each)"))
    defence_authority = token_field(_("Authority (1 skill each)"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = fields_only_helper()

    def defence(self) -> dict[str, int]:
        return {t: self.cleaned_data.get(f"defence_{t}") or 0 for t in TYPES}


FORMS: dict[str, type[OrderForm]] = {
    form.kind: form
    for form in (
        AddLinkForm, BreakLinkForm, PriorityForm, MoveForm, AttemptForm, FunctionForm,
        *DEAL_FORMS,
    )
}  # fmt: skip
FORMS.update(ELECTION_FORMS)  # RULES R80
