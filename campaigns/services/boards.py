"""Import a board from a file: the ENGINE.md state plus what only the site needs.

A board file is an ENGINE.md state (`settings` optional, `departments`, `links`) plus, at top
level, the board's `slug` and `name` and, per department, `description` and optional `flaws`.
`structure` names a player by an id local to the file; the caller maps those ids to
memberships. The campaign's own alignment catalogue applies (R5), not one in the file, and
the campaign's settings stay the campaign's: `settings` in a file is checked, not applied.

The file is checked whole before anything is written: first by the pure engine's own parser
(a board the turn job would refuse is refused here, with the engine's one-line message), then
for what the database and the pages need. Every problem found is reported at once, as
"department mint: ..." lines, so a GM can fix a file in one go.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.engine import EngineError
from campaigns.engine.board import Board as EngineBoard
from campaigns.engine.board import Department as EngineDepartment
from campaigns.engine.cli_io import parse_board
from campaigns.models import Board, Campaign, Department, Link, Membership, Structure
from campaigns.wording import problem_text

SLUG = re.compile(r"[-a-zA-Z0-9_]+\Z")
SLUG_MAX = 50  # SlugField's length
NAME_MAX = 120  # Board.name, Department.name
# The columns' caps (models/board.py): a card's worth of text, not a novel.
TEXT_MAX = {key: Department._meta.get_field(key).max_length for key in ("description", "flaws")}
SMALL_MAX = 32767  # PositiveSmallIntegerField on every database (PostgreSQL smallint)
BIG_MAX = 2147483647  # PositiveIntegerField (stash, capacity)
SITE_KEYS = frozenset(TEXT_MAX)  # per department, unknown to the engine


class BoardImportError(ValueError):
    """A board file that cannot be imported. `messages`: one line per problem found."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


def board_read(path: str | Path) -> dict[str, Any]:
    """A board file's JSON, parsed (BoardImportError if it is not a JSON object)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BoardImportError(
            [_("file: cannot read %(name)s: %(error)s") % {"name": Path(path).name, "error": error}]
        ) from None
    if not isinstance(data, dict):
        raise BoardImportError([_("file: a board file must be a JSON object")])
    return data


def board_import(
    *, campaign: Campaign, data: dict[str, Any], players: dict[str, Membership]
) -> Board:
    """Create the board `data` describes in `campaign`, with one structure per entry of
    `players` (file player id -> membership), its departments and its links (R4, R10, R12,
    R13). Nothing is saved unless the whole file is valid (BoardImportError otherwise).
    A fixed number of queries whatever the board's size: every table is written in bulk."""
    parsed = board_check(campaign=campaign, data=data, players=players)
    try:
        with transaction.atomic():
            board = Board.objects.create(campaign=campaign, slug=data["slug"], name=data["name"])
            structures = Structure.objects.bulk_create(
                Structure(board=board, player=member) for member in players.values()
            )
            by_player = dict(zip(players, structures, strict=True))
            rows = [
                department_row(board, parsed.departments[raw["slug"]], raw, by_player)
                for raw in data["departments"]
            ]
            Department.objects.bulk_create(rows)
            Link.objects.bulk_create(link_rows(board, parsed, data.get("links") or [], rows))
    except IntegrityError:
        # Another import took the slug between the check and the insert.
        raise BoardImportError([board_taken(campaign, data["slug"])]) from None
    return board


def board_check(*, campaign: Campaign, data: object, players: dict[str, Membership]) -> EngineBoard:
    """The engine's view of the file (raises BoardImportError listing every problem)."""
    if not isinstance(data, dict):
        raise BoardImportError([_("file: a board file must be a JSON object")])
    problems = []
    parsed = None
    try:
        parsed = parse_board(engine_state(campaign, data))
    except EngineError as error:
        problems.append(problem_text(str(error)))
    problems += board_problems(campaign, data)
    problems += player_problems(campaign, players)
    departments = data.get("departments")
    if isinstance(departments, list):
        for index, raw in enumerate(departments):
            if isinstance(raw, dict):
                problems += department_problems(index, raw, players)
    if parsed is not None:
        problems += [p for dept in parsed.departments.values() for p in bound_problems(dept)]
    if problems or parsed is None:
        raise BoardImportError(problems)
    return parsed


def engine_state(campaign: Campaign, data: dict[str, Any]) -> dict[str, Any]:
    """The file as the engine reads it: the site's keys stripped (on copies: the caller's
    dict is left alone), the campaign's catalogue in place of any in the file (R5)."""
    departments = data.get("departments")
    if isinstance(departments, list):
        departments = [
            {k: v for k, v in raw.items() if k not in SITE_KEYS} if isinstance(raw, dict) else raw
            for raw in departments
        ]
    state = {"settings": data.get("settings"), "departments": departments}
    state["links"] = data.get("links")
    catalogue = [a.as_engine() for a in campaign.alignments.all()]
    if catalogue:  # none: the default catalogue, as the turn job plays it (selectors/state.py)
        state["alignments"] = catalogue
    return state


def board_problems(campaign: Campaign, data: dict[str, Any]) -> list[str]:
    slug, name = data.get("slug"), data.get("name")
    problems = []
    if not valid_slug(slug):
        problems.append(bad_slug(_("board"), "R2"))
    elif Board.objects.filter(campaign=campaign, slug=slug).exists():
        problems.append(board_taken(campaign, slug))
    if not valid_text(name, NAME_MAX, required=True):
        problems.append(bad_name(_("board"), "R2"))
    return problems


def board_taken(campaign: Campaign, slug: object) -> str:
    """R2: a board's address is its own in the campaign."""
    return _("board: %(campaign)s already has a board %(slug)s (R2)") % {
        "campaign": campaign,
        "slug": repr(slug),
    }


