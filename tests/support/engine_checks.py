"""What every resolution of the engine must hold, whatever the board: the checks the property
tests (tests/engine/test_properties*.py) run on the boards Hypothesis draws."""

from __future__ import annotations

import copy
from typing import Any

from campaigns.engine import resolve, resolve_then_spawn, spawn_consume
from tests.engine.strategies import TYPES

Json = dict[str, Any]


def check_pure(command, state: Json) -> Json:
    before = copy.deepcopy(state)
    first = command(state)
    assert state == before, "the input was mutated"
    second = command(copy.deepcopy(state))
    assert first == second, "same input, different output"
    return first


def spent_by_report(state: Json, result: Json) -> int:
    """Tokens that leave the game in resolve, as the report shows them (R21, R43, R45, R47)."""
    depts = by_slug(state)
    orders = {o["id"]: o for o in state["orders"]}
    total = 0
    for oid, entry in result["report"]["orders"].items():
        order = orders[oid]
        rolls = {r["key"].rsplit(":", 1)[1]: r for r in entry["rolls"]}
        if order["kind"] == "function" and entry["status"] == "succeeded":
            total += sum(tok(order.get("spend")).values())
            roll = rolls["function"]
            dept = depts[order["department"]]
            spend = tok(order.get("spend"))
            own = STAT_TYPE[order["stat"]]
            assert roll["dice"] == dept[order["stat"]] + spend[own]
            assert roll["tn"] in (7, 9)
        elif order["kind"] == "attempt" and "attack" in rolls:
            target = depts[order["target"]]
            cost = 2 * target["consumes"]["amount"]
            if order.get("cost") is not None:
                assert sum(tok(order["cost"]).values()) == cost
            spend = tok(order.get("spend"))
            attacker = depts[order["attacker"]]
            assert rolls["attack"]["dice"] == attacker["impress"] + spend["authority"]
            defend = rolls["defend"]
            # R47: the defence spends people as dice, money and authority as skill.
            defence_spent = (defend["dice"] - target["obstruct"]) + defend["skill"]
            assert 0 <= defence_spent <= sum(tok(target.get("defence")).values())
            total += cost + sum(spend.values()) + defence_spent
        else:
            assert not entry["rolls"], (oid, entry)
    return total


def check_resolve_reports_and_moved(state: Json, result: Json) -> None:
    orders = result["report"]["orders"]
    assert set(orders) == {o["id"] for o in state["orders"]}
    for entry in orders.values():
        assert entry["status"] in {"succeeded", "failed", "rejected"}, entry
        if entry["status"] != "succeeded":
            assert isinstance(entry.get("reason"), str) and entry["reason"], entry
        if entry["status"] == "rejected":
            assert entry["rolls"] == []
    attempts = {o["id"] for o in state["orders"] if o["kind"] == "attempt"}
    assert set(result["report"]["attempt_order"]) <= attempts
    assert len(set(result["report"]["attempt_order"])) == len(result["report"]["attempt_order"])
    before = by_slug(state)
    for d in result["departments"]:
        moved, stash = tok(d["moved"]), tok(d["stash"])
        assert all(0 <= moved[t] <= stash[t] for t in TYPES), d
        # R42/R36: a department that received moved tokens is within its move capacity.
        old = before[d["slug"]]
        if any(moved[t] > tok(old.get("moved"))[t] for t in TYPES):
            cap = old.get("capacity")
            if cap is None:
                cap = old["produces"]["amount"] if old["produces"] else 0
            assert sum(stash.values()) <= cap, d
    check_links_legal(result)


def check_resolve_ends_with_r13_holding(state: Json, result: Json) -> None:
    """R13: after the link phase and every capture, no non-home member is left without a link
    inside its structure (the generated boards start that way; moves, rolls and failed attempts
    never change membership)."""
    after = by_slug(result)
    for slug, d in after.items():
        if d["structure"] is None or d["home"]:
            continue
        mates = [
            lk["to"] if lk["from"] == slug else lk["from"]
            for lk in result["links"]
            if slug in (lk["from"], lk["to"])
        ]
        assert any(after[m]["structure"] == d["structure"] for m in mates), slug


def check_resolve_then_spawn(state):
    resolved = resolve(state)
    first = resolved.pop("report")
    second = spawn_consume(resolved)
    expected_report = {**first, **second.pop("report")}
    result = check_pure(resolve_then_spawn, state)
    assert result.pop("report") == expected_report
    assert result == second


STAT_TYPE = {"effect": "money", "obstruct": "people", "impress": "authority"}


def tok(value: Json | None) -> dict[str, int]:
    value = value or {}
    return {t: value.get(t, 0) for t in TYPES}


def by_slug(state: Json) -> dict[str, Json]:
    return {d["slug"]: d for d in state["departments"]}


def check_links_legal(state: Json) -> None:
    """R10/R11/R12 in an output: legal links, within the limits, ranks exactly 0..k-1."""
    depts = by_slug(state)
    seen = set()
    out_count: dict[str, int] = {}
    in_count: dict[str, int] = {}
    ranks: dict[str, list[int]] = {}
    for link in state["links"]:
        s, c = link["from"], link["to"]
        assert s != c and (s, c) not in seen, link
        seen.add((s, c))
        sup, con = depts[s], depts[c]
        assert sup["produces"] and con["consumes"], link
        assert sup["produces"]["type"] == con["consumes"]["type"], link
        out_count[s] = out_count.get(s, 0) + 1
        in_count[c] = in_count.get(c, 0) + 1
        ranks.setdefault(s, []).append(link["priority"])
    limits = state["settings"]
    assert all(n <= limits["max_out_links"] for n in out_count.values()), out_count
    assert all(n <= limits["max_in_links"] for n in in_count.values()), in_count
    for s, rs in ranks.items():
        assert rs == list(range(len(rs))), (s, rs)
