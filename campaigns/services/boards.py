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
from campaigns.engine.refusals import parse
from campaigns.models import Board, Campaign, Department, Link, Membership, Structure
from campaigns.selectors.editor import names_of
from campaigns.words.game import problem_text

SLUG = re.compile(r"[-a-zA-Z0-9_]+\Z")
SLUG_MAX = 50  # SlugField's length
NAME_MAX = 120  # Board.name, Department.name
# The columns' caps (models/board.py): a card's worth of text, not a novel.
TEXT_MAX = {key: Department._meta.get_field(key).max_length for key in ("description", "flaws")}
SMALL_MAX = 32767  # PositiveSmallIntegerField on every database (PostgreSQL smallint)
BIG_MAX = 2147483647  # PositiveIntegerField (stash, capacity)
SITE_KEYS = frozenset(TEXT_MAX)  # per department, unknown to the engine


# Where in the file a problem is: ("departments", i) or ("links", i), the i-th entry of
# that list; the page turns it into the file's line (selectors/board_files.py).
Place = tuple[str, int]


class BoardImportError(ValueError):
    """A board file that cannot be imported. `messages`: one line per problem found;
    `places`: for each, the entry it is about, if one."""

    def __init__(self, messages: list[str], places: list[Place | None] | None = None) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages
        self.places = places if places is not None else [None] * len(messages)


class BoardImportWarning(BoardImportError):
    """A board file that can be imported but holds what the GM should confirm first: a
    department whose Impress or Obstruct is 0 (its attempts, or its defence, roll only the
    dice its tokens buy)."""


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
    *,
    campaign: Campaign,
    data: dict[str, Any],
    players: dict[str, Membership],
    stop_for_warnings: bool = False,
) -> Board:
    """Create the board `data` describes in `campaign`, with one structure per entry of
    `players` (file player id -> membership), its departments and its links (R4, R10, R12,
    R13). Nothing is saved unless the whole file is valid (BoardImportError otherwise), nor,
    with `stop_for_warnings`, while it holds something to confirm (BoardImportWarning).
    A fixed number of queries whatever the board's size: every table is written in bulk."""
    parsed = board_check(campaign=campaign, data=data, players=players)
    if stop_for_warnings:
        warnings = weak_departments(parsed, data["departments"])
        if warnings:
            raise BoardImportWarning([w for w, __ in warnings], [p for __, p in warnings])
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
    found: list[tuple[str, Place | None]] = []
    parsed, engine_error = None, None
    catalogue = [a.as_engine() for a in campaign.alignments.order_by("pk")]
    try:
        parsed = parse_board(engine_state(data, catalogue))
    except EngineError as error:
        engine_error = str(error)
    found += [(p, None) for p in board_problems(campaign, data)]
    found += [(p, None) for p in player_problems(campaign, players)]
    departments = data.get("departments")
    names = names_of(catalogue)
    unknown_alignments = False
    if isinstance(departments, list):
        for index, raw in enumerate(departments):
            if isinstance(raw, dict):
                place: Place = ("departments", index)
                found += [(p, place) for p in department_problems(index, raw, players)]
                unknown = alignment_problems(where(index, raw), raw.get("alignments"), names)
                found += [(p, place) for p in unknown]
                unknown_alignments = unknown_alignments or bool(unknown)
    # The engine stops at the first problem it meets (a department's, before any link's):
    # the site lists every link to a department the file lacks too, in the same pass.
    dangling = dangling_links(data)
    found += dangling
    # The site lists every unknown alignment with the catalogue, and every dangling link;
    # the engine names the first.
    refusal = None if engine_error is None else parse(engine_error)
    code = None if refusal is None else refusal.code
    inner = None if refusal is None or code != "in_department" else parse(refusal.params["inner"])
    if engine_error is not None and not (
        (unknown_alignments and inner is not None and inner.code == "unknown_alignment")
        or (dangling and code == "unknown_link_end")
    ):
        found.insert(0, (problem_text(engine_error), engine_place(engine_error, data)))
    if parsed is not None:
        index = {raw.get("slug"): i for i, raw in reversed(list(enumerate(data["departments"])))}
        found += [
            (p, ("departments", index[dept.slug]))
            for dept in parsed.departments.values()
            for p in bound_problems(dept)
        ]
    if found or parsed is None:
        messages = [p for p, __ in found]
        raise BoardImportError(messages, [place for __, place in found])
    return parsed


def dangling_links(data: dict[str, Any]) -> list[tuple[str, Place | None]]:
    """R2, R10: each link of the file naming a department the file does not hold, at its
    place in the file."""
    departments = data.get("departments")
    if not isinstance(departments, list):
        return []  # said once, about the departments (by the engine)
    slugs = {d.get("slug") for d in departments if isinstance(d, dict)}
    links = data.get("links") if isinstance(data.get("links"), list) else []
    problems: list[tuple[str, Place | None]] = []
    for index, link in enumerate(links):
        if not isinstance(link, dict):
            continue
        ends = (link.get("from"), link.get("to"))
        for end in dict.fromkeys(ends):
            if isinstance(end, str) and end and end not in slugs:
                text = _("link %(from)s → %(to)s: the file has no department %(slug)s (R2, R10)")
                words = {"from": ends[0], "to": ends[1], "slug": end}
                problems.append((text % words, ("links", index)))
    return problems


