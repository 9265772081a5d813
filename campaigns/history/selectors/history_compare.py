"""Compare two turns of a board: what changed between turn N and turn M, each
turn seen as the viewer knew it then (RULES R51). Read from the two turns' records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from campaigns.history.selectors.history_events import STASH, controller_name, namer
from campaigns.history.selectors.history_records import records_at
from campaigns.models import Board, Membership
from campaigns.selectors.board_map import People, TurnChanges, map_data, pairs, people_of
from campaigns.selectors.board_turns import card_texts
from campaigns.selectors.board_views import (
    BoardView,
    Pair,
    Snapshot,
    board_view_of,
    record_snapshot,
)
from campaigns.selectors.visibility import Level
from campaigns.words import labels


@dataclass(frozen=True)
class Comparison:
    first: int
    second: int
    changes: list[str]
    first_board: BoardView
    second_board: BoardView
    first_map: dict[str, Any]
    second_map: dict[str, Any]  # with what changed since the first turn marked


def department_changes(a: Snapshot, b: Snapshot, people: People) -> list[str]:
    """Departments coming into or out of view, changing hands (seen `known` at both turns),
    and their stash and status (seen `controlled` at both turns)."""
    changes = []
    for slug in sorted(set(a.departments) | set(b.departments)):
        level_a, level_b = a.level(slug), b.level(slug)
        name = namer(b)(slug) if level_b >= Level.RUMOURED else namer(a)(slug)
        if level_a < Level.RUMOURED <= level_b:
            came = _("%(name)s is on the board.") if b.everything else _("You heard of %(name)s.")
            changes.append(came % {"name": name})
        elif level_b < Level.RUMOURED <= level_a:
            went = _("%(name)s is gone.") if a.everything else _("%(name)s is out of your view.")
            changes.append(went % {"name": name})
        if min(level_a, level_b) < Level.KNOWN:
            continue
        old, new = controller_name(a, slug, people), controller_name(b, slug, people)
        if a.owner(slug) != b.owner(slug):
            nobody = _("uncontrolled")
            changes.append(f"{name}: {old or nobody} → {new or nobody}.")
        if min(level_a, level_b) >= Level.CONTROLLED:
            changes += private_changes(name, a, b, slug)
    return changes


def private_changes(name: str, a: Snapshot, b: Snapshot, slug: str) -> list[str]:
    """Stash and status of a department the viewer controlled at both turns (R50)."""
    was, now = a.departments[slug].get("stash") or {}, b.departments[slug].get("stash") or {}
    parts = [
        f"{labels.TYPE_LABELS[k]} {int(was.get(k, 0))} → {int(now.get(k, 0))}"
        for k in STASH
        if int(was.get(k, 0)) != int(now.get(k, 0))
    ]
    old_status = a.figures.get(slug, {}).get("status")
    new_status = b.figures.get(slug, {}).get("status")
    if old_status != new_status:
        old, new = labels.status_label(old_status), labels.status_label(new_status)
        parts.append(f"{old or '—'} → {new or '—'}")
    return [f"{name}: {', '.join(parts)}."] if parts else []


def link_changes(a: Snapshot, b: Snapshot) -> tuple[list[str], set[Pair], set[Pair]]:
    """Links seen at one turn and not the other: made or broken where the viewer saw both
    ends at both turns, else come into or gone out of view."""
    seen_a = {(s, c) for s, c, _ in a.visible_links()}
    seen_b = {(s, c) for s, c, _ in b.visible_links()}
    name_a, name_b = namer(a), namer(b)  # each seen link: both ends, or one theirs, named
    changes: list[str] = []
    added: set[Pair] = set()
    removed: set[Pair] = set()
    for s, c in sorted(seen_b - seen_a):
        new = a.would_see_link(s, c)
        what = _("New link %(link)s.") if new else _("Link now in view: %(link)s.")
        changes.append(what % {"link": f"{name_b(s)} → {name_b(c)}"})
        added.add((s, c))
    for s, c in sorted(seen_a - seen_b):
        broken = b.would_see_link(s, c) and (s, c) not in pairs(b.state)
        what = _("Link gone: %(link)s.") if broken else _("Link out of view: %(link)s.")
        changes.append(what % {"link": f"{name_a(s)} → {name_a(c)}"})
        if broken:
            removed.add((s, c))
    return changes, added, removed


def compare_turns(board: Board, viewer: Membership, first: int, second: int) -> Comparison | None:
    """The board at turn `first` and at turn `second`, and what changed from the first to
    the second; None if either turn has no record of this board. Four queries."""
    records = records_at(board, [first, second])
    if first not in records or second not in records:
        return None
    a, b = record_snapshot(records[first], viewer), record_snapshot(records[second], viewer)
    people = people_of(board.campaign)
    rows = card_texts(board)
    links, added, removed = link_changes(a, b)
    marks = TurnChanges(
        changed_hands={s for s in b.departments if a.owner(s) != b.owner(s)},
        added=added,
        removed=removed,
    )
    return Comparison(
        first=first,
        second=second,
        changes=department_changes(a, b, people) + links,
        first_board=board_view_of(board, a, rows, people.names),
        second_board=board_view_of(board, b, rows, people.names),
        first_map=map_data(a, people),
        second_map=map_data(b, people, marks),
    )
