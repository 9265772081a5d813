"""The write half of the one bridge between the database and the pure engine: the turn job's
engine results written back in a fixed number of statements whatever the number of
departments, and only where something changed (`board_changes`, `changes_write`). The read
half (`board_state`) is selectors/state.py."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils.translation import gettext as _

from campaigns.engine.board import TYPES
from campaigns.engine.joined import SEP
from campaigns.models import Board, ClassicBoard, Department, Link, Structure
from campaigns.models.campaign import engine_player_id, membership_pk_of
from campaigns.selectors.state import WRITTEN, BoardRows, without_zeros
from campaigns.services.bulk_writes import bulk_set, rows_insert, rows_update

DEPARTMENT_FIELDS = list(WRITTEN)


class NewStructure(NamedTuple):
    """A structure the engine's result needs and the board does not have yet: a player who
    received a department by a hand-over (RULES R62) on a board where they held nothing.
    Made when the changes are written (`changes_write`)."""

    board: int
    member: int


@dataclass
class BoardChanges:
    """What one board's engine result changes in its rows: departments as (pk, *WRITTEN
    values) for the rows whose values differ (the structure a NewStructure where it is still
    to be made), and the links diffed against the stored ones (a link kept with a new rank is
    an update, not a delete and an insert)."""

    departments: list[tuple[Any, ...]] = field(default_factory=list)
    links_gone: list[int] = field(default_factory=list)
    links_new: list[tuple[int, int, int, int]] = field(default_factory=list)  # board, s, c, rank
    links_ranked: list[tuple[int, int]] = field(default_factory=list)  # pk, new rank


def structure_of(board: Board, player: str | None, by_player: dict[str, int]) -> Any:
    """The board's Structure id for an engine player id, a NewStructure to make for a
    member who has none on the board, or None (uncontrolled, or not a member's id)."""
    if not player:
        return None
    if player in by_player:
        return by_player[player]
    member = membership_pk_of(player)
    return None if member is None else NewStructure(board.pk, member)


def board_changes(
    board: Board,
    result: dict[str, Any],
    report: dict[str, Any],
    rows: BoardRows,
    far: Mapping[str, int] | None = None,
) -> BoardChanges:
    """Compare an engine result (and the spawn-consume `report`: status and chain length
    per department) with the rows as read. Stubs (departments of other boards, with a
    "board" key) are written by their own board's changes; a new link to one is found in
    `far` ("<board>/<slug>" -> department id, every board of a joined state)."""
    ids = {**(far or {}), **rows.ids}
    changes = BoardChanges()
    by_player = {player: pk for pk, player in rows.players.items()}
    figures = report.get("departments", {})
    for data in result["departments"]:
        if "board" in data:
            continue
        slug = data["slug"]
        stored = rows.written[slug]
        stash = data["stash"]
        figure = figures.get(slug)
        values = (
            stash["money"],
            stash["people"],
            stash["authority"],
            without_zeros(data["moved"]),
            without_zeros(data["defence"]),
            structure_of(board, data["structure"], by_player),
            data["home"],
            data.get("capacity"),
            figure["status"] if figure else stored[-2],
            figure["chain_length"] if figure else stored[-1],
        )
        if values != stored:
            changes.departments.append((rows.ids[slug], *values))
    stored_links = {(s, c): (pk, rank) for pk, s, c, rank in rows.links}
    for link in result["links"]:
        key = (ids[link["from"]], ids[link["to"]])
        found = stored_links.pop(key, None)
        if found is None:
            changes.links_new.append((board.pk, *key, link["priority"]))
        elif found[1] != link["priority"]:
            changes.links_ranked.append((found[0], link["priority"]))
    changes.links_gone = [pk for pk, _ in stored_links.values()]
    return changes


def changes_write(changes: list[BoardChanges]) -> None:
    """Write every board's changes: one UPDATE of the changed departments, one DELETE of the
    links gone, one INSERT of the new ones and one UPDATE of re-ranked ones (each only if
    there is something to write), after making the structures hand-overs need (R62). Call
    inside the turn job's transaction."""
    rows = structures_made([row for c in changes for row in c.departments])
    rows_update(Department, DEPARTMENT_FIELDS, rows)
    gone = [pk for c in changes for pk in c.links_gone]
    if gone:
        Link.objects.filter(pk__in=gone).delete()
    rows_update(Link, ["priority"], [row for c in changes for row in c.links_ranked])
    rows_insert(
        Link,
        ["board_id", "supplier_id", "consumer_id", "priority"],
        [row for c in changes for row in c.links_new],
    )


STRUCTURE_AT = 1 + WRITTEN.index("structure")  # in a department row (pk, *WRITTEN)


def structures_made(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Department rows with each NewStructure replaced by the id of a Structure made for it
    (one query, and only when a hand-over needs one)."""
    wanted = {row[STRUCTURE_AT] for row in rows if isinstance(row[STRUCTURE_AT], NewStructure)}
    if not wanted:
        return rows
    made = Structure.objects.bulk_create(
        [Structure(board_id=board, player_id=member) for board, member in sorted(wanted)]
    )
    ids = {NewStructure(s.board_id, s.player_id): s.pk for s in made}
    return [
        (*row[:STRUCTURE_AT], ids[row[STRUCTURE_AT]], *row[STRUCTURE_AT + 1 :])
        if isinstance(row[STRUCTURE_AT], NewStructure)
        else row
        for row in rows
    ]


# The card and position columns a state holds (ENGINE.md), restored by `board_restore`.
RESTORED = (
    "name",
    "effect",
    "obstruct",
    "impress",
    "consumes_type",
    "consumes_amount",
    "produces_type",
    "produces_amount",
    "functions",
    "alignments",
    *TYPES,
    "moved",
    "defence",
    "structure",
    "home",
    "capacity",
    "status",
    "chain_length",
)


def board_restore(
    board: Board, state: dict[str, Any], figures: dict[str, Any], *, members: set[int]
) -> None:
    """Write a recorded engine state back over the board (RULES R52): every department's card,
    stash and structure, and the links. `figures` is the spawn-consume report the state came
    from (status and chain length); `members` the campaign's membership ids (a structure of
    someone no longer in the campaign comes back uncontrolled). ValueError, naming the
    department, if the board's departments are not the state's."""
    rows = {d.slug: d for d in board.departments.all()}
    wanted = {d["slug"]: d for d in state["departments"] if "board" not in d}
    changed = sorted(rows.keys() ^ wanted.keys())
    far = far_ends(board, [d for d in state["departments"] if "board" in d])
    if changed:
        names = ", ".join(rows[s].name if s in rows else wanted[s]["name"] for s in changed)
        raise ValueError(
            _(
                "%(board)s: departments were added or removed since the turn (%(names)s): "
                "undo that change first."
            )
            % {"board": board.name, "names": names}
        )
    structures = structures_for(board, state, members)
    for slug, data in wanted.items():
        dept = rows[slug]
        for key in ("name", "effect", "obstruct", "impress", "functions", "alignments"):
            setattr(dept, key, data[key])
        for key in ("consumes", "produces"):
            resource = data.get(key) or {}
            setattr(dept, f"{key}_type", resource.get("type", ""))
            setattr(dept, f"{key}_amount", resource.get("amount", 0))
        for kind in TYPES:
            setattr(dept, kind, data.get("stash", {}).get(kind, 0))
        dept.moved = without_zeros(data.get("moved"))
        dept.defence = without_zeros(data.get("defence"))
        dept.structure_id = structures.get(data.get("structure"))
        dept.home = bool(data.get("home")) and dept.structure_id is not None
        dept.capacity = data.get("capacity")
        dept.status = figures.get(slug, {}).get("status", "")
        dept.chain_length = figures.get(slug, {}).get("chain_length", 1)
    bulk_set(list(rows.values()), list(RESTORED))
    Link.objects.filter(board=board).delete()
    ends = {**rows, **far}
    Link.objects.bulk_create(
        Link(
            board=board,
            supplier=ends[link["from"]],
            consumer=ends[link["to"]],
            priority=link.get("priority", 0),
        )
        for link in state["links"]
    )


def far_ends(board: Board, stubs: list[dict[str, Any]]) -> dict[str, Department]:
    """The departments of other boards a recorded state carries as stubs (its cross-board
    links, engine/joined.py), by the state's name for them; ValueError if one is gone."""
    if not stubs:
        return {}
    wanted = {(d["board"], d["slug"].split(SEP, 1)[1]): d["slug"] for d in stubs}
    found = {
        wanted[(d.board.slug, d.slug)]: d
        for d in Department.objects.filter(board__campaign_id=board.campaign_id)
        .filter(slug__in={slug for _, slug in wanted})
        .select_related("board")
        if (d.board.slug, d.slug) in wanted
    }
    missing = sorted(set(wanted.values()) - found.keys())
    if missing:
        raise ValueError(
            _(
                "%(board)s: a department its links reach on another board is gone "
                "(%(names)s): undo that change first."
            )
            % {"board": board.name, "names": ", ".join(missing)}
        )
    return found


def structures_for(board: Board, state: dict[str, Any], members: set[int]) -> dict[str, int]:
    """Engine player id -> the board's Structure id for every controller in `state` who is
    still a member, made where missing."""
    wanted = {
        pk
        for d in state["departments"]
        if "board" not in d  # a stub's structure is on its own board
        and (pk := membership_pk_of(d.get("structure"))) is not None
        and pk in members
    }
    existing = {s.player_id: s.pk for s in Structure.objects.filter(board=board)}
    for pk in sorted(wanted - existing.keys()):
        existing[pk] = Structure.objects.create(board=board, player_id=pk).pk
    return {engine_player_id(pk): existing[pk] for pk in wanted}


def classic_states_write(states: dict[int, dict[str, Any]], *, now: dt.datetime) -> None:
    """R93: each classic board's state after the turn replaces the stored one (board id ->
    the document, models/classic.py); one UPDATE whatever the number of boards. Call inside
    the turn job's transaction."""
    rows_update(ClassicBoard, ["state", "updated_at"], [(pk, s, now) for pk, s in states.items()])
