"""The orders of a turn report and their dice rolls (RULES R20, R23, R40-R47), each
department named only as far as the viewer knows it (R50)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Order, Turn
from campaigns.selectors.report_defence import Defence
from campaigns.selectors.report_view_models import DefenceView, OrderView, RollView
from campaigns.selectors.report_visibility import Knowing
from campaigns.selectors.visibility import Level
from campaigns.words import game, labels


def verify_url(
    campaign: Campaign, number: int, key: str, dice: int, sides: int | None = None
) -> str:
    """The verify page for one roll; `sides` only where the key does not tell them (a classic
    attack's d6 has a key like a d10 attempt's)."""
    path = reverse("verify_dice", args=[campaign.slug, number])
    query: dict[str, object] = {"key": key, "dice": dice}
    if sides is not None:
        query["sides"] = sides
    return f"{path}?{urlencode(query)}"


def roll_views(
    turn: Turn,
    rolls: list[dict[str, Any]],
    *,
    hide_attack: bool = False,
    hide_defend: bool = False,
) -> list[RollView]:
    """The rolls of one order; with `hide_attack`, the attacker's roll shows its successes
    only (R46: a defender who does not know the attacker's card); with `hide_defend`, the
    target's (R46 read the other way: an attacker who does not know the target's card)."""
    views = []
    for roll in rolls:
        key = str(roll.get("key", ""))
        defend = key.endswith(":defend")
        if (hide_attack and key.endswith(":attack")) or (hide_defend and defend):
            successes = int(roll.get("successes", 0))
            # Not even the key: with it and the published seed, the verify page would
            # recompute the faces R46 hides.
            views.append(RollView("", None, None, None, None, successes, None, defend=defend))
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
    defence: Defence | None = None,
) -> OrderView:
    """One order of the viewer's own (every order for the GM). A perception check (R70)
    carries its total and how many envelopes it opened; `players` names the player a
    hand-over or an accept names (R62). An attempt's target's defend roll (`defence`, read
    back) shows only where the viewer knows the target's card (R46 read both ways, R50):
    else its successes alone."""
    published = order.gm_note_published
    total = outcome.get("total")
    named_cost = labels.tokens_text(order.payload.get("cost"))
    sees_target = order.kind != Order.Kind.ATTEMPT or knows_card(
        knowing, order.payload.get("target")
    )
    return OrderView(
        id=order.engine_id,
        player=order.player.display_name,
        kind=order.kind,
        kind_label=order.get_kind_display(),
        summary=game.order_text(order.kind, order.payload, knowing.name, players),
        status=str(outcome.get("status", order.status)),
        reason=str(outcome.get("reason", "")),
        rolls=roll_views(turn, outcome.get("rolls", []), hide_defend=not sees_target),
        gm_note=order.gm_note if (full or published) else "",
        gm_note_published=published,
        total=total if isinstance(total, int) else None,
        opened=len(outcome.get("envelopes") or []),
        pays_and_spends=order.kind == Order.Kind.ATTEMPT
        and bool(labels.tokens_text(order.payload.get("cost")))
        and bool(labels.tokens_text(order.payload.get("spend"))),
        defence=defence_view(defence, knowing) if sees_target else None,
        # The cost the order names is in its summary; the default is told here.
        paid=None if defence is None or named_cost else defence.paid,
    )


def knows_card(knowing: Knowing, slug: object) -> bool:
    """R50: the viewer reads the department's card (`known`), or sees everything."""
    return knowing.full or knowing.level(str(slug)) >= Level.KNOWN


def defence_view(defence: Defence | None, knowing: Knowing) -> DefenceView | None:
    if defence is None:
        return None
    return DefenceView(
        department=knowing.name(defence.target),
        dice=defence.dice,
        skill=defence.skill,
        read=defence.read,
        uncontrolled=defence.uncontrolled,
    )


def attack_view(
    turn: Turn,
    order: Order,
    outcome: dict[str, Any],
    knowing: Knowing,
    defence: Defence | None = None,
) -> OrderView:
    """An attempt on the viewer's department, as its defender sees it (see board_report):
    their own department's defend roll in full, with what it spent (`defence`)."""
    # R46 names the attacking department to the defender whatever they know of it.
    name = knowing.name(order.payload.get("attacker"), at_least=Level.UNKNOWN)
    knows_card = knowing.level(str(order.payload.get("attacker"))) >= Level.KNOWN
    return OrderView(
        id=order.engine_id,
        player="",
        kind=order.kind,
        kind_label=_("Linking attempt on your department"),
        summary=game.attack_text(name, knowing.name(order.payload.get("target"))),
        status=str(outcome.get("status", order.status)),
        reason=str(outcome.get("reason", "")),
        rolls=roll_views(turn, outcome.get("rolls", []), hide_attack=not knows_card),
        gm_note="",
        gm_note_published=False,
        defending=True,
        defence=defence_view(defence, knowing),
    )
