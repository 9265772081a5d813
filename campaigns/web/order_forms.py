"""The order forms (RULES R41-R47), one per kind. The engine says what is legal
(campaigns.engine.legal, read through selectors.order_context.OrderContext); this module only
keeps what the player may see (R50: targets they know at least as `known` and do not control,
paths through departments they know), names the departments, and turns the input into the
ENGINE.md fields of the order. The service then has the engine judge it again (R40).

The attempt form keeps two selects (attacker, target: other pages and tests post those
fields); they offer only departments that are part of a legal pair, the pairs are listed
under them, and clean() refuses any other pair with the engine's reason (R43, filtered by
R50) and an attempt the attacker's stash cannot pay (cost + spend)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from crispy_forms.helper import FormHelper
from django import forms

from campaigns.engine.attempts import AttemptPools, attempt_pools
from campaigns.engine.board import STAT_TYPE, TYPES
from campaigns.engine.legal import (
    NO_FREE_TARGET,
    NO_TARGET,
    AttemptChoice,
    Legal,
    MoveChoice,
)
from campaigns.engine.odds import attack_wins
from campaigns.models import Order
from campaigns.selectors.order_checks import safe_reason
from campaigns.selectors.order_context import MAX_PATH, OrderContext

Choices = list[tuple[str, str]]
OTHER = "__other__"  # the function choice "something else" (R45)
ARROW = " → "
# R50: when the engine offers targets (or paths) but none the player may see.
UNSEEN = {
    Order.Kind.ATTEMPT: "you know no department outside your structure that your departments "
    "can try to link now (R43, R50)",
    Order.Kind.MOVE: "your tokens could only move through departments you do not know (R50)",
}

TOKEN_CHOICES = [("", "default (Money, People, Authority)")] + [(t, t.title()) for t in TYPES]


# --- the engine's choices, as the player may see them (R50), named ----------------------


def path_label(ctx: OrderContext, slugs: list[str] | tuple[str, ...]) -> str:
    return ARROW.join(ctx.name(s) for s in slugs)


def visible_routes(ctx: OrderContext, moves: list[MoveChoice]) -> Choices:
    """R42/R50: moves from the player's departments through departments they know."""
    return [
        (",".join([m.start, *m.path]), path_label(ctx, [m.start, *m.path]))
        for m in moves
        if ctx.controlled(m.start) and all(ctx.known(s) for s in m.path)
    ]


def visible_pairs(ctx: OrderContext, legal: Legal) -> list[AttemptChoice]:
    """R43/R50: legal pairs whose target the player knows (`known`) and does not control."""
    return [
        c
        for c in legal.attempt
        if ctx.controlled(c.attacker) and ctx.known(c.target) and not ctx.controlled(c.target)
    ]


def link_choices(ctx: OrderContext, legal: Legal, kind: str) -> Choices:
    return [
        (f"{c.supplier}|{c.consumer}", path_label(ctx, [c.supplier, c.consumer]))
        for c in legal.choices(kind)
    ]


def priority_choices(ctx: OrderContext, legal: Legal) -> Choices:
    return [
        (
            f"{c.supplier}|{','.join(ordering)}",
            f"{ctx.name(c.supplier)}: {', '.join(ctx.name(s) for s in ordering)}",
        )
        for c in legal.priority
        for ordering in c.orderings()
    ]


def function_choices(ctx: OrderContext, legal: Legal) -> Choices:
    choices = []
    for c in legal.function:
        dept = ctx.name(c.department)
        for name, skill in c.functions:
            choices.append((f"{c.department}|{name}", f"{dept}: {name} (skill {skill})"))
        choices.append((f"{c.department}|{OTHER}", f"{dept}: something else"))
    return choices


def form_choices(ctx: OrderContext, kind: str, legal: Legal | None = None) -> Choices:
    """The choices one kind's form offers (its main select)."""
    legal = legal or ctx.legal()
    match kind:
        case Order.Kind.ADD_LINK | Order.Kind.BREAK_LINK:
            return link_choices(ctx, legal, kind)
        case Order.Kind.PRIORITY:
            return priority_choices(ctx, legal)
        case Order.Kind.MOVE:
            return visible_routes(ctx, legal.move)
        case Order.Kind.ATTEMPT:
            return [(f"{c.attacker}|{c.target}", "") for c in visible_pairs(ctx, legal)]
        case Order.Kind.FUNCTION:
            return function_choices(ctx, legal)
    return []


@dataclass(frozen=True)
class KindOffer:
    """One order kind for the orders page: a button if `why_not` is None, else the reason."""

    kind: str
    label: str
    why_not: str | None


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def why_not(ctx: OrderContext, kind: str, legal: Legal) -> str:
    """The engine's reason; where the engine's list is not empty but R50 hides it all, or
    the engine's reason is about departments outside the structure, the R50-safe one."""
    engine_reason = legal.why_not.get(kind)
    if engine_reason is None or engine_reason in (NO_TARGET, NO_FREE_TARGET):
        engine_reason = UNSEEN.get(kind, "nothing you can see can be ordered now (R50)")
    return sentence(engine_reason)


