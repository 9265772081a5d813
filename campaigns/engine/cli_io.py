"""The ENGINE.md JSON state <-> the engine's working Board.

Parsing checks everything the state itself must satisfy and raises EngineError with one line
naming the problem. Unknown keys are ignored (and not written back).
"""

from __future__ import annotations

import re
from typing import Any

from .board import TYPES, Board, Catalogue, Department, Settings, Tokens
from .envelopes import parse_envelopes
from .errors import EngineError, under_rule
from .goals import parse_goals
from .quick_read import quick_department
from .refusals import refuse
from .sheets import parse_election, parse_sheets
from .values import text, whole

TYPE_NAMES = frozenset(TYPES)
# The rule a department's field answers to, for its refusals (by the field the reason begins
# with); any other field is the card's own (R4).
FIELD_RULES = {
    "defence": "R47",
    "moved": "R42",
    "capacity": "R36",
    "structure": "R13",
    "board": "R2",
}
# ENGINE.md parts 7-9: the optional keys beside the board.
BESIDE = ("players", "offices", "envelopes", "goals", "election")


def parse_tokens(value: object, what: str, error: type[Exception] = EngineError) -> Tokens:
    """{type: n} with missing types 0; an unknown type or an amount that is not a whole
    number >= 0 raises `error`: EngineError in the state, OrderRejected in an order (ENGINE.md:
    a negative amount rejects the order, it is not an input error). A literal dict: this runs
    three times per department, so it is kept lean."""
    if value is None:
        return {"money": 0, "people": 0, "authority": 0}
    if type(value) is dict and value.keys() <= TYPE_NAMES:
        # The common case, checked in one go (three per department: it must be quick).
        get = value.get
        money, people, authority = get("money", 0), get("people", 0), get("authority", 0)
        if (
            type(money) is int
            and type(people) is int
            and type(authority) is int
            and money >= 0
            and people >= 0
            and authority >= 0
        ):
            return {"money": money, "people": people, "authority": authority}
    tokens = {"money": 0, "people": 0, "authority": 0}
    if not isinstance(value, dict):
        raise error(refuse("token_amounts", what=what))
    for kind, amount in value.items():
        if kind not in tokens:
            raise error(refuse("unknown_kind", what=what, kind=kind))
        if type(amount) is not int or amount < 0:
            raise error(refuse("whole_number", what=f"{what}.{kind}", minimum=0))
        tokens[kind] = amount
    return tokens


def parse_resource(value: object, what: str) -> tuple[str, int] | None:
    """R4: at most one consumed / produced resource, amount >= 1, or null."""
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("type") not in TYPES:
        raise EngineError(refuse("consumes_shape", what=what))
    amount = value.get("amount")
    if type(amount) is not int or amount < 1:
        raise EngineError(refuse("amount_number", what=what))
    return value["type"], amount


def parse_department(raw: object, catalogue: Catalogue) -> Department:
    if not isinstance(raw, dict) or not isinstance(raw.get("slug"), str) or not raw["slug"]:
        raise EngineError(refuse("needs_slug"))
    slug = raw["slug"]
    try:
        return department_fields(slug, raw, catalogue)
    except EngineError as error:
        # Field checks name only the field (building a message per field per department
        # is what made parsing slow); the department and the rule are named here, once.
        reason = str(error)
        field = re.match(r"\w*", reason)
        rule = FIELD_RULES.get(field[0] if field else "", "R4")
        raise EngineError(
            refuse("in_department", department=slug, inner=under_rule(reason, rule))
        ) from None


def parse_functions(functions: dict[Any, Any]) -> dict[str, int]:
    """Function name -> skill (R4: skill >= 0). JSON object keys are already strings."""
    for name, skill in functions.items():
        if type(skill) is not int or skill < 0 or not isinstance(name, str):
            raise EngineError(refuse("skill_number", function=name))
    return dict(functions)


