"""Small hand-made boards for the engine's per-rule tests (RULES.md, ENGINE.md).

Builders return plain JSON-shaped dicts exactly as ENGINE.md shows them. Readers pull
values back out of an engine result. The dice helpers are an independent copy of
RULES R23 (standard library only) so that tests can predict every die without asking
the engine.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Any

TYPES = ("money", "people", "authority")
SEED = "5eed" * 16  # 64 lowercase hex digits (R23)
TURN = 3

Resource = tuple[str, int] | Mapping[str, Any] | None
Json = dict[str, Any]


def tokens(counts: Mapping[str, int] | None = None) -> dict[str, int]:
    """A full {money, people, authority} dict; missing types are 0."""
    counts = counts or {}
    return {t: int(counts.get(t, 0)) for t in TYPES}


def _resource(value: Resource) -> Json | None:
    if value is None:
        return None
    if isinstance(value, tuple):
        kind, amount = value
        return {"type": kind, "amount": amount}
    return dict(value)


def dept(
    slug: str,
    *,
    consumes: Resource = None,
    produces: Resource = None,
    stash: Mapping[str, int] | None = None,
    structure: str | None = None,
    home: bool = False,
    effect: int = 0,
    obstruct: int = 0,
    impress: int = 0,
    functions: Mapping[str, int] | None = None,
    alignments: Iterable[str] = (),
    defence: Mapping[str, int] | None = None,
    moved: Mapping[str, int] | None = None,
    capacity: int | None = None,
) -> Json:
    """A full department dict with quiet defaults: no stats, no resources, uncontrolled.

    `consumes` / `produces` take a ("money", 2) tuple, a dict, or None.
    """
    d: Json = {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "effect": effect,
        "obstruct": obstruct,
        "impress": impress,
        "consumes": _resource(consumes),
        "produces": _resource(produces),
        "functions": dict(functions or {}),
        "alignments": list(alignments),
        "stash": tokens(stash),
        "structure": structure,
        "home": home,
        "defence": tokens(defence),
        "moved": tokens(moved),
    }
    if capacity is not None:
        d["capacity"] = capacity
    return d


def link(frm: str, to: str, priority: int | None = None) -> Json:
    out: Json = {"from": frm, "to": to}
    if priority is not None:
        out["priority"] = priority
    return out


def state(
    departments: Iterable[Json],
    links: Iterable[tuple[str, str] | Json] = (),
    orders: Iterable[Json] = (),
    *,
    seed: str = SEED,
    turn: int = TURN,
    settings: Mapping[str, int] | None = None,
    alignments: list[Json] | None = None,
) -> Json:
    """A full state. (from, to) tuples get ranks 0, 1, ... per supplier in the order listed."""
    next_rank: dict[str, int] = {}
    out_links = []
    for item in links:
        if isinstance(item, tuple):
            frm, to = item
            out_links.append(link(frm, to, next_rank.get(frm, 0)))
            next_rank[frm] = next_rank.get(frm, 0) + 1
        else:
            out_links.append(dict(item))
    s: Json = {
        "turn": turn,
        "seed": seed,
        "settings": {
            "max_out_links": 2,
            "max_in_links": 2,
            "attempts_per_turn": 1,
            **(settings or {}),
        },
        "departments": list(departments),
        "links": out_links,
        "orders": list(orders),
    }
    if alignments is not None:
        s["alignments"] = alignments
    return s


# ---- orders (ENGINE.md "Orders") ----------------------------------------------------------


def order(oid: str, player: str, kind: str, seq: int | None = None, **fields: Any) -> Json:
    """An order; a `frm` keyword becomes the "from" field."""
    out: Json = {"id": oid, "player": player, "kind": kind}
    if seq is not None:
        out["seq"] = seq
    if "frm" in fields:
        fields["from"] = fields.pop("frm")
    out.update(fields)
    return out


def add_link(oid: str, player: str, frm: str, to: str, seq: int | None = None) -> Json:
    return order(oid, player, "add_link", seq, frm=frm, to=to)


def break_link(oid: str, player: str, frm: str, to: str, seq: int | None = None) -> Json:
    return order(oid, player, "break_link", seq, frm=frm, to=to)


def priority(
    oid: str, player: str, department: str, consumers: list[str], seq: int | None = None
) -> Json:
    return order(oid, player, "priority", seq, department=department, consumers=consumers)


def move(
    oid: str,
    player: str,
    frm: str,
    path: list[str],
    carried: Mapping[str, int],
    drops: list[Mapping[str, int]] | None = None,
    seq: int | None = None,
) -> Json:
    fields: Json = {"frm": frm, "path": path, "tokens": dict(carried)}
    if drops is not None:
        fields["drops"] = [dict(d) for d in drops]
    return order(oid, player, "move", seq, **fields)


def reinforce(
    oid: str,
    player: str,
    answers: str,
    frm: str,
    path: list[str],
    carried: Mapping[str, int],
    drops: list[Mapping[str, int]] | None = None,
    seq: int | None = None,
) -> Json:
    out = move(oid, player, frm, path, carried, drops, seq)
    out["kind"] = "reinforce"
    out["answers"] = answers
    return out


def attempt(
    oid: str,
    player: str,
    attacker: str,
    target: str,
    cost: Mapping[str, int] | None = None,
    spend: Mapping[str, int] | None = None,
    seq: int | None = None,
) -> Json:
    fields: Json = {"attacker": attacker, "target": target}
    if cost is not None:
        fields["cost"] = dict(cost)
    if spend is not None:
        fields["spend"] = dict(spend)
    return order(oid, player, "attempt", seq, **fields)


def function_roll(
    oid: str,
    player: str,
    department: str,
    function: str,
    stat: str,
    spend: Mapping[str, int] | None = None,
    seq: int | None = None,
) -> Json:
    fields: Json = {"department": department, "function": function, "stat": stat, "intent": "test"}
    if spend is not None:
        fields["spend"] = dict(spend)
    return order(oid, player, "function", seq, **fields)


# ---- reading results -----------------------------------------------------------------------


def depts(result: Json) -> dict[str, Json]:
    return {d["slug"]: d for d in result["departments"]}


def stash_of(result: Json, slug: str) -> dict[str, int]:
    return tokens(depts(result)[slug].get("stash"))


def moved_of(result: Json, slug: str) -> dict[str, int]:
    return tokens(depts(result)[slug].get("moved"))


def structure_of(result: Json, slug: str) -> str | None:
    value: str | None = depts(result)[slug].get("structure")
    return value


def links_of(result: Json) -> set[tuple[str, str]]:
    return {(lk["from"], lk["to"]) for lk in result["links"]}


def ranked(result: Json, supplier: str) -> list[str]:
    """The supplier's consumers, first fed first, checking the ranks are exactly 0, 1, ..."""
    mine = sorted(
        (lk for lk in result["links"] if lk["from"] == supplier), key=lambda lk: lk["priority"]
    )
    assert [lk["priority"] for lk in mine] == list(range(len(mine))), mine
    return [lk["to"] for lk in mine]