def kinds_offered(ctx: OrderContext) -> list[KindOffer]:
    """Every kind the orders page offers on this board, and why not where it cannot."""
    legal = ctx.legal()
    return [
        KindOffer(
            kind,
            Order.Kind(kind).label,
            None if form_choices(ctx, kind, legal) else why_not(ctx, kind, legal),
        )
        for kind in FORMS
    ]


# --- the attempt preview (R43, R6): the engine's pools, the exact odds ------------------


@dataclass(frozen=True)
class AttemptPreview:
    """R43 and R6 for the attempt form: the engine's pools and cost, the exact chance
    (engine/odds.py) and, if the attacker cannot pay cost + spend, what is missing."""

    pools: AttemptPools
    chance: Fraction
    missing: str | None

    @property
    def percent(self) -> str:
        return f"{float(self.chance) * 100:.1f}%"

    def __getattr__(self, name: str) -> Any:
        """cost, cost_type, defence_known, defend_dice, defend_skill (the pools'), and tn,
        identical, opposed, attack_dice, attack_skill (the attack pool's)."""
        if name in ("cost", "cost_type", "defence_known", "defend_dice", "defend_skill"):
            return getattr(self.pools, name)
        attack = {"attack_dice": "dice", "attack_skill": "skill"}.get(name, name)
        if attack in ("dice", "skill", "tn", "identical", "opposed"):
            return getattr(self.pools.attack, attack)
        raise AttributeError(name)


def missing_text(ctx: OrderContext, attacker: str, pools: AttemptPools) -> str | None:
    """R43: "The Mint holds 1 Authority; the attempt needs 9." per type short."""
    if pools.covered:
        return None
    if pools.cost_problem:
        return sentence(pools.cost_problem)
    return " ".join(
        f"{ctx.name(attacker)} holds {held} {kind.title()}; the attempt needs {needed}."
        for kind, (held, needed) in pools.short.items()
    )


def attempt_preview(ctx: OrderContext, payload: dict[str, Any]) -> AttemptPreview:
    """The engine's pools for this attempt on the planned board; the target's standing
    defence counts only where the player knows it, their own departments (R47, R50)."""
    attacker, target = payload["attacker"], payload["target"]
    pools = attempt_pools(
        ctx.legal().planned, attacker, target, spend=payload.get("spend"),
        cost=payload.get("cost"), defence_known=ctx.controlled(target),
    )  # fmt: skip
    chance = attack_wins(
        attack_dice=pools.attack.dice, attack_skill=pools.attack.skill,
        attack_tn=pools.attack.tn, defend_dice=pools.defend_dice,
        defend_skill=pools.defend_skill,
    )  # fmt: skip
    return AttemptPreview(pools, chance, missing_text(ctx, attacker, pools))


# --- the forms ---------------------------------------------------------------------------


def fields_only_helper() -> FormHelper:
    """crispy-forms renders the fields only: the page writes the <form> tag."""
    helper = FormHelper()
    helper.form_tag = False
    return helper


class OrderForm(forms.Form):
    """Base: the one-time token (a form posted twice stores one order) and the context.
    Editing (initial given): the queued order being edited does not count against itself."""

    kind: str = ""
    client_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, ctx: OrderContext, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ctx = ctx
        self.legal = ctx.legal(without=self.edited_id())
        self.fields["client_token"].initial = uuid.uuid4().hex
        self.helper = fields_only_helper()
        self.setup()

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


class LinkForm(OrderForm):
    """R41: add or break a link S->C inside the player's structure."""

    link = forms.ChoiceField(label="Link")

    def setup(self) -> None:
        self.fields["link"].choices = link_choices(self.ctx, self.legal, self.kind)

    def payload(self) -> dict[str, Any]:
        supplier, consumer = self.cleaned_data["link"].split("|")
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
    ordering = forms.ChoiceField(label="Supplier and its consumers, first fed first")

    def setup(self) -> None:
        self.fields["ordering"].choices = priority_choices(self.ctx, self.legal)

    def payload(self) -> dict[str, Any]:
        supplier, consumers = self.cleaned_data["ordering"].split("|")
        return {"department": supplier, "consumers": consumers.split(",")}

    @staticmethod
    def initial_from(payload: dict[str, Any]) -> dict[str, Any]:
        return {"ordering": f"{payload.get('department')}|{','.join(payload['consumers'])}"}


