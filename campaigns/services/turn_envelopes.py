"""What a processed turn opens (RULES R71, R72), written by the turn job after the records:
the contingency envelopes whose condition came true (engine/contingency.py decides; each
opens once, in the turn it opened in), and a notice for each player who opened an envelope,
intel or contingency, saying where to read it and never what it says. Undone with the turn
(services/turn_effects.py `effects_undo`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from campaigns.engine.contingency import contingencies_opened, turn_facts
from campaigns.models import Campaign, ContingencyEnvelope, Knowledge, Membership, Notice, Turn
from campaigns.models.campaign import engine_player_id
from campaigns.selectors.profile import language_of

from .turn_plans import Resolved


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
