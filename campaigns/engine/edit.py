"""What the GM's editor asks the engine (RULES R53): would the turn job play a board the GM
has changed, and what does the change do that the GM must hear before it is kept.

The editor writes the change inside a transaction, reads the board back as an ENGINE.md
state and calls `review(before, after, ...)`; a refusal rolls the change back. How the
rules bind a GM, who is not a player (R14, R53), as this module reads them:

- The state must parse. `parse_board` is the first thing the turn job runs, so a state it
  refuses would stop every turn: cards (R4), alignments (R5), a link's type, self-links and
  duplicate links (R10), unique slugs. Its one-line reason is the refusal.
- A link the GM adds is a new link, so R10 and R11 bind it as they bind a player's
  `add_link`. The parser itself lets a state hold more links than R11 allows (the limits
  bind new links only, cli_io.parse_links), so a GM who lowers the setting breaks nothing.
  R14 (a player links only inside their own structure) does not bind the GM: R53 lets the
  GM change any link, and R14 names the GM as the other way into a structure.
- R13: a structure keeps its home departments and those linked to another department of
  it. The parser accepts a non-home department without such a link (it leaves at the end
  of the next link phase), but a change that strands one would be undone by the next turn
  without a word, so the editor refuses a change that strands a department. One stranded
  before the change is not the change's doing and does not stop it.
- R36: a change that makes a watched department discard more at the next spawn and consume
  (if nothing else happened first) is kept, with a warning of what it would discard: the
  GM may give tokens for the department to spend this week (a move, an attempt).
- R33: a department consuming a type that nothing on its board produces can be funded only
  from its own stash. That is legal (a GM builds a board one card at a time): a note.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .board import TYPES, Board, Tokens
from .cli_io import parse_board
from .errors import EngineError
from .refusals import refuse
from .spawn import spawn_consume


@dataclass(frozen=True, slots=True)
class Stranded:
    """R13: a non-home department with no link inside its structure."""

    slug: str
    structure: str


@dataclass(frozen=True, slots=True)
class Discard:
    """R36: tokens a department would discard at the next spawn and consume, and the
    capacity it would keep."""

    tokens: Tokens
    capacity: int


@dataclass(frozen=True, slots=True)
class Review:
    """The engine's verdict on a GM's change. Departments are named by slug, structures by
    player id; the caller puts them into words for the GM.

    `refusal`: the engine's one-line reason the change cannot be kept (the parser's, or
    R10/R11 for a new link), else None. `stranded` (R13) also refuses it. `discards` (R36,
    per watched slug that would discard more than before: all it would discard) and
    `unfunded` (R33, per watched slug: the type nothing on the board produces) are notes."""

    refusal: str | None = None
    stranded: list[Stranded] = field(default_factory=list)
    discards: dict[str, Discard] = field(default_factory=dict)
    unfunded: dict[str, str] = field(default_factory=dict)

    @property
    def refused(self) -> bool:
        return bool(self.refusal or self.stranded)


def review(
    before: dict[str, Any],
    after: dict[str, Any],
    *,
    new_links: Iterable[tuple[str, str]] = (),
    watch: Iterable[str] = (),
) -> Review:
    """RULES R53: may the GM's change from `before` to `after` be kept? `new_links`: the
    links the change adds (supplier, consumer), checked against R10-R11 as new links;
    `watch`: the departments whose cards or stash the change touched (R33, R36)."""
    old = parsed_or_none(before)
    if old is not None:
        for supplier, consumer in new_links:
            problem = new_link_problem(old, supplier, consumer)
            if problem:
                return Review(refusal=problem)
    try:
        board = parse_board(after)
    except EngineError as error:
        return Review(refusal=str(error))
    watched = [slug for slug in watch if slug in board.departments]
    was_stranded = stranded(old) if old is not None else set()
    return Review(
        stranded=sorted(stranded(board) - was_stranded, key=lambda s: s.slug),
        discards=more_discarded(before if old else None, after, watched),
        unfunded=unfunded(board, watched),
    )


def parsed_or_none(state: dict[str, Any]) -> Board | None:
    """The board before the change; None if even that was broken (then every problem of
    the changed board counts as the change's)."""
    try:
        return parse_board(state)
    except EngineError:
        return None


def new_link_problem(old: Board, supplier: str, consumer: str) -> str | None:
    """R10-R11 for a link the GM adds, judged as `add_link` judges one: against the board
    before the change, where a link already there is a duplicate (R10). (If even that
    board was broken, the changed board's own parse is all there is to go by.)"""
    for slug in (supplier, consumer):
        if slug not in old.departments:
            return refuse("no_such_department_rule", slug=slug)
    return old.link_problem(old.departments[supplier], old.departments[consumer])


def stranded(board: Board) -> set[Stranded]:
    """R13: the non-home departments that would leave their structure at the end of the
    next link phase (Board.apply_departures decides the same way)."""
    return {
        Stranded(dept.slug, dept.structure)
        for dept in board.departments.values()
        if dept.structure is not None and not dept.home and not board.linked_within_structure(dept)
    }


def discarded(state: dict[str, Any] | None, slugs: list[str]) -> dict[str, Discard]:
    """R36: what each of `slugs` would discard at the next spawn and consume, and the
    capacity it would have then."""
    if state is None or not slugs:
        return {}
    report = spawn_consume(parse_board(state))
    return {
        slug: Discard(report[slug]["discarded"], report[slug]["capacity"])
        for slug in slugs
        if slug in report
    }


def more_discarded(
    before: dict[str, Any] | None, after: dict[str, Any], slugs: list[str]
) -> dict[str, Discard]:
    """R36: per department of `slugs` that would discard more after the change than it
    would have anyway, all it would discard then (the GM reads the whole of it)."""
    old, new = discarded(before, slugs), discarded(after, slugs)
    found = {}
    for slug, now in new.items():
        was = old[slug].tokens if slug in old else {}
        if any(now.tokens[kind] > was.get(kind, 0) for kind in TYPES):
            found[slug] = now
    return found


def unfunded(board: Board, slugs: list[str]) -> dict[str, str]:
    """R33: the departments of `slugs` that consume a type no department of the board
    produces (they can be funded only from their own stash)."""
    produced = {d.produces[0] for d in board.departments.values() if d.produces}
    found = {}
    for slug in slugs:
        consumes = board.departments[slug].consumes
        if consumes is not None and consumes[0] not in produced:
            found[slug] = consumes[0]
    return found


def stranded_in(state: dict[str, Any]) -> list[Stranded]:
    """R13 on a whole board, as the campaign's start asks: the departments that would leave
    their structure at the first link phase (EngineError if the state does not parse)."""
    return sorted(stranded(parse_board(state)), key=lambda s: s.slug)
