"""What a processed turn changes beside the boards' rows (RULES R60-R62, R70-R72, R80),
written by the turn job (services/turns.py) from the engine's result, in a fixed number of
statements whatever the number of goals, envelopes, offices or orders:

- goals (R61): each `attempts_won` goal's new count, and one progress row per goal;
- offices (R80): the holder and deputy the election gave them; the election's result;
- dossiers (R71): each envelope a perception check opened, once per player (opening it again
  changes nothing), and the knowledge level it grants (only ever raised);
- deals (R62): a gift makes the two departments it names `rumoured` to the other side, and a
  handed-over department is `known` to its new controller (who controls it now; the level
  stays if they lose it);
- contingency envelopes (R72) and the notices of what opened: intrigue/services/turn_envelopes.py.

`effects_undo` takes all of it back when the GM undoes the turn (RULES R52,
services/rollback.py): the stored knowledge comes back with the records' `knowledge_before`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from campaigns.models import (
    Board,
    ContingencyEnvelope,
    Department,
    DossierEntry,
    Election,
    Goal,
    GoalProgress,
    Knowledge,
    Notice,
    Office,
    Turn,
    TurnRecord,
)
from campaigns.models.campaign import membership_pk_of, pk_of_ref
from campaigns.services.bulk_writes import rows_insert, rows_update
from campaigns.services.turn_plans import Resolved

Level = Knowledge.Level
LEVELS = {"rumoured": Level.RUMOURED, "known": Level.KNOWN}
# (membership id, department id) -> the level to raise their stored level to
Wanted = dict[tuple[int, int], int]


@dataclass
class Effects:
    """What the turn opened for whom: membership id -> envelope ids newly in their dossier."""

    dossier: dict[int, list[int]] = field(default_factory=dict)


def effects_write(turn: Turn, resolved: Resolved) -> Effects:
    """Everything above but the contingency envelopes (which read the knowledge after the
    records' own updates: contingencies_open)."""
    goals_write(turn, resolved)
    offices_write(resolved)
    if resolved.election is not None:
        Election.objects.filter(campaign_id=turn.campaign_id, number=turn.number).update(
            result=resolved.election
        )
    wanted: Wanted = {}
    effects = Effects(dossier=dossier_write(turn, resolved, wanted))
    deals_known(resolved, wanted)
    knowledge_raise_many(wanted)
    return effects


def goals_write(turn: Turn, resolved: Resolved) -> None:
    """R61: new attempts_won counts, and every goal's progress after the turn."""
    before = {g["id"]: g.get("count", 0) for g in resolved.before.get("goals", [])}
    rows_update(
        Goal,
        ["count"],
        [
            (pk, goal["count"])
            for goal in resolved.after.get("goals", [])
            if "count" in goal
            and goal["count"] != before.get(goal["id"])
            and (pk := pk_of_ref("g", goal["id"])) is not None
        ],
    )
    rows_insert(
        GoalProgress,
        ["goal", "turn", "value", "met"],
        [
            (pk, turn.pk, progress["value"], progress["met"])
            for goal_id, progress in sorted(resolved.report.get("goals", {}).items())
            if (pk := pk_of_ref("g", goal_id)) is not None
        ],
    )


def offices_write(resolved: Resolved) -> None:
    """R80: the holder and deputy of each office the election changed."""
    before = {
        o["id"]: (o.get("holder"), o.get("deputy")) for o in resolved.before.get("offices", [])
    }
    ids = resolved.ids
    rows_update(
        Office,
        ["holder", "deputy"],
        [
            (pk, ids.get(office["holder"]), ids.get(office["deputy"]))
            for office in resolved.after.get("offices", [])
            if (office.get("holder"), office.get("deputy")) != before.get(office["id"])
            and (pk := pk_of_ref("o", office["id"])) is not None
        ],
    )


def outcome(resolved: Resolved, order: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = resolved.report.get("orders", {}).get(str(order.get("id")), {})
    return found


def succeeded(resolved: Resolved, kind: str) -> Iterable[dict[str, Any]]:
    return (
        o
        for o in resolved.orders
        if o.get("kind") == kind and outcome(resolved, o).get("status") == "succeeded"
    )


def dossier_write(turn: Turn, resolved: Resolved, wanted: Wanted) -> dict[int, list[int]]:
    """R71: the envelopes each perception check opened go into its player's dossier, once;
    a newly opened envelope's grant is added to `wanted`."""
    opened: dict[tuple[int, int], int] = {}  # (member, envelope) -> the check's order id
    for order in succeeded(resolved, "perceive"):
        member = membership_pk_of(order.get("player"))
        for ref in outcome(resolved, order).get("envelopes", []):
            envelope = pk_of_ref("e", ref)
            if member is not None and envelope is not None:
                opened.setdefault((member, envelope), int(order["id"]))
    if not opened:
        return {}
    known = set(
        DossierEntry.objects.filter(
            member_id__in={m for m, _ in opened}, envelope_id__in={e for _, e in opened}
        ).values_list("member_id", "envelope_id")
    )
    new = sorted(opened.keys() - known)
    DossierEntry.objects.bulk_create(
        DossierEntry(member_id=m, envelope_id=e, turn=turn, order_id=opened[(m, e)]) for m, e in new
    )
    grants = {e["id"]: e for e in resolved.before.get("envelopes", [])}
    found: dict[int, list[int]] = {}
    for member, envelope in new:
        found.setdefault(member, []).append(envelope)
        entry = grants.get(f"e{envelope}", {})
        level = LEVELS.get(entry.get("grants") or "")
        dept = resolved.ids.get(entry.get("department", ""))
        if level is not None and dept is not None:
            raise_to(wanted, member, dept, level)
    return found


def deals_known(resolved: Resolved, wanted: Wanted) -> None:
    """R62: a gift's two departments become `rumoured` to the other side (the receiver is
    whoever controlled the receiving department when the turn began); a handed-over
    department `known` to its new controller."""
    owners = {d["slug"]: d.get("structure") for d in resolved.before.get("departments", [])}
    ids = resolved.ids
    for order in succeeded(resolved, "gift"):
        giver = membership_pk_of(order.get("player"))
        receiver = membership_pk_of(owners.get(order.get("to", "")))
        source, sink = ids.get(order.get("from", "")), ids.get(order.get("to", ""))
        if giver is not None and sink is not None:
            raise_to(wanted, giver, sink, Level.RUMOURED)
        if receiver is not None and source is not None:
            raise_to(wanted, receiver, source, Level.RUMOURED)
    for order in succeeded(resolved, "handover"):
        receiver = membership_pk_of(order.get("to"))
        dept = ids.get(order.get("department", ""))
        if receiver is not None and dept is not None:
            raise_to(wanted, receiver, dept, Level.KNOWN)


def raise_to(wanted: Wanted, member: int, dept: int, level: int) -> None:
    wanted[(member, dept)] = max(level, wanted.get((member, dept), 0))


def knowledge_raise_many(wanted: Wanted) -> None:
    """R50: raise each (member, department)'s stored level to at least the wanted one,
    never lowering one (a `controlled` row stays as it is). Two queries at most, whatever
    the number of rows."""
    if not wanted:
        return
    stored = {
        (member, dept): level
        for member, dept, level in Knowledge.objects.filter(
            player_id__in={m for m, _ in wanted}, department_id__in={d for _, d in wanted}
        ).values_list("player_id", "department_id", "level")
    }
    Knowledge.objects.bulk_create(
        [
            Knowledge(player_id=member, department_id=dept, level=level)
            for (member, dept), level in sorted(wanted.items())
            if stored.get((member, dept), -1) < level
        ],
        update_conflicts=True,
        unique_fields=["player", "department"],
        update_fields=["level"],
    )


# --- R52: undoing a turn ---------------------------------------------------------------------


def effects_undo(turn: Turn, records: list[TurnRecord]) -> None:
    """R52: everything above as it was before `turn` (whose `records` are about to go): its
    dossier entries, contingency openings, envelope notices and goal progress go, each goal's
    count and each office's holder and deputy come back from the records' `before` (the
    state the turn job read), and the election of the turn has no result (it stays
    scheduled)."""
    DossierEntry.objects.filter(turn=turn).delete()
    ContingencyEnvelope.objects.filter(opened_turn=turn).update(opened_turn=None)
    Notice.objects.filter(turn=turn, kind=Notice.Kind.ENVELOPE).delete()
    GoalProgress.objects.filter(turn=turn).delete()
    Election.objects.filter(campaign_id=turn.campaign_id, number=turn.number).update(result=None)
    goals = next((r.before["goals"] for r in records if "goals" in r.before), [])
    rows_update(
        Goal,
        ["count"],
        [
            (pk, goal["count"])
            for goal in goals
            if "count" in goal and (pk := pk_of_ref("g", goal["id"])) is not None
        ],
    )
    offices_restore(records)


def offices_restore(records: list[TurnRecord]) -> None:
    """R80: each office back to the holder and deputy its board's record read before the
    turn (departments by slug on that board; one gone since leaves the post empty). Offices
    made since the turn are not in the records and keep theirs."""
    wanted = [(r.board, o) for r in records for o in r.before.get("offices", [])]
    if not wanted:
        return
    boards = {board.pk for board, _ in wanted}
    ids = {
        (board, slug): pk
        for pk, board, slug in Department.objects.filter(board_id__in=boards).values_list(
            "pk", "board_id", "slug"
        )
    }

    def post(board: Board, slug: str | None) -> int | None:
        return ids.get((board.pk, slug)) if slug else None

    existing = set(Office.objects.filter(pk__in=[pk_of_ref("o", o["id"]) for _, o in wanted])
                   .values_list("pk", flat=True))  # fmt: skip
    rows_update(
        Office,
        ["holder", "deputy"],
        [
            (pk, post(board, office.get("holder")), post(board, office.get("deputy")))
            for board, office in wanted
            if (pk := pk_of_ref("o", office["id"])) in existing
        ],
    )
