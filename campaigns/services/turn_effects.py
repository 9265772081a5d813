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
- contingency envelopes (R72): each whose condition came true opens, once
  (engine/contingency.py decides), and each player who opened something gets a notice.

Undone by a rollback (services/rollback.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from campaigns.engine.contingency import contingencies_opened, turn_facts
from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    DossierEntry,
    Election,
    Goal,
    GoalProgress,
    Knowledge,
    Membership,
    Notice,
    Office,
    Turn,
)
from campaigns.models.campaign import engine_player_id, membership_pk_of, pk_of_ref
from campaigns.selectors.profile import language_of

from .bulk import rows_insert, rows_update
from .turn_plans import Resolved

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
        Election.objects.filter(turn=turn).update(result=resolved.election)
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


# --- R72: contingency envelopes -----------------------------------------------------------


def contingencies_open(
    campaign: Campaign, turn: Turn, resolved: Resolved, *, now: dt.datetime
) -> list[tuple[int, int]]:
    """R72: open, in `turn`, every sealed contingency envelope of the campaign's players
    whose condition is true after it. Returns (envelope id, membership id) of those opened.
    Two queries when there are none to test, four at most otherwise."""
    rows = list(
        ContingencyEnvelope.objects.filter(
            member__campaign=campaign,
            member__role=Membership.Role.PLAYER,
            opened_turn__isnull=True,
        ).values_list("pk", "member_id", "condition", "turn_number", "date", "department_id",
                      "level")
    )  # fmt: skip
    if not rows:
        return []
    names = {pk: name for name, pk in resolved.ids.items()}
    conditions = [
        {
            "id": str(pk),
            "player": engine_player_id(member),
            "kind": kind,
            "turn": number,
            "date": date.isoformat() if date else None,
            "department": names.get(dept) if dept else None,
            "level": level,
        }
        for pk, member, kind, number, date, dept, level in rows
        if dept is None or dept in names
    ]
    facts = turn_facts(
        number=turn.number,
        at=now.isoformat(),
        before=resolved.before,
        after=resolved.after,
        orders=resolved.orders,
        outcomes=resolved.report.get("orders", {}),
        levels=levels_of(rows, names),
    )
    opened = {int(pk) for pk in contingencies_opened(conditions, facts)}
    if opened:
        ContingencyEnvelope.objects.filter(pk__in=opened).update(opened_turn=turn)
    return [(pk, member) for pk, member, *_ in rows if pk in opened]


def levels_of(rows: list[tuple[Any, ...]], names: dict[int, str]) -> dict[str, dict[str, int]]:
    """The stored levels the `knowledge` conditions ask about, by engine player id and the
    state's department names (one query, only if there is such a condition). Control is
    the state's business (engine/contingency.py)."""
    asked = {(row[1], row[5]) for row in rows if row[2] == "knowledge"}
    if not asked:
        return {}
    levels: dict[str, dict[str, int]] = {}
    for member, dept, level in Knowledge.objects.filter(
        player_id__in={m for m, _ in asked}, department_id__in={d for _, d in asked}
    ).values_list("player_id", "department_id", "level"):
        if (member, dept) in asked and dept in names:
            levels.setdefault(engine_player_id(member), {})[names[dept]] = level
    return levels


def envelope_notices(
    campaign: Campaign,
    turn: Turn,
    dossier: dict[int, list[int]],
    opened: list[tuple[int, int]],
) -> None:
    """R71, R72: one notice for each player who opened an envelope this turn, in their
    language, telling them where to read it (the mail says only that something opened:
    services/notifications.py). Two queries, only if something opened."""
    contingent: dict[int, int] = {}
    for _envelope, member in opened:
        contingent[member] = contingent.get(member, 0) + 1
    members = sorted(dossier.keys() | contingent.keys())
    if not members:
        return
    url = report_url(campaign, turn)
    rows = Membership.objects.filter(pk__in=members).select_related("user__profile")
    notices = []
    for member in rows:
        with translation.override(language_of(member.user)):
            text = envelope_text(len(dossier.get(member.pk, [])), contingent.get(member.pk, 0))
        notices.append(
            Notice(player=member, turn=turn, text=text, url=url, kind=Notice.Kind.ENVELOPE)
        )
    Notice.objects.bulk_create(notices)


def envelope_text(intel: int, sealed: int) -> str:
    """What a player's envelope notice says: how many opened, never what they say."""
    parts = []
    if intel:
        parts.append(
            ngettext(
                "Your perception check opened %(n)s intel envelope.",
                "Your perception checks opened %(n)s intel envelopes.",
                intel,
            )
            % {"n": intel}
        )
    if sealed:
        parts.append(
            ngettext(
                "%(n)s sealed envelope addressed to you opened.",
                "%(n)s sealed envelopes addressed to you opened.",
                sealed,
            )
            % {"n": sealed}
        )
    parts.append(gettext("Read them in your turn report and dossier."))
    return " ".join(parts)


def report_url(campaign: Campaign, turn: Turn) -> str:
    try:
        return reverse("turn_report", args=[campaign.slug, turn.number])
    except NoReverseMatch:  # turn 0 has no report page of its own
        return campaign.get_absolute_url()
