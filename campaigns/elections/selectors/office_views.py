"""Offices on the board's pages (RULES R80, R50, R51): who holds each office and its deputy,
as badges on the cards and markers on the map (now, or after a processed turn), a timeline
per office on the board's history page read from the turn records, and the GM's list of a
board's offices with their elections.

A holder or deputy is marked only on a department the viewer may see at least as `rumoured`
(the map and the cards draw nothing else); in a timeline a department the viewer did not know
at that turn reads as "a department you do not know". Fixed numbers of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.models import Board, Election, Office
from campaigns.selectors.board_views import Snapshot, node_key
from campaigns.selectors.office_rows import office_rows
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level
from campaigns.words.intrigue import shtick_text


@dataclass(frozen=True)
class Post:
    """A department's post in an office: the holder's or the deputy's."""

    office: str
    alignment: str
    holder: bool

    @property
    def text(self) -> str:
        values = {"office": self.office, "alignment": self.alignment}
        if self.holder:
            return _("holds %(office)s (%(alignment)s)") % values
        return _("deputy of %(office)s (%(alignment)s)") % values


Posts = dict[str, list[Post]]  # slug -> its posts


def state_posts(state: dict[str, Any]) -> Posts:
    """The posts an ENGINE.md state's `offices` give (a record's, or one built now)."""
    posts: Posts = {}
    for office in state.get("offices") or []:
        for role in ("holder", "deputy"):
            slug = office.get(role)
            if slug:
                post = Post(str(office.get("name", "")), str(office.get("alignment", "")),
                            role == "holder")  # fmt: skip
                posts.setdefault(slug, []).append(post)
    return posts


def live_posts(board: Board) -> Posts:
    """The posts the board's offices give now. One query, shared with board_offices
    (selectors/office_rows.py)."""
    offices = [
        {"name": o.name, "alignment": o.alignment, "holder": o.holder_slug, "deputy": o.deputy_slug}
        for o in office_rows(board)
    ]
    return state_posts({"offices": offices})


def seen_posts(snapshot: Snapshot, posts: Posts) -> dict[str, list[Post]]:
    """Node key -> the posts of each department the viewer sees at least as rumoured."""
    return {
        node_key(snapshot.board_id, slug): found
        for slug, found in posts.items()
        if snapshot.level(slug) >= Level.RUMOURED
    }


# --- The history of each office -------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """Turns `first`..`last` during which the same holder and deputy held the office (each
    a name, UNNAMED for a department the viewer did not know then, None for vacant)."""

    first: int
    last: int
    holder: str | None
    deputy: str | None


@dataclass
class Timeline:
    office: str
    alignment: str
    terms: list[Term] = field(default_factory=list)


def office_timelines(snapshots: list[Snapshot]) -> list[Timeline]:
    """R80/R51: who held each office of the board after each recorded turn, as the viewer
    knew those departments then, in spans of turns. No query (the snapshots are the board's
    history, turn 0 first)."""
    timelines: dict[str, Timeline] = {}
    for snapshot in snapshots:
        number = snapshot.number or 0
        for office in snapshot.state.get("offices") or []:
            line = timelines.setdefault(str(office.get("id")), Timeline("", ""))
            line.office, line.alignment = str(office.get("name")), str(office.get("alignment"))
            holder, deputy = (named(snapshot, office.get(r)) for r in ("holder", "deputy"))
            last = line.terms[-1] if line.terms else None
            if last is not None and (last.holder, last.deputy) == (holder, deputy):
                line.terms[-1] = Term(last.first, number, holder, deputy)
            else:
                line.terms.append(Term(number, number, holder, deputy))
    return sorted(timelines.values(), key=lambda t: t.office)


def named(snapshot: Snapshot, slug: object) -> str | None:
    if not isinstance(slug, str) or slug not in snapshot.departments:
        return None
    if snapshot.level(slug) < Level.RUMOURED:
        return str(UNNAMED)
    return str(snapshot.departments[slug].get("name", ""))


# --- The GM's offices of a board -----------------------------------------------------------


@dataclass(frozen=True)
class ElectionLine:
    pk: int
    number: int
    held: bool
    winner: str | None  # the winning candidate's name, once held


@dataclass(frozen=True)
class OfficeAdmin:
    """R80 for the GM: an office with everything about it (the GM sees everything)."""

    pk: int
    name: str
    alignment: str
    shticks: list[str]  # in words
    holder: str | None
    deputy: str | None
    elections: list[ElectionLine]


def office_shtick_texts(
    shticks: list[dict[str, Any]], names: dict[str, str], boards: dict[str, str]
) -> list[str]:
    """R60/R80: an office's shticks in words, in their order (the GM removes one by its
    place). A department they name is one of the office's board (`names`: slug -> name);
    one naming none acts for every department of the holder's controller."""
    return [
        shtick_text(
            s,
            names.get(str(s["department"]), str(s["department"])) if s.get("department") else
            _("every department of the holder's controller"),
            boards,
        )
        for s in shticks
    ]  # fmt: skip


def board_office_admin(board: Board) -> list[OfficeAdmin]:
    """The board's offices and every election of each, soonest first. Four queries."""
    offices = list(
        Office.objects.filter(board=board).select_related("holder", "deputy").order_by("name")
    )
    names = dict(board.departments.values_list("slug", "name"))
    elections: dict[int, list[ElectionLine]] = {}
    for election in Election.objects.filter(office__in=offices).order_by("number"):
        winner = (election.result or {}).get("winner")
        line = ElectionLine(
            election.pk, election.number, election.result is not None, names.get(winner)
        )
        elections.setdefault(election.office_id, []).append(line)

    boards = dict(Board.objects.filter(campaign_id=board.campaign_id).values_list("slug", "name"))
    return [
        OfficeAdmin(
            o.pk,
            o.name,
            o.alignment,
            office_shtick_texts(o.shticks, names, boards),
            o.holder.name if o.holder else None,
            o.deputy.name if o.deputy else None,
            elections.get(o.pk, []),
        )  # fmt: skip
        for o in offices
    ]
