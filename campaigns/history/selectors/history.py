"""History pages (RULES R51): a board's history index and one structure's history
from turn 0 to now, read from the turn records (history_events) and never recomputed. A
fixed number of queries whatever the number of turns or departments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.elections.selectors.office_views import Timeline, office_timelines
from campaigns.engine.board import TYPES
from campaigns.history.selectors.history_events import (
    Event,
    Moment,
    board_moments,
    may_follow,
    namer,
    structure_events,
)
from campaigns.history.selectors.history_records import board_records
from campaigns.models import Board, Campaign, Membership
from campaigns.models.board import Resource
from campaigns.selectors.board_map import People, people_of
from campaigns.selectors.board_views import Snapshot, live_levels, record_snapshot
from campaigns.selectors.visibility import Level
from campaigns.words import labels


@dataclass(frozen=True)
class StructureTurn:
    """One turn of a structure: what happened, what it held after, its stash and output."""

    number: int
    events: list[Event]
    departments: list[str]  # names, after the turn
    stash: dict[str, int]  # type -> tokens held across the structure after the turn
    produced: dict[str, int]  # type -> tokens its departments produced (R32) that turn


@dataclass(frozen=True)
class StructureHistory:
    player: str  # the player's name
    mine: bool  # the viewer's own structure
    turns: list[StructureTurn]
    chart: dict[str, Any]  # for campaigns/static/campaigns/history_chart.js

    @property
    def numbers(self) -> list[int]:
        return [t.number for t in self.turns]


def totals(snapshot: Snapshot, slugs: set[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Tokens held and produced (R32) across `slugs` after the turn."""
    held = dict.fromkeys(TYPES, 0)
    produced = dict.fromkeys(TYPES, 0)
    for slug in slugs:
        data = snapshot.departments[slug]
        for kind, amount in (data.get("stash") or {}).items():
            if kind in held:
                held[kind] += int(amount)
        kind = ((data.get("produces") or {}).get("type")) or ""
        if kind in produced:
            produced[kind] += int(snapshot.figures.get(slug, {}).get("produced", 0))
    return held, produced


def structure_turn(m: Moment, player: str, people: People) -> StructureTurn:
    slugs = set(m.after.held_by(player))
    name = namer(m.after)
    events = structure_events(m, player, people)
    if m.previous is None and slugs:
        start = labels.listing(sorted(name(s) for s in slugs))
        starts = _("The structure starts with %(departments)s.") % {"departments": start}
        events.insert(0, Event(m.number, "gained", starts))
    held, produced = totals(m.after, slugs)
    return StructureTurn(
        number=m.number,
        events=events,
        departments=sorted(name(s) for s in slugs),
        stash=held,
        produced=produced,
    )


def chart_data(turns: list[StructureTurn]) -> dict[str, Any]:
    """Stash and production per turn, one series per resource type and measure."""
    series = []
    for kind, label in Resource.choices:
        for measure, words, values in [
            ("stash", _("%(type)s held"), [t.stash[kind] for t in turns]),
            ("produced", _("%(type)s produced"), [t.produced[kind] for t in turns]),
        ]:
            text = words % {"type": label}
            series.append({"kind": kind, "measure": measure, "label": text, "data": values})
    return {"labels": [t.number for t in turns], "series": series}


def structure_history(
    board: Board, viewer: Membership, player: Membership
) -> StructureHistory | None:
    """`player`'s structure on `board` from turn 0 to now, as `viewer` may follow it
    (history_events.may_follow; None otherwise). Three queries."""
    if not may_follow(viewer, player):
        return None
    people = people_of(board.campaign)
    turns = [structure_turn(m, player.player_id, people) for m in board_moments(board, viewer)]
    return StructureHistory(
        player=player.display_name,
        mine=viewer.pk == player.pk,
        turns=turns,
        chart=chart_data(turns),
    )


def member_of_campaign(campaign: Campaign, pk: int) -> Membership | None:
    """A member of `campaign` by id (for a structure's history), or None. One query."""
    if not 0 < pk < 2**31:
        return None
    member = campaign.memberships.select_related("user").filter(pk=pk).first()
    if member is not None:
        member.campaign = campaign
    return member


@dataclass(frozen=True)
class Followable:
    name: str
    key: str  # a membership id or a department slug, for the URL


@dataclass(frozen=True)
class HistoryIndex:
    structures: list[Followable]  # whose structure history the viewer may open
    departments: list[Followable]  # whose department history (seen `known` at some turn)
    numbers: list[int]  # the recorded turns
    offices: list[Timeline] = field(default_factory=list)  # who held each office when (R80)


def history_index(board: Board, viewer: Membership) -> HistoryIndex:
    """What the viewer may open of `board`'s history. Four queries."""
    members = board.campaign.memberships.select_related("user").order_by("pk")
    structures = [Followable(m.display_name, str(m.pk)) for m in members if may_follow(viewer, m)]
    snapshots = [record_snapshot(r, viewer) for r in board_records(board)]
    known = known_departments(snapshots)
    known.update({s: name for s, (level, name) in live_levels(board, viewer).items()
                  if level >= Level.KNOWN})  # fmt: skip
    return HistoryIndex(
        structures=structures,
        departments=[
            Followable(name, slug) for slug, name in sorted(known.items(), key=lambda x: x[1])
        ],
        numbers=[s.number or 0 for s in snapshots],
        offices=office_timelines(snapshots),
    )


def known_departments(snapshots: list[Snapshot]) -> dict[str, str]:
    """slug -> latest name of every department seen at least `known` in `snapshots`: the
    departments whose history the viewer may open (a slug is not shown below `known`)."""
    known: dict[str, str] = {}
    for snapshot in snapshots:
        for slug, data in snapshot.departments.items():
            if snapshot.level(slug) >= Level.KNOWN:
                known[slug] = str(data.get("name", slug))
    return known