def department_fields(slug: str, raw: dict[str, Any], catalogue: Catalogue) -> Department:
    functions = raw.get("functions") or {}
    if not isinstance(functions, dict):
        raise EngineError(refuse("functions_shape"))
    alignments = raw.get("alignments") or []
    if not isinstance(alignments, list) or not all(isinstance(a, str) for a in alignments):
        raise EngineError(refuse("alignment_names"))
    if alignments:
        catalogue.check_department(alignments)
    structure = raw.get("structure")
    if structure is not None and not isinstance(structure, str):
        raise EngineError(refuse("structure_shape"))
    capacity = raw.get("capacity")
    dept = Department(
        slug=slug,
        name=str(raw.get("name", slug)),
        effect=whole(raw.get("effect", 0), "effect"),
        obstruct=whole(raw.get("obstruct", 0), "obstruct"),
        impress=whole(raw.get("impress", 0), "impress"),
        consumes=parse_resource(raw.get("consumes"), "consumes"),
        produces=parse_resource(raw.get("produces"), "produces"),
        functions=parse_functions(functions),
        alignments=list(alignments),
        stash=parse_tokens(raw.get("stash"), "stash"),
        structure=structure,
        home=bool(raw.get("home", False)),
        defence=parse_tokens(raw.get("defence"), "defence"),
        moved=parse_tokens(raw.get("moved"), "moved"),
        capacity=None if capacity is None else whole(capacity, "capacity"),
    )  # 15 keywords at most: with more, CPython 3.12 builds a dict, line by line (slower)
    board = raw.get("board")
    if board is not None:
        dept.board = text(board, "board")  # ENGINE.md part 8: several boards in one state
    for kind in TYPES:
        if dept.moved[kind] > dept.stash[kind]:
            raise EngineError(refuse("moved_too_many", kind=kind))
    return dept


def parse_settings(raw: object) -> Settings:
    settings = Settings()
    if raw is None:
        return settings
    if not isinstance(raw, dict):
        raise EngineError(refuse("settings_shape"))
    for name, rule in (
        ("max_out_links", "R11"),
        ("max_in_links", "R11"),
        ("attempts_per_turn", "R43"),
    ):
        if name in raw:
            try:
                setattr(settings, name, whole(raw[name], f"settings.{name}"))
            except EngineError as error:
                raise EngineError(under_rule(str(error), rule)) from None
    return settings


def parse_links(raw: object, board: Board) -> None:
    """Add the state's links in funding order; each must be legal under R10.

    R11's limits bind new links only: a state may hold more (a GM lowered the setting, or a
    shtick raised one department's limit, which the engine does not model). Rejecting such
    a state would stall the turn job for good, so existing links are kept as they are.

    The ordinary link is taken in a few checks inline (a board of 20,000 departments has
    some 30,000 links); any other goes to `link_ranked`, which refuses it as it always did."""
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise EngineError(refuse("links_list"))
    departments = board.departments
    ranked: list[tuple[int, int, int, str, str]] = []
    for index, link in enumerate(raw):
        if type(link) is dict:
            supplier, consumer, priority = link.get("from"), link.get("to"), link.get("priority")
            if (
                type(supplier) is str
                and type(consumer) is str
                and supplier in departments
                and consumer in departments
            ):
                if priority is None:
                    # ENGINE.md: links without a priority rank after those with one, as listed.
                    ranked.append((1, 0, index, supplier, consumer))
                    continue
                if type(priority) is int and priority >= 0:
                    ranked.append((0, priority, index, supplier, consumer))
                    continue
        ranked.append(link_ranked(link, index, departments))
    ranked.sort()
    out_links, in_links = board.out_links, board.in_links
    for _, _, _, supplier, consumer in ranked:
        produces = departments[supplier].produces
        consumes = departments[consumer].consumes
        consumers = out_links.get(supplier)
        if (
            supplier != consumer
            and produces
            and consumes
            and produces[0] == consumes[0]
            and (consumers is None or consumer not in consumers)
        ):
            # R10: legal (type_problem would say None). Board.add_link, inline: once per link.
            if consumers is None:
                out_links[supplier] = [consumer]
            else:
                consumers.append(consumer)
            suppliers = in_links.get(consumer)
            if suppliers is None:
                in_links[consumer] = [supplier]
            else:
                suppliers.append(supplier)
            continue
        problem = board.type_problem(departments[supplier], departments[consumer])
        if problem:
            raise EngineError(
                refuse("in_link", link_from=supplier, link_to=consumer, inner=problem)
            )
        board.add_link(supplier, consumer)