def report_of(result: Json, oid: str) -> Json:
    value: Json = result["report"]["orders"][oid]
    return value


def status_of(result: Json, oid: str) -> str:
    value: str = report_of(result, oid)["status"]
    return value


def roll_of(result: Json, oid: str, part: str) -> Json:
    """The roll of order `oid` whose key ends with `:part` (attack, defend, function)."""
    rolls = [r for r in report_of(result, oid).get("rolls") or [] if r["key"].endswith(":" + part)]
    assert len(rolls) == 1, report_of(result, oid)
    return rolls[0]


def dept_report(result: Json, slug: str) -> Json:
    value: Json = result["report"]["departments"][slug]
    return value


def consumed_from(result: Json, slug: str) -> list[tuple[str, str, int]]:
    """report.departments[slug].consumed as (from, type, amount), zero entries dropped."""
    return [
        (c["from"], c["type"], c["amount"])
        for c in dept_report(result, slug)["consumed"]
        if c["amount"]
    ]


# ---- an independent copy of RULES R23, R20 and the R43 attempt order -------------------------


def faces(seed_hex: str, key: str, dice: int, sides: int = 10) -> list[int]:
    """R23: face i = int(HMAC-SHA256(seed, "<key>:<i>")[:8]) % sides + 1."""
    out = []
    for i in range(dice):
        h = hmac.new(bytes.fromhex(seed_hex), f"{key}:{i}".encode(), hashlib.sha256).digest()
        out.append(int.from_bytes(h[:8], "big") % sides + 1)
    return out


def successes(rolled: list[int], skill: int, tn: int) -> int:
    """R20: each die with face + skill >= TN is a success."""
    return sum(1 for f in rolled if f + skill >= tn)


def attempt_sequence(seed_hex: str, turn: int, ids: Iterable[str]) -> list[str]:
    """R43: attempts sorted by hex digest of HMAC-SHA256(seed, "<turn>:order:<id>")."""

    def digest(oid: str) -> str:
        return hmac.new(
            bytes.fromhex(seed_hex), f"{turn}:order:{oid}".encode(), hashlib.sha256
        ).hexdigest()

    return sorted(ids, key=digest)


def key(oid: str, part: str, turn: int = TURN) -> str:
    """A roll key of R23: "<turn>:<order id>:<part>"."""
    return f"{turn}:{oid}:{part}"


def assert_board_unchanged(before: Json, after: Json) -> None:
    """R40: every department's stash, structure and home flag, and every link and rank
    are as before."""
    assert links_of(after) == links_of(before)
    for supplier in {lk["from"] for lk in before["links"]}:
        old = sorted(
            (lk for lk in before["links"] if lk["from"] == supplier), key=lambda lk: lk["priority"]
        )
        assert ranked(after, supplier) == [lk["to"] for lk in old]
    old_depts = depts(before)
    new_depts = depts(after)
    assert set(new_depts) == set(old_depts)
    for slug, d in old_depts.items():
        assert tokens(new_depts[slug]["stash"]) == tokens(d["stash"]), slug
        assert new_depts[slug].get("structure") == d.get("structure"), slug
        assert bool(new_depts[slug].get("home")) == bool(d.get("home")), slug
