"""The map's order menu: for each of the player's departments on a board, the
orders it can give now, each a link to its form prefilled (web/orders.py `prefill` reads the
form's fields from the query string); and for an order that needs a second department on
the map (a consumer to link, a department to try to link, one to give to, the other end of a
link to break, the departments a move passes), the map's departments that complete it, each
with its own link. static/campaigns/map_orders.js draws it beside the board map.

Every entry is a choice the forms offer (web/order_choices.py and intrigue/web/deal_choices.py: the
engine's legal choices, engine/legal.py, as R50 lets the player see them), so the menu
shows nothing the forms do not: a department the player knows only by rumour appears by its
map id (selectors/board_views.node_key) and its name, as a link end "#<id>" as in the link
forms, never by its slug or anything of its card. An order whose choices all lie on another
board (R60) is a plain link to its form. Election support (R80) is left to the election page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from campaigns.engine.legal import Legal
from campaigns.intrigue.web.deal_choices import gift_givers, gift_receivers, handover_departments
from campaigns.models import Order, Turn
from campaigns.selectors import pages
from campaigns.selectors.board_views import node_key
from campaigns.selectors.order_context import OrderContext
from campaigns.selectors.visibility import Level
from campaigns.web.access import board_of, player_of
from campaigns.web.order_choices import (
    end_slug,
    function_choices,
    link_choices,
    priority_choices,
    visible_pairs,
    visible_routes,
)

Kind = Order.Kind


@dataclass
class Action:
    """One order a department can give: its form (`fields` prefilled), and where the order
    needs another department, the map's departments that complete it (`targets`), or for a
    move the paths it may take (`routes`)."""

    kind: str
    fields: dict[str, str] = field(default_factory=dict)
    targets: list[dict[str, str]] = field(default_factory=list)
    routes: list[dict[str, Any]] = field(default_factory=list)


class MenuBuilder:
    """The menu of one board for one player: one pass over each kind's form choices."""

    def __init__(self, ctx: OrderContext) -> None:
        self.ctx = ctx
        self.legal: Legal = ctx.legal()
        # The departments the map draws (R50: at least rumoured), by their map id.
        self.nodes = {
            slug: node_key(ctx.board.pk, slug)
            for slug in ctx.pks
            if ctx.levels.get(slug, Level.UNKNOWN) >= Level.RUMOURED
        }
        self.actions: dict[str, dict[str, Action]] = {
            slug: {} for slug in sorted(ctx.pks, key=ctx.name) if ctx.controlled(slug)
        }

    def href(self, kind: str, fields: dict[str, str]) -> str:
        url = reverse("order_new", args=[self.ctx.player.campaign.slug, self.ctx.board.slug, kind])
        # "|" and "," stay as they are: the form values read as the forms write them.
        return f"{url}?{urlencode(fields, safe='|,')}" if fields else url

    def action(self, slug: str, kind: str, fields: dict[str, str] | None = None) -> Action | None:
        """Department `slug`'s action of this kind, made the first time (with `fields`)."""
        if slug not in self.actions:
            return None  # another board's department (R60), or not the player's
        return self.actions[slug].setdefault(kind, Action(kind, fields or {}))

    def target(self, action: Action | None, slug: str, label: str, **fields: str) -> None:
        if action is not None and slug in self.nodes:
            href = self.href(action.kind, fields)
            action.targets.append({"node": self.nodes[slug], "label": label, "href": href})

    def build(self) -> dict[str, Any]:
        self.links(Kind.ADD_LINK)
        self.links(Kind.BREAK_LINK)
        self.firsts(Kind.PRIORITY, "ordering", priority_choices(self.ctx, self.legal))
        self.moves()
        self.attempts()
        self.firsts(Kind.FUNCTION, "function", function_choices(self.ctx, self.legal))
        self.gifts()
        if self.ctx.other_players():
            self.firsts(Kind.HANDOVER, "department", handover_departments(self.ctx, self.legal))
        return {
            self.nodes[slug]: {
                "name": self.ctx.name(slug),
                "actions": [self.as_json(a) for a in in_kind_order(actions.values())],
            }
            for slug, actions in self.actions.items()
            if slug in self.nodes
        }

    def links(self, kind: str) -> None:
        """R41: a new link from the supplier (the consumer is the target); a link to break
        from either end of it that is the player's (the other end is the target, R50)."""
        for value, label in link_choices(self.ctx, self.legal, kind):
            supplier, consumer = (end_slug(self.ctx, end) or "" for end in value.split("|"))
            ends = [(supplier, consumer)]
            if kind == Kind.BREAK_LINK:
                ends.append((consumer, supplier))
            for mine, other in ends:
                self.target(self.action(mine, kind), other, label, link=value)

    def firsts(self, kind: str, name: str, choices: list[tuple[str, str]]) -> None:
        """An order with no second department: its form with the department's first choice."""
        for value, _label in choices:
            self.action(value.split("|")[0], kind, {name: value})

    def moves(self) -> None:
        """R42: the paths from each department, through departments the player knows."""
        for value, label in visible_routes(self.ctx, self.legal.move):
            start, *path = value.split(",")
            move = self.action(start, Kind.MOVE)
            if move is not None and all(slug in self.nodes for slug in path):
                move.routes.append({
                    "path": [self.nodes[slug] for slug in path],
                    "label": label,
                    "href": self.href(Kind.MOVE, {"route": value}),
                })  # fmt: skip

    def attempts(self) -> None:
        """R43: the targets the player knows (`known`) that the department may try to link."""
        for pair in visible_pairs(self.ctx, self.legal):
            attempt = self.action(pair.attacker, Kind.ATTEMPT, {"attacker": pair.attacker})
            label = self.ctx.name(pair.target)
            self.target(attempt, pair.target, label, attacker=pair.attacker, target=pair.target)

    def gifts(self) -> None:
        """R62: every receiver the form offers, from every department that can give."""
        receivers = gift_receivers(self.ctx, self.legal)
        if not receivers:
            return
        for giver, _name in gift_givers(self.ctx, self.legal):
            gift = self.action(giver, Kind.GIFT, {"giver": giver})
            for receiver, label in receivers:
                self.target(gift, receiver, label, giver=giver, receiver=receiver)

    def as_json(self, action: Action) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": action.kind,
            "label": str(Kind(action.kind).label),
            "href": self.href(action.kind, action.fields),
        }
        if action.targets or action.routes:
            data["prompt"] = str(PROMPTS[action.kind])
            data["targets" if action.targets else "routes"] = action.targets or action.routes
        return data