class MoveForm(OrderForm):
    """R42: a route along existing links, the tokens carried, and the type of each drop."""

    kind = Order.Kind.MOVE
    route = forms.ChoiceField(label="From → path")
    tokens_money = token_field("Money carried")
    tokens_people = token_field("People carried")
    tokens_authority = token_field("Authority carried")
    drop_1 = forms.ChoiceField(label="Drop at the 1st department passed", required=False)
    drop_2 = forms.ChoiceField(label="Drop at the 2nd", required=False)
    drop_3 = forms.ChoiceField(label="Drop at the 3rd", required=False)
    drop_4 = forms.ChoiceField(label="Drop at the 4th", required=False)

    def setup(self) -> None:
        self.fields["route"].choices = self.route_choices()
        for i in range(1, MAX_PATH):
            self.fields[f"drop_{i}"].choices = TOKEN_CHOICES

    def route_choices(self) -> Choices:
        return visible_routes(self.ctx, self.legal.move)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "route" in data and not tokens_of(data, "tokens"):
            raise forms.ValidationError("Carry at least one token.")
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
                raise forms.ValidationError("Name the type of every drop, or of none.")
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

    def __init__(self, *args: Any, attempt: Order, **kwargs: Any) -> None:
        self.attempt = attempt
        super().__init__(*args, **kwargs)

    def route_choices(self) -> Choices:
        target = str(self.attempt.payload.get("target"))
        return visible_routes(self.ctx, self.legal.reinforce(target))

    def payload(self) -> dict[str, Any]:
        return {"answers": self.attempt.engine_id, **super().payload()}


class FunctionForm(OrderForm):
    """R45/R22: a department's function (for 7s) or something else (for 9s)."""

    kind = Order.Kind.FUNCTION
    function = forms.ChoiceField(label="Department and function")
    task = forms.CharField(
        label="Something else (free text, rolled for 9s)", required=False, max_length=200
    )
    stat = forms.ChoiceField(label="Stat rolled", choices=[(s, s.title()) for s in STAT_TYPE])
    spend_money = token_field("Money spent")
    spend_people = token_field("People spent")
    spend_authority = token_field("Authority spent")
    intent = forms.CharField(label="Intent", widget=forms.Textarea(attrs={"rows": 3}))

    def setup(self) -> None:
        self.fields["function"].choices = function_choices(self.ctx, self.legal)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("function", "").endswith(f"|{OTHER}") and not data.get("task", "").strip():
            self.add_error("task", "Say what the department tries to do.")
        return data

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
    reason and an attempt whose cost + spend the attacker's stash cannot cover."""

    kind = Order.Kind.ATTEMPT
    attacker = forms.ChoiceField(label="Attacker")
    target = forms.ChoiceField(label="Target")
    cost_money = token_field("Cost paid in Money")
    cost_people = token_field("Cost paid in People")
    cost_authority = token_field("Cost paid in Authority")
    spend_authority = token_field("Authority spent (1 die each)")
    spend_money = token_field("Money spent (1 skill each)")
    spend_people = token_field("People spent (1 skill each)")

    def setup(self) -> None:
        pairs = visible_pairs(self.ctx, self.legal)
        attackers = dict.fromkeys(c.attacker for c in pairs)
        targets = dict.fromkeys(c.target for c in pairs)
        self.fields["attacker"].choices = [(s, self.ctx.name(s)) for s in attackers]
        self.fields["target"].choices = [(s, self.ctx.name(s)) for s in targets]
        self.fields["target"].help_text = "Possible pairs: " + (
            "; ".join(path_label(self.ctx, [c.attacker, c.target]) for c in pairs) or "none"
        )
        self.fields[
            "cost_money"
        ].help_text = "Leave all three at 0 to pay the default: the type the target consumes."
        self.pair_ok = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        attacker, target = data.get("attacker"), data.get("target")
        if not attacker or not target:
            return data
        refusal = self.legal.attempt_refusal(attacker, target)
        if refusal is not None:
            self.add_error(None, safe_reason(refusal, board=self.ctx.board, player=self.ctx.player))
            return data
        self.pair_ok = True
        missing = attempt_preview(self.ctx, self.payload()).missing
        if missing:
            self.add_error(None, missing)
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
        """The odds of a legal pair, with what is missing if the stash cannot pay."""
        self.is_valid()
        if not self.pair_ok:
            return None
        return attempt_preview(self.ctx, self.payload())


class DefenceForm(forms.Form):
    """R47: what one department spends when attacked (a standing setting, not an order)."""

    defence_money = token_field("Money (1 skill each)")
    defence_people = token_field("People (1 die each)")
    defence_authority = token_field("Authority (1 skill each)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = fields_only_helper()

    def defence(self) -> dict[str, int]:
        return {t: self.cleaned_data.get(f"defence_{t}") or 0 for t in TYPES}


FORMS: dict[str, type[OrderForm]] = {
    form.kind: form
    for form in (AddLinkForm, BreakLinkForm, PriorityForm, MoveForm, AttemptForm, FunctionForm)
}
