"""The rows of RULES parts 7-9 in a campaign archive (docs/campaign-archive.md): shticks,
secret goals with their progress, intel envelopes with the dossier entries of each,
contingency envelopes, offices with their elections. Departments are named by board and
slug, people by user name, turns by number, orders by their archive reference; envelopes,
goals and offices get references of their own ("envelope1", ...), which the recorded states
and reports use too (archive_ids.py). A fixed number of queries whatever the campaign's size.
archive/services/archive_intrigue.py reads them back."""

from __future__ import annotations

from typing import Any

from campaigns.archive.selectors.archive_ids import REF_NAMES, ArchiveIds, plain, swap_election
from campaigns.models import (
    Campaign,
    ContingencyEnvelope,
    DossierEntry,
    Election,
    Goal,
    GoalProgress,
    IntelEnvelope,
    Office,
    Shtick,
)


def intrigue_refs(campaign: Campaign) -> dict[str, dict[int, str]]:
    """Engine prefix -> row id -> the archive's reference, in the order the rows were made
    (3 queries)."""
    rows = {
        "e": IntelEnvelope.objects.filter(department__board__campaign=campaign),
        "g": Goal.objects.filter(member__campaign=campaign),
        "o": Office.objects.filter(board__campaign=campaign),
    }
    return {
        prefix: {
            pk: f"{REF_NAMES[prefix]}{i}"
            for i, pk in enumerate(query.order_by("pk").values_list("pk", flat=True), start=1)
        }
        for prefix, query in rows.items()
    }


def department_name(dept: Any) -> list[str] | None:
    """A department as the archive names it: [board slug, department slug]."""
    return [dept.board.slug, dept.slug] if dept is not None else None


def intrigue_entries(campaign: Campaign, ids: ArchiveIds) -> dict[str, Any]:
    """The archive's keys `shticks`, `goals`, `envelopes`, `contingencies` and `offices`."""
    name = ids.member_name
    turns = dict(campaign.turns.values_list("pk", "number"))
    return {
        "shticks": [
            {"player": name[s.member_id], "kind": s.kind, "data": s.data,
             "department": department_name(s.department), **plain(s, ("created_at",))}
            for s in Shtick.objects.filter(member__campaign=campaign)
            .select_related("department__board").order_by("pk")
        ],
        "goals": goals_entries(campaign, ids, turns),
        "envelopes": envelopes_entries(campaign, ids, turns),
        "contingencies": [
            {"player": name[c.member_id], "department": department_name(c.department),
             "opened_turn": turns.get(c.opened_turn_id),
             **plain(c, ("text", "condition", "turn_number", "date", "level", "created_at"))}
            for c in ContingencyEnvelope.objects.filter(member__campaign=campaign)
            .select_related("department__board").order_by("pk")
        ],
        "offices": offices_entries(campaign, ids),
    }  # fmt: skip


def goals_entries(
    campaign: Campaign, ids: ArchiveIds, turns: dict[int, int]
) -> list[dict[str, Any]]:
    progress: dict[int, list[dict[str, Any]]] = {}
    for p in GoalProgress.objects.filter(goal__member__campaign=campaign).order_by("pk"):
        progress.setdefault(p.goal_id, []).append(
            {"turn": turns[p.turn_id], "value": p.value, "met": p.met}
        )
    return [
        {"ref": ids.refs["g"][g.pk], "player": ids.member_name[g.member_id],
         **plain(g, ("kind", "data", "count", "created_at")), "progress": progress.get(g.pk, [])}
        for g in Goal.objects.filter(member__campaign=campaign).order_by("pk")
    ]  # fmt: skip


def envelopes_entries(
    campaign: Campaign, ids: ArchiveIds, turns: dict[int, int]
) -> list[dict[str, Any]]:
    envelopes = list(
        IntelEnvelope.objects.filter(department__board__campaign=campaign)
        .select_related("department__board")
        .prefetch_related("audience")
        .order_by("pk")
    )
    opened: dict[int, list[dict[str, Any]]] = {}
    for entry in DossierEntry.objects.filter(envelope__in=envelopes).order_by("pk"):
        opened.setdefault(entry.envelope_id, []).append(
            {"player": ids.member_name[entry.member_id], "turn": turns[entry.turn_id],
             "order": ids.order_ref.get(entry.order_id) if entry.order_id else None}
        )  # fmt: skip
    return [
        {"ref": ids.refs["e"][e.pk], "department": department_name(e.department),
         **plain(e, ("text", "target", "everyone", "grants", "created_at")),
         "audience": sorted(ids.member_name[m.pk] for m in e.audience.all()),
         "dossier": opened.get(e.pk, [])}
        for e in envelopes
    ]  # fmt: skip


def offices_entries(campaign: Campaign, ids: ArchiveIds) -> list[dict[str, Any]]:
    elections: dict[int, list[dict[str, Any]]] = {}
    for election in Election.objects.filter(campaign=campaign).order_by("number"):
        result = swap_election(election.result, ids) if election.result else None
        elections.setdefault(election.office_id, []).append(
            {"turn": election.number, "result": result, **plain(election, ("created_at",))}
        )
    offices = Office.objects.filter(board__campaign=campaign).select_related(
        "board", "holder", "deputy"
    )
    return [
        {"ref": ids.refs["o"][o.pk], "board": o.board.slug,
         **plain(o, ("name", "alignment", "shticks", "created_at")),
         "holder": o.holder.slug if o.holder else None,
         "deputy": o.deputy.slug if o.deputy else None,
         "elections": elections.get(o.pk, [])}
        for o in offices.order_by("pk")
    ]  # fmt: skip
