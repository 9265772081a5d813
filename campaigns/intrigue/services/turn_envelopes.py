"""What a processed turn opens (RULES R71, R72), written by the turn job after the records:
the contingency envelopes whose condition came true (engine/contingency.py decides; each
opens once, in the turn it opened in), and a notice for each player who opened an envelope,
intel or contingency, saying where to read it and never what it says. Undone with the turn
(services/turn_effects.py `effects_undo`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import reverse

from campaigns.engine.contingency import contingencies_opened, turn_facts
from campaigns.models import Campaign, ContingencyEnvelope, Knowledge, Membership, Notice, Turn
from campaigns.models.campaign import engine_player_id
from campaigns.services.turn_plans import Resolved
from campaigns.words.notices import ENVELOPES_OPENED, notice_fields


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
    """R71, R72: one notice for each player who opened an envelope this turn, telling them
    how many and where to read them, in words when read (words/notices.py; the mail says only
    that something opened: services/notifications.py). One query, only if something opened."""
    contingent: dict[int, int] = {}
    for _envelope, member in opened:
        contingent[member] = contingent.get(member, 0) + 1
    members = sorted(dossier.keys() | contingent.keys())
    if not members:
        return
    url = reverse("dossier", args=[campaign.slug])
    notices = [
        Notice(
            player_id=member, turn=turn, url=url, kind=Notice.Kind.ENVELOPE,
            **notice_fields(ENVELOPES_OPENED, {"intel": len(dossier.get(member, [])),
                                               "sealed": contingent.get(member, 0)}),
        )
        for member in members
    ]  # fmt: skip
    Notice.objects.bulk_create(notices)