def engine_place(error: str, data: dict[str, Any]) -> Place | None:
    """The department or link the engine's `error` is about, as its place in the file."""
    departments = [d if isinstance(d, dict) else {} for d in data.get("departments") or []]
    slugs = [d.get("slug") for d in departments]
    refusal = parse(error)
    params = {} if refusal is None else refusal.params
    code = None if refusal is None else refusal.code
    if code == "in_department":
        if params["department"] in slugs:
            return ("departments", slugs.index(params["department"]))
    elif code in ("in_link", "unknown_link_end"):
        links = data.get("links") if isinstance(data.get("links"), list) else []
        for index, link in enumerate(links):
            if isinstance(link, dict) and (link.get("from"), link.get("to")) == (
                params["link_from"],
                params["link_to"],
            ):
                return ("links", index)
    elif code == "duplicate_slug":
        seen = [i for i, slug in enumerate(slugs) if slug == params["slug"]]
        if len(seen) > 1:
            return ("departments", seen[1])
    return None


def weak_departments(parsed: EngineBoard, raw: list[dict[str, Any]]) -> list[tuple[str, Place]]:
    """R43: the departments whose Impress (the attacker's roll) or Obstruct (the target's)
    is 0: legal, but every such roll has only the dice its tokens buy (R20, R21). Said
    before the import, so the GM does not find out when every attack rolls 0 dice."""
    warnings = []
    for index, entry in enumerate(raw):
        dept = parsed.departments[entry["slug"]]
        what = _("department %(slug)s") % {"slug": dept.slug}
        if dept.impress == 0:
            text = _(
                "%(what)s: Impress 0. Its linking attempts roll only the dice its tokens "
                "buy, so without tokens it cannot link (R20, R21, R43)."
            )
            warnings.append((text % {"what": what}, ("departments", index)))
        if dept.obstruct == 0:
            text = _(
                "%(what)s: Obstruct 0. Against an attempt it rolls only the dice its tokens "
                "buy, so without tokens it is taken by any success (R20, R21, R43)."
            )
            warnings.append((text % {"what": what}, ("departments", index)))
    return warnings


def engine_state(data: dict[str, Any], catalogue: list[dict[str, Any]]) -> dict[str, Any]:
    """The file as the engine reads it: the site's keys stripped (on copies: the caller's
    dict is left alone), the campaign's `catalogue` in place of any in the file (R5)."""
    departments = data.get("departments")
    if isinstance(departments, list):
        departments = [
            {k: v for k, v in raw.items() if k not in SITE_KEYS} if isinstance(raw, dict) else raw
            for raw in departments
        ]
    state = {"settings": data.get("settings"), "departments": departments}
    state["links"] = data.get("links")
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


def where(index: int, raw: dict[str, Any]) -> str:
    """A department of the file, as its problems begin: by its slug, else its place."""
    slug = raw.get("slug")
    if isinstance(slug, str) and slug:
        return _("department %(slug)s") % {"slug": slug}
    return _("department #%(n)s") % {"n": index + 1}


def department_problems(
    index: int, raw: dict[str, Any], players: dict[str, Membership]
) -> list[str]:
    """What the engine does not check but the site needs, for one department."""
    slug = raw.get("slug")
    what = where(index, raw)
    problems = []
    if isinstance(slug, str) and slug and not valid_slug(slug):
        problems.append(bad_slug(what, "R4"))
    if not valid_text(raw.get("name"), NAME_MAX, required=True):
        problems.append(bad_name(what, "R4"))
    structure = raw.get("structure")
    if isinstance(structure, str) and structure not in players:
        problems.append(not_a_player(what, structure, sorted(players)))
    if not isinstance(raw.get("home", False), bool):
        problems.append(_("%(what)s: home must be true or false (R13)") % {"what": what})
    for key, limit in TEXT_MAX.items():
        if not valid_text(raw.get(key, ""), limit or 0):
            problems.append(
                _("%(what)s: %(key)s must be a text of at most %(n)s characters (R4)")
                % {"what": what, "key": key, "n": limit}
            )
    return problems


def not_a_player(what: str, structure: str, players: list[str]) -> str:
    """R13: a structure is a player's; the GM can invite one, or leave the department free."""
    text = _(
        "%(what)s: structure %(structure)s is not a player of this campaign (its players: "
        "%(known)s). Invite %(structure)s as a player first, or leave the structure empty "
        "for a department no one holds (R13)."
    )
    known = ", ".join(players) or _("none yet")
    return text % {"what": what, "structure": repr(structure), "known": known}


def alignment_problems(what: str, alignments: object, catalogue: list[str]) -> list[str]:
    """R5: every alignment a department holds is in the campaign's catalogue; the message
    names the catalogue (the engine checks the rest of R4 and R5)."""
    if not isinstance(alignments, list):
        return []
    known = {name.casefold() for name in catalogue}
    text = _(
        "%(what)s: unknown alignment %(alignment)s; this campaign's alignments are "
        "%(known)s (R5). Add it to the campaign's alignments first, or change the file."
    )
    return [
        text % {"what": what, "alignment": repr(name), "known": ", ".join(catalogue)}
        for name in alignments
        if isinstance(name, str) and name.casefold() not in known
    ]


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