KIND_ORDER = (Kind.ADD_LINK, Kind.BREAK_LINK, Kind.PRIORITY, Kind.MOVE, Kind.ATTEMPT,
              Kind.FUNCTION, Kind.GIFT, Kind.HANDOVER)  # fmt: skip
# What to tap once an order that needs a second department is chosen.
PROMPTS = {
    Kind.ADD_LINK: gettext_lazy("Tap the consumer to link it to (R41)."),
    Kind.BREAK_LINK: gettext_lazy("Tap the other end of the link to break (R41)."),
    Kind.MOVE: gettext_lazy("Tap the departments along the way, one by one (R42)."),
    Kind.ATTEMPT: gettext_lazy("Tap the department to try to link (R43)."),
    Kind.GIFT: gettext_lazy("Tap the department to give to (R62)."),
}


def in_kind_order(actions: Iterable[Action]) -> list[Action]:
    return sorted(actions, key=lambda a: KIND_ORDER.index(a.kind))


def menu_words() -> dict[str, str]:
    """The words map_orders.js writes around the menu, in the reader's language."""
    return {
        "hint": _("Tap one of your departments on the map, or choose it in the row of "
                  "departments, for the orders it can give now."),
        "title": _("Orders for %(department)s"),
        "none": _("%(department)s can give no order now."),
        "all": _("All your orders, and why some cannot be given"),
        "form": _("Open the form instead"),
        "cancel": _("Cancel"),
        "choices": _("Or choose one here:"),
        "not_target": _("%(department)s is not a choice for this order."),
        "path": _("So far: %(path)s."),
        "stop": _("Move along %(path)s"),
    }  # fmt: skip


def order_menu(ctx: OrderContext) -> dict[str, Any]:
    """The menu's JSON: the player's departments on the board (by map id), each with the
    orders it can give now; no query beyond the context's own."""
    return {
        "departments": MenuBuilder(ctx).build(),
        "orders": reverse("orders", args=[ctx.player.campaign.slug]),
        "words": menu_words(),
    }


@require_safe
@login_required
def order_map_menu(request: HttpRequest, slug: str, board_slug: str) -> JsonResponse:
    """The map's order menu of the viewing player on one board (only players: the GM and
    observers give no orders, 403); empty while no turn is open."""
    viewer = player_of(request, slug)
    board = board_of(viewer, board_slug)
    turn = pages.current_turn(viewer.campaign)
    if turn is None or turn.status != Turn.Status.OPEN:
        return JsonResponse({"departments": {}})
    return JsonResponse(order_menu(OrderContext.build(viewer, turn, board)))