def bad_slug(what: str, rule: str) -> str:
    """`rule`: R2 for a board's address, R4 for a department's."""
    return _("%(what)s: slug must be letters, digits, - or _ (at most %(n)s) (%(rule)s)") % {
        "what": what,
        "n": SLUG_MAX,
        "rule": rule,
    }


def bad_name(what: str, rule: str) -> str:
    """`rule`: R2 for a board's name, R4 for a department's."""
    return _("%(what)s: name must be a text of 1 to %(n)s characters (%(rule)s)") % {
        "what": what,
        "n": NAME_MAX,
        "rule": rule,
    }


def player_problems(campaign: Campaign, players: dict[str, Membership]) -> list[str]:
    """R13: a structure belongs to a player of this campaign (not its GM or an observer)."""
    problems = [
        _("player %(id)s: %(member)s is not a player of %(campaign)s (R13)")
        % {"id": pid, "member": member, "campaign": campaign}
        for pid, member in players.items()
        if member.campaign_id != campaign.pk or member.role != Membership.Role.PLAYER
    ]
    if len({member.pk for member in players.values()}) < len(players):
        problems.append(_("players: one membership is given under two player ids (R13)"))
    return problems


def department_problems(
    index: int, raw: dict[str, Any], players: dict[str, Membership]
) -> list[str]:
    """What the engine does not check but the site needs, for one department."""
    slug = raw.get("slug")
    if isinstance(slug, str) and slug:
        what = _("department %(slug)s") % {"slug": slug}
    else:
        what = _("department #%(n)s") % {"n": index + 1}
    problems = []
    if isinstance(slug, str) and slug and not valid_slug(slug):
        problems.append(bad_slug(what, "R4"))
    if not valid_text(raw.get("name"), NAME_MAX, required=True):
        problems.append(bad_name(what, "R4"))
    structure = raw.get("structure")
    if isinstance(structure, str) and structure not in players:
        known = ", ".join(sorted(players)) or _("none")
        problems.append(
            _("%(what)s: structure %(structure)s is not a player given (%(known)s) (R13)")
            % {"what": what, "structure": repr(structure), "known": known}
        )
    if not isinstance(raw.get("home", False), bool):
        problems.append(_("%(what)s: home must be true or false (R13)") % {"what": what})
    for key, limit in TEXT_MAX.items():
        if not valid_text(raw.get(key, ""), limit or 0):
            problems.append(
                _("%(what)s: %(key)s must be a text of at most %(n)s characters (R4)")
                % {"what": what, "key": key, "n": limit}
            )
    return problems


def bound_problems(dept: EngineDepartment) -> list[str]:
    """The engine allows any whole number; the columns do not."""
    small = {"effect": dept.effect, "obstruct": dept.obstruct, "impress": dept.impress}
    for key, resource in (("consumes", dept.consumes), ("produces", dept.produces)):
        small[f"{key} amount"] = resource[1] if resource else 0
    big = {f"stash {k}": n for k, n in dept.stash.items()}
    big["capacity"] = dept.capacity or 0
    return [
        _("department %(slug)s: %(key)s must be at most %(n)s (%(rule)s)")
        % {"slug": dept.slug, "key": key, "n": limit, "rule": rule_of(key)}
        for values, limit in ((small, SMALL_MAX), (big, BIG_MAX))
        for key, n in values.items()
        if n > limit
    ]


def rule_of(key: str) -> str:
    """The rule a number of a card answers to: capacity R36, the rest the card's own (R4)."""
    return "R36" if key == "capacity" else "R4"


def valid_slug(value: object) -> bool:
    return isinstance(value, str) and len(value) <= SLUG_MAX and SLUG.match(value) is not None


def valid_text(value: object, limit: int, *, required: bool = False) -> bool:
    return isinstance(value, str) and len(value) <= limit and (bool(value.strip()) or not required)


def department_row(
    board: Board,
    dept: EngineDepartment,
    raw: dict[str, Any],
    structures: dict[str, Structure],
) -> Department:
    """One unsaved row from the engine's parsed department (values checked and normalised)
    and the file's own text."""
    consumes, produces = dept.consumes or ("", 0), dept.produces or ("", 0)
    return Department(
        board=board, slug=dept.slug, name=raw["name"],
        description=raw.get("description", ""), flaws=raw.get("flaws", ""),
        effect=dept.effect, obstruct=dept.obstruct, impress=dept.impress,
        consumes_type=consumes[0], consumes_amount=consumes[1],
        produces_type=produces[0], produces_amount=produces[1],
        functions=dept.functions, alignments=dept.alignments,
        structure=structures[dept.structure] if dept.structure else None, home=dept.home,
        **dept.stash,
        moved={k: n for k, n in dept.moved.items() if n},
        defence={k: n for k, n in dept.defence.items() if n},
        capacity=dept.capacity,
    )  # fmt: skip


def link_rows(
    board: Board, parsed: EngineBoard, raw_links: list[dict[str, Any]], rows: list[Department]
) -> list[Link]:
    """R12: the links in the file's order, each ranked as the engine ranked it (priorities
    given in the file, then the links without one; ranks 0, 1, ... per supplier)."""
    made = {row.slug: row for row in rows}
    ranks = {
        (supplier, consumer): rank
        for supplier, consumers in parsed.out_links.items()
        for rank, consumer in enumerate(consumers)
    }
    return [
        Link(
            board=board,
            supplier=made[link["from"]],
            consumer=made[link["to"]],
            priority=ranks[link["from"], link["to"]],
        )
        for link in raw_links
    ]
