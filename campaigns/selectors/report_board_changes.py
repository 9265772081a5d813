"""What changed on a board in a turn report: captures and departments leaving structures
(R44, R13), links made or broken (R10), and spawn and consume (R32-R36), each limited to
what the viewer may see (R50)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from campaigns import wording
from campaigns.engine.board import TYPES
from campaigns.models import Order
from campaigns.models.board import Resource
from campaigns.selectors.visibility import Level, amount

from .report_view_models import Consumed, DepartmentResult
from .report_visibility import Knowing


def structures(state: dict[str, Any]) -> dict[str, str | None]:
    return {d["slug"]: d.get("structure") for d in state.get("departments", [])}


def structure_changes(
    before: dict[str, str | None],
    after: dict[str, str | None],
    knowing: Knowing,
    players: dict[str, str],
) -> list[str]:
    """Captures (R44) and departments leaving structures (R13), on departments the viewer
    knows at least `known` (who controls a department is part of the card). A rumoured
    department shows nothing: even "it changed hands" says who controls it, which
    `rumoured` hides."""
    changes = []
    for slug in sorted(after, key=lambda s: knowing.name(s)):
        old, new = before.get(slug), after[slug]
        if slug not in before or old == new or knowing.level(slug) < Level.KNOWN:
            continue
        dept = knowing.name(slug, at_least=Level.KNOWN)
        old_name = players.get(old, "a player") if old else None
        new_name = players.get(new, "a player") if new else None
        changes.append(wording.capture_text(dept, old_name, new_name))
    return changes


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
) -> list[str]:
    """Links made or broken this turn whose both ends the viewer knows at least `known`
    (the rule the board page uses for links). `made`: the links orders made this turn
    (links_made), so one made and removed within the turn shows as both."""
    if not before_state:
        return []

    def pairs(state: dict[str, Any]) -> set[tuple[str, str]]:
        return {(link["from"], link["to"]) for link in state.get("links", [])}

    new, old, made = pairs(after_state), pairs(before_state), made or set()
    changed = (new | made) - old if added else (old | made) - new
    return [
        f"{knowing.name(s, at_least=Level.KNOWN)} → {knowing.name(c, at_least=Level.KNOWN)}"
        for s, c in sorted(changed)
        if min(knowing.level(s), knowing.level(c)) >= Level.KNOWN
    ]


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
    department, so a supplier is named only where the viewer knows it at least `known` (the
    rule for seeing a link)."""
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
                status_label=wording.status_label(status),
                chain_length=int(data.get("chain_length", 1)),
                capacity=int(data.get("capacity", 0)),
                produced=int(data.get("produced", 0)),
                produced_label=Resource(produced_type).label if produced_type else "",
                consumed=[
                    Consumed(
                        source=_("its own stash")
                        if c.get("from") == slug
                        else knowing.name(c.get("from"), at_least=Level.KNOWN),
                        type_label=Resource(c["type"]).label if c.get("type") in TYPES else "",
                        amount=int(c.get("amount", 0)),
                    )
                    for c in data.get("consumed", [])
                ],
                discarded=[
                    a
                    for k, n in data.get("discarded", {}).items()
                    if (a := amount(k, int(n))) is not None
                ],
            )
        )
    return results
