"""What changed on a board in a turn report: captures and departments leaving structures
(R44, R13), links made or broken (R10), and spawn and consume (R32-R36), each limited to
what the viewer may see (R50)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from campaigns.engine.board import TYPES
from campaigns.models import Order
from campaigns.models.board import Resource
from campaigns.selectors.report_view_models import Consumed, DepartmentResult
from campaigns.selectors.report_visibility import Knowing
from campaigns.selectors.visibility import Level, amount
from campaigns.words import game, labels
from campaigns.words.intrigue import handover_text


def structures(state: dict[str, Any]) -> dict[str, str | None]:
    return {d["slug"]: d.get("structure") for d in state.get("departments", [])}


def structure_changes(
    before: dict[str, str | None],
    after: dict[str, str | None],
    knowing: Knowing,
    players: dict[str, str],
    handed: dict[str, str] | None = None,
    *,
    only_handovers: bool = False,
) -> list[str]:
    """Captures (R44), hand-overs (`handed`, R62) and departments leaving structures (R13),
    on departments the viewer knows at least `known` (who controls a department is part of
    the card). A rumoured department shows nothing: even "it changed hands" says who
    controls it, which `rumoured` hides."""
    changes = []
    for slug in sorted(after, key=lambda s: knowing.name(s)):
        old, new = before.get(slug), after[slug]
        if slug not in before or old == new or knowing.level(slug) < Level.KNOWN:
            continue
        dept = knowing.name(slug, at_least=Level.KNOWN)
        old_name = players.get(old, "a player") if old else None
        new_name = players.get(new, "a player") if new else None
        if slug in (handed or {}):
            receiver = players.get(str((handed or {})[slug]), "a player")
            changes.append(handover_text(dept, old_name, receiver, stayed=new_name == receiver))
        elif not only_handovers:
            changes.append(game.capture_text(dept, old_name, new_name))
    return changes


def succeeded(orders: Iterable[Order], outcomes: dict[str, Any], kind: str) -> list[Order]:
    return [
        o
        for o in orders
        if o.kind == kind
        and ((outcomes.get(o.engine_id) or {"status": o.status}).get("status") == "succeeded")
    ]


def handed_over(orders: Iterable[Order], outcomes: dict[str, Any]) -> dict[str, str]:
    """R62: the departments a hand-over of this turn moved, each with its receiver."""
    return {
        str(o.payload.get("department")): str(o.payload.get("to"))
        for o in succeeded(orders, outcomes, Order.Kind.HANDOVER)
    }


def gifts_received(
    orders: Iterable[Order],
    outcomes: dict[str, Any],
    knowing: Knowing,
    mine: set[str],
) -> list[str]:
    """R62: other players' gifts that reached the viewer's departments, naming the giving
    department (the deal makes it `rumoured` to them) and its controller only where they
    know its card (R50), as a defender is told of an attacker (R46)."""
    lines = []
    for order in succeeded(orders, outcomes, Order.Kind.GIFT):
        p = order.payload
        if p.get("to") not in mine:
            continue
        known = knowing.level(str(p.get("from"))) >= Level.KNOWN
        giver = game.attacker_text(
            knowing.name(p.get("from")), order.player.display_name if known else None
        )
        lines.append(
            _("%(giver)s gave %(tokens)s to %(receiver)s (R62).")
            % {"giver": giver, "tokens": labels.tokens_text(p.get("tokens")),
               "receiver": knowing.name(p.get("to"))}
        )  # fmt: skip
    return lines


def links_made(
    orders: Iterable[Order], outcomes: dict[str, Any] | None = None
) -> set[tuple[str, str]]:
    """Links this turn's orders made: each succeeded add_link (R41) and the new link of each
    succeeded attempt (R44). A link made and gone again within the turn (a capture later in
    the turn removed it) is in neither the state before nor the one after. The outcome of
    each order is its entry in `outcomes` (the turn's report), else the order's status (the
    turn job copies it there)."""
    made = set()
    for order in orders:
        outcome = (outcomes or {}).get(order.engine_id) or {"status": order.status}
        if outcome.get("status") != "succeeded":
            continue
        p = order.payload
        if order.kind == Order.Kind.ADD_LINK:
            made.add((str(p.get("from")), str(p.get("to"))))
        elif order.kind == Order.Kind.ATTEMPT:
            made.add((str(p.get("attacker")), str(p.get("target"))))
    return made


def link_changes(
    after_state: dict[str, Any],
    before_state: dict[str, Any],
    knowing: Knowing,
    *,
    added: bool,
    made: set[tuple[str, str]] | None = None,
    touching: set[str] | None = None,
) -> list[str]:
    """Links made or broken this turn that the viewer sees (`Knowing.sees_link`, the rule
    the board page uses for links: both ends `known`, or a link of theirs then, its other
    end named). `made`: the links orders made this turn
    (links_made), so one made and removed within the turn shows as both. `touching`: only
    the links with an end among these slugs."""
    if not before_state:
        return []
    new, old, made = link_pairs(after_state), link_pairs(before_state), made or set()
    changed = (new | made) - old if added else (old | made) - new
    return [
        f"{knowing.name(s)} → {knowing.name(c)}"
        for s, c in sorted(changed)
        if knowing.sees_link(s, c) and (touching is None or {s, c} & touching)
    ]


def link_pairs(state: dict[str, Any]) -> set[tuple[str, str]]:
    """(supplier, consumer) of every link of an ENGINE.md state."""
    return {(link["from"], link["to"]) for link in state.get("links", [])}


def spawn_slugs(
    figures: dict[str, dict[str, Any]], knowing: Knowing, mine: set[str], full: bool
) -> list[str]:
    """The departments whose spawn and consume (R32-R36) the viewer reads: those they
    control after the turn (every one for the GM), by name."""
    return sorted((s for s in figures if full or s in mine), key=lambda s: knowing.name(s))


def spawn_results(
    figures: dict[str, dict[str, Any]], knowing: Knowing, slugs: list[str]
) -> list[DepartmentResult]:
    """R32-R36 for `slugs` (from spawn_slugs). "Consumed from X" says X supplies this
    department, and "supplied to Y" that it supplies Y: a link of the viewer's own
    department, which they see with its other end named (R50, `Knowing` has raised it to
    at least `rumoured`)."""
    supplied: dict[str, list[Consumed]] = {}
    for taker, data in sorted(figures.items()):
        for c in data.get("consumed", []):
            source = c.get("from")
            if source != taker and source in slugs and int(c.get("amount", 0)):
                supplied.setdefault(source, []).append(consumed_view(knowing.name(taker), c))
    results = []
    for slug in slugs:
        data = figures[slug]
        dept = knowing.rows.get(slug)
        produced_type = dept.produces_type if dept else ""
        status = str(data.get("status", ""))
        results.append(
            DepartmentResult(
                name=knowing.name(slug),
                status=status,
                status_label=labels.status_label(status),
                chain_length=int(data.get("chain_length", 1)),
                capacity=int(data.get("capacity", 0)),
                produced=int(data.get("produced", 0)),
                produced_label=Resource(produced_type).label if produced_type else "",
                consumed=[
                    consumed_view(source_name(knowing, slug, c.get("from")), c)
                    for c in data.get("consumed", [])
                ],
                supplied=supplied.get(slug, []),
                discarded=[
                    a
                    for k, n in data.get("discarded", {}).items()
                    if (a := amount(k, int(n))) is not None
                ],
            )
        )
    return results


def consumed_view(source: str, entry: dict[str, Any]) -> Consumed:
    """One `consumed` entry of the spawn-consume report (ENGINE.md), `source` naming the
    other end."""
    kind = entry.get("type")
    return Consumed(
        source=source,
        type_label=Resource(kind).label if kind in TYPES else "",
        amount=int(entry.get("amount", 0)),
    )


def source_name(knowing: Knowing, slug: str, source: object) -> str:
    """Where a department took what it consumed: its own stash, or a supplier (at least
    `rumoured` to whoever reads its figures, R50)."""
    return str(_("its own stash")) if source == slug else knowing.name(source)
