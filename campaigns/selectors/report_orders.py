"""The orders of a turn report and their dice rolls (RULES R20, R23, R40-R47), each
department named only as far as the viewer knows it (R50)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns import wording
from campaigns.models import Campaign, Order, Turn
from campaigns.selectors.visibility import Level

from .report_view_models import OrderView, RollView
from .report_visibility import Knowing


def verify_url(campaign: Campaign, number: int, key: str, dice: int) -> str:
    path = reverse("verify_dice", args=[campaign.slug, number])
    return f"{path}?{urlencode({'key': key, 'dice': dice})}"


def roll_views(
    turn: Turn, rolls: list[dict[str, Any]], *, hide_attack: bool = False
) -> list[RollView]:
    """The rolls of one order; with `hide_attack`, the attacker's roll shows its successes
    only (R46: a defender who does not know the attacker's card)."""
    views = []
    for roll in rolls:
        key = str(roll.get("key", ""))
        if hide_attack and key.endswith(":attack"):
            successes = int(roll.get("successes", 0))
            # Not even the key: with it and the published seed, the verify page would
            # recompute the faces R46 hides.
            views.append(RollView("", None, None, None, None, successes, None))
            continue
        # A perception check (R70) sums its faces: no target number, no successes.
        tn, successes = roll.get("tn", 0), roll.get("successes", 0)
        views.append(
            RollView(
                key=key,
                dice=int(roll.get("dice", 0)),
                skill=int(roll.get("skill", 0)),
                tn=None if tn is None else int(tn),
                faces=[int(f) for f in roll.get("faces", [])],
                successes=None if successes is None else int(successes),
                verify_url=verify_url(turn.campaign, turn.number, key, int(roll.get("dice", 0))),
            )
        )
    return views


def order_view(
    turn: Turn,
    order: Order,
    outcome: dict[str, Any],
    knowing: Knowing,
    *,
    full: bool,
    players: dict[str, str] | None = None,
) -> OrderView:
    """One order of the viewer's own (every order for the GM). A perception check (R70)
    carries its total and how many envelopes it opened; `players` names the player a
    hand-over or an accept names (R62)."""
    published = order.gm_note_published
    total = outcome.get("total")
    return OrderView(
        id=order.engine_id,
        player=order.player.display_name,
        kind=order.kind,
        kind_label=order.get_kind_display(),
        summary=wording.order_text(order.kind, order.payload, knowing.name, players),
        status=str(outcome.get("status", order.status)),
        reason=str(outcome.get("reason", "")),
        rolls=roll_views(turn, outcome.get("rolls", [])),
        gm_note=order.gm_note if (full or published) else "",
        gm_note_published=published,
        total=total if isinstance(total, int) else None,
        opened=len(outcome.get("envelopes") or []),
        pays_and_spends=order.kind == Order.Kind.ATTEMPT
        and bool(wording.tokens_text(order.payload.get("cost")))
        and bool(wording.tokens_text(order.payload.get("spend"))),
    )


def attack_view(turn: Turn, order: Order, outcome: dict[str, Any], knowing: Knowing) -> OrderView:
    """An attempt on the viewer's department, as its defender sees it (see board_report)."""
    # R46 names the attacking department to the defender whatever they know of it.
    name = knowing.name(order.payload.get("attacker"), at_least=Level.UNKNOWN)
    knows_card = knowing.level(str(order.payload.get("attacker"))) >= Level.KNOWN
    return OrderView(
        id=order.engine_id,
        player="",
        kind=order.kind,
        kind_label=_("Linking attempt on your department"),
        summary=wording.attack_text(name, knowing.name(order.payload.get("target"))),
        status=str(outcome.get("status", order.status)),
        reason=str(outcome.get("reason", "")),
        rolls=roll_views(turn, outcome.get("rolls", []), hide_attack=not knows_card),
        gm_note="",
        gm_note_published=False,
        defending=True,
    )