def link_ranked(
    link: object, index: int, departments: dict[str, Department]
) -> tuple[int, int, int, str, str]:
    """A link as parse_links ranks it, or the refusal of what is wrong with it."""
    if not isinstance(link, dict):
        raise EngineError(refuse("link_shape"))
    supplier, consumer = link.get("from"), link.get("to")
    for end in (supplier, consumer):
        if not isinstance(end, str) or end not in departments:
            raise EngineError(
                refuse("unknown_link_end", link_from=supplier, link_to=consumer, end=end)
            )
    assert isinstance(supplier, str) and isinstance(consumer, str)
    priority = link.get("priority")
    if priority is None:
        return (1, 0, index, supplier, consumer)
    if type(priority) is not int or priority < 0:
        raise EngineError(
            refuse(
                "in_link",
                link_from=supplier,
                link_to=consumer,
                inner=under_rule(refuse("whole_number", what="priority", minimum=0), "R12"),
            )
        )
    return (0, priority, index, supplier, consumer)


def parse_board(state: object) -> Board:
    """The state's board, checked (EngineError on anything the state itself breaks)."""
    if not isinstance(state, dict):
        raise EngineError(refuse("state_object"))
    catalogue = Catalogue.parse(state.get("alignments"))
    raw_departments = state.get("departments")
    if not isinstance(raw_departments, list):
        raise EngineError(refuse("departments_list"))
    departments: dict[str, Department] = {}
    for raw in raw_departments:
        # The ordinary department in one step; anything else field by field (its refusal).
        dept = quick_department(raw, catalogue) if type(raw) is dict else None
        if dept is None:
            dept = parse_department(raw, catalogue)
        if dept.slug in departments:
            raise EngineError(refuse("duplicate_slug", slug=dept.slug))
        departments[dept.slug] = dept
    board = Board(departments, catalogue, parse_settings(state.get("settings")))
    parse_links(state.get("links"), board)
    parse_beside(state, board)
    return board


def parse_beside(state: dict[str, Any], board: Board) -> None:
    """ENGINE.md parts 7-9, all optional: players, offices, envelopes, goals, election."""
    if not any(key in state for key in BESIDE):
        return
    board.sheets = parse_sheets(
        state.get("players"), state.get("offices"), board.catalogue, board.departments
    )
    board.envelopes = parse_envelopes(state.get("envelopes"))
    board.goals = parse_goals(state.get("goals"), board.catalogue)
    board.election = parse_election(state.get("election"), board.sheets.offices)


def department_json(dept: Department) -> dict[str, Any]:
    """The department as ENGINE.md writes it. Its dicts are handed over, not copied: the
    working Board was built for this one call and is dropped after it. (Once per department:
    the resources are written inline, not by a call each.)"""
    consumes, produces = dept.consumes, dept.produces
    data: dict[str, Any] = {
        "slug": dept.slug,
        "name": dept.name,
        "effect": dept.effect,
        "obstruct": dept.obstruct,
        "impress": dept.impress,
        "consumes": None if consumes is None else {"type": consumes[0], "amount": consumes[1]},
        "produces": None if produces is None else {"type": produces[0], "amount": produces[1]},
        "functions": dept.functions,
        "alignments": dept.alignments,
        "stash": dept.stash,
        "structure": dept.structure,
        "home": dept.home,
        "defence": dept.defence,
        "moved": dept.moved,
    }
    if dept.capacity is not None:
        data["capacity"] = dept.capacity
    if dept.board is not None:
        data["board"] = dept.board
    return data


def state_json(state: dict[str, Any], board: Board) -> dict[str, Any]:
    """The new state: the input's top-level keys we know, with the board written back.
    Links are listed supplier by supplier (in department order), rank 0 first."""
    out: dict[str, Any] = {
        key: state[key] for key in ("turn", "seed", "alignments", "orders") if key in state
    }
    out["settings"] = {
        "max_out_links": board.settings.max_out_links,
        "max_in_links": board.settings.max_in_links,
        "attempts_per_turn": board.settings.attempts_per_turn,
    }
    out["departments"] = [department_json(d) for d in board.departments.values()]
    out["links"] = [
        {"from": slug, "to": consumer, "priority": rank}
        for slug in board.departments
        for rank, consumer in enumerate(board.out_links.get(slug, ()))
    ]
    # Parts 7-9 come back as they went in, but goals with their attempts_won counts and
    # offices with their holder and deputy as the turn left them.
    for key in ("players", "envelopes", "election"):
        if key in state:
            out[key] = state[key]
    if "goals" in state:
        out["goals"] = [goal.as_json() for goal in board.goals]
    if "offices" in state:
        out["offices"] = [office.as_json() for office in board.sheets.offices]
    return out
