"""A state's departments read into the engine's Board in one pass over the parsed JSON, for
the ordinary case: every value of the expected type and in range (reading was
40-55 % of the command line's time on a board of 20,000 departments).

`quick_department` checks a department in one function, without a call per field, and
builds the Department positionally (no keyword dict). It never raises: on anything it does
not accept at once (a missing or odd value, an unknown key, the part 8 `board` key) it
answers None, and cli_io's field-by-field reading takes the department, with the same
checks and the same one-line refusals as ever. So it accepts exactly what that reading
accepts in the cases it takes, and the board it builds is the one that reading builds."""

from __future__ import annotations

from typing import Any

from .board import TYPES, Catalogue, Department, Tokens
from .errors import EngineError

# The keys ENGINE.md gives a department (and the site's own, read as the reading reads them).
KEYS = frozenset(
    ("slug", "name", "effect", "obstruct", "impress", "consumes", "produces", "functions",
     "alignments", "stash", "structure", "home", "defence", "moved", "capacity")
)  # fmt: skip
TYPE_NAMES = frozenset(TYPES)


NO_TOKENS: Tokens = {"money": 0, "people": 0, "authority": 0}


def quick_tokens(value: object) -> Tokens | None:
    """{type: n}, missing types 0, or None if `value` is anything else (R4). The missing
    types are filled in by merging onto NO_TOKENS (one step in C instead of three lookups),
    which also keeps the types in R3's order."""
    if value is None:
        return {"money": 0, "people": 0, "authority": 0}
    if type(value) is not dict or not value.keys() <= TYPE_NAMES:
        return None
    tokens = NO_TOKENS | value
    money, people, authority = tokens.values()
    if (
        type(money) is int
        and type(people) is int
        and type(authority) is int
        and money >= 0
        and people >= 0
        and authority >= 0
    ):
        return tokens
    return None


def quick_resource(value: object) -> tuple[str, int] | None | bool:
    """R4: (type, amount), None for null, or False if `value` is anything else."""
    if value is None:
        return None
    if type(value) is dict:
        kind, amount = value.get("type"), value.get("amount")
        if kind in TYPE_NAMES and type(amount) is int and amount >= 1:
            return kind, amount
    return False


def quick_department(raw: dict[str, Any], catalogue: Catalogue) -> Department | None:
    """The department `raw` (a dict) checked as cli_io.department_fields checks it, or None
    if it needs that reading (which then accepts it the same way, or refuses it)."""
    if not raw.keys() <= KEYS:
        return None
    get = raw.get
    slug = get("slug")
    name = get("name", slug)
    effect, obstruct, impress = get("effect", 0), get("obstruct", 0), get("impress", 0)
    if not (
        type(slug) is str
        and slug
        and type(name) is str
        and type(effect) is int
        and type(obstruct) is int
        and type(impress) is int
        and effect >= 0
        and obstruct >= 0
        and impress >= 0
    ):
        return None
    consumes, produces = quick_resource(get("consumes")), quick_resource(get("produces"))
    functions, alignments = get("functions") or {}, get("alignments") or []
    structure, capacity = get("structure"), get("capacity")
    if (
        consumes is False
        or produces is False
        or type(functions) is not dict
        or type(alignments) is not list
        or not (structure is None or type(structure) is str)
        or not (capacity is None or (type(capacity) is int and capacity >= 0))
    ):
        return None
    for function, skill in functions.items():
        if type(skill) is not int or skill < 0 or type(function) is not str:
            return None
    if alignments:
        if not all(type(a) is str for a in alignments):
            return None
        try:
            catalogue.check_department(alignments)
        except EngineError:
            return None
    stash, defence, moved = quick_tokens(get("stash")), quick_tokens(get("defence")), None
    if stash is None or defence is None:
        return None
    moved = quick_tokens(get("moved"))
    # R42: no more moved than held.
    if (
        moved is None
        or moved["money"] > stash["money"]
        or moved["people"] > stash["people"]
        or moved["authority"] > stash["authority"]
    ):
        return None
    return Department(
        slug,
        name,
        effect,
        obstruct,
        impress,
        consumes,  # type: ignore[arg-type]  # not False: checked above
        produces,  # type: ignore[arg-type]
        dict(functions),
        list(alignments),
        stash,
        structure,
        bool(get("home", False)),
        defence,
        moved,
        capacity,
    )
