"""Property tests (hypothesis) for the pure rules engine: RULES.md parts 1-5, ENGINE.md.

Random legal boards and random orders of every kind (strategies.py). Properties:
- spawn-consume: tokens conserved per department and type (after = before + spawned - taken
  by consumers - discarded); no stash over capacity; capacity = produced x L; the whole
  report equals an independent, deliberately naive model of R32-R36;
- resolve: tokens conserved (before = after + what the report shows was spent on attempt
  costs, attack/defence spends and function rolls); moved <= stash; a department that received
  moved tokens is within its move capacity; every order reported with a valid status;
  departments outside every order's reach keep everything but may leave their structure by
  R13; R13 holds at the end (no non-home member without a link inside its structure);
- both: outputs keep R10/R11 legal and ranks 0..k-1; same input gives the same output; the
  input is never mutated.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import TYPES, boards, boards_with_orders, contested_boards  # noqa: E402

from campaigns.engine import resolve, spawn_consume
from tests.support.engine_checks import (
    by_slug,
    check_links_legal,
    check_pure,
    check_resolve_ends_with_r13_holding,
    check_resolve_reports_and_moved,
    check_resolve_then_spawn,
    spent_by_report,
    tok,
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
Json = dict[str, Any]


def ranked_links(state: Json) -> dict[str, list[str]]:
    """ENGINE.md: each supplier's consumers, first fed first: links with a priority by it
    (ties as listed), then those without one, as listed."""
    keyed = []
    for index, link in enumerate(state["links"]):
        p = link.get("priority")
        keyed.append(((0, p, index) if p is not None else (1, 0, index), link))
    out: dict[str, list[str]] = {}
    for _, link in sorted(keyed, key=lambda kv: kv[0]):
        out.setdefault(link["from"], []).append(link["to"])
    return out


# ---- an independent, naive model of R32-R36 -----------------------------------------------------


def reference_spawn_consume(state: Json) -> dict[str, Json]:
    depts = by_slug(state)
    out = ranked_links(state)
    stash = {s: tok(d.get("stash")) for s, d in depts.items()}
    for s, d in depts.items():  # R32
        if d["produces"]:
            stash[s][d["produces"]["type"]] += d["produces"]["amount"]
    incoming: dict[str, list[tuple[int, str]]] = {s: [] for s in depts}
    for supplier, consumers in out.items():
        for rank, consumer in enumerate(consumers):
            incoming[consumer].append((rank, supplier))
    consumers = [s for s, d in depts.items() if d["consumes"]]
    consumers.sort(key=lambda s: (min((r for r, _ in incoming[s]), default=10**9), s))
    status = {s: ("self_sufficient" if not d["consumes"] else "unfunded") for s, d in depts.items()}
    consumed: dict[str, list[Json]] = {s: [] for s in depts}
    for c in consumers:  # R33
        kind, amount = depts[c]["consumes"]["type"], depts[c]["consumes"]["amount"]
        sources = [c] + [s for _, s in sorted(incoming[c])]
        if sum(stash[s][kind] for s in sources) < amount:
            continue
        need = amount
        for s in sources:
            take = min(need, stash[s][kind])
            if take:
                stash[s][kind] -= take
                consumed[c].append({"from": s, "type": kind, "amount": take})
                need -= take
        status[c] = "funded"
    # R35 by brute force: reachability, components as mutual reachability, then the heaviest
    # path over the components by memoised recursion.
    edges = {s: {c for c in out.get(s, []) if status[c] == "funded"} for s in depts}
    reach = {s: {s} for s in depts}
    changed = True
    while changed:
        changed = False
        for s in depts:
            new = set().union(*(reach[c] for c in edges[s])) | reach[s]
            if new != reach[s]:
                reach[s], changed = new, True
    comp = {s: frozenset(t for t in depts if t in reach[s] and s in reach[t]) for s in depts}
    memo: dict[frozenset[str], int] = {}

    def weight(component: frozenset[str]) -> int:
        if component not in memo:
            preds = {comp[p] for p in depts for c in component if c in edges[p]} - {component}
            memo[component] = len(component) + max((weight(p) for p in preds), default=0)
        return memo[component]

    report = {}
    for s, d in depts.items():
        length = weight(comp[s])
        produced = d["produces"]["amount"] if d["produces"] else 0
        capacity = produced * length
        order = ([d["produces"]["type"]] if d["produces"] else []) + [
            t
            for t in TYPES
            if t != (d["produces"] or {}).get("type") and t != (d["consumes"] or {}).get("type")
        ]
        if d["consumes"] and d["consumes"]["type"] not in order:
            order.append(d["consumes"]["type"])
        excess = sum(stash[s].values()) - capacity
        discarded = {t: 0 for t in TYPES}
        for t in order:
            drop = max(0, min(excess, stash[s][t]))
            stash[s][t] -= drop
            discarded[t] = drop
            excess -= drop
        report[s] = {
            "status": status[s],
            "chain_length": length,
            "capacity": capacity,
            "produced": produced,
            "consumed": consumed[s],
            "discarded": discarded,
            "stash": stash[s],
        }
    return report


# ---- shared checks ---------------------------------------------------------------------------


# ---- spawn-consume ------------------------------------------------------------------------------


def check_spawn_consume_matches_naive_model(state: Json, result: Json) -> None:
    expected = reference_spawn_consume(state)
    report = result["report"]["departments"]
    assert set(report) == set(expected)
    for slug, d in by_slug(result).items():
        want = dict(expected[slug])
        stash = want.pop("stash")
        assert report[slug] == want, slug
        assert tok(d["stash"]) == stash, slug
        assert d["capacity"] == want["capacity"]


def check_spawn_consume_conserves_tokens_and_capacity(state: Json, result: Json) -> None:
    before, after = by_slug(state), by_slug(result)
    report = result["report"]["departments"]
    taken: dict[str, dict[str, int]] = {s: tok(None) for s in before}
    for entry in report.values():
        for c in entry["consumed"]:
            taken[c["from"]][c["type"]] += c["amount"]
    for slug, d in before.items():
        spawned = tok(None)
        if d["produces"]:
            spawned[d["produces"]["type"]] = d["produces"]["amount"]
        assert report[slug]["produced"] == sum(spawned.values())
        for t in TYPES:
            assert after[slug]["stash"][t] == (
                tok(d["stash"])[t] + spawned[t] - taken[slug][t] - report[slug]["discarded"][t]
            ), (slug, t)
        # R36: after spawn-consume no stash exceeds capacity; capacity = produced x L.
        assert sum(after[slug]["stash"].values()) <= after[slug]["capacity"]
        assert after[slug]["capacity"] == report[slug]["produced"] * report[slug]["chain_length"]
        assert after[slug]["capacity"] == report[slug]["capacity"]
        # R34: statuses, and all or nothing.
        entry = report[slug]
        if not d["consumes"]:
            assert entry["status"] == "self_sufficient" and entry["consumed"] == []
        elif entry["status"] == "funded":
            assert sum(c["amount"] for c in entry["consumed"]) == d["consumes"]["amount"]
            assert {c["type"] for c in entry["consumed"]} == {d["consumes"]["type"]}
        else:
            assert entry["status"] == "unfunded" and entry["consumed"] == []
            assert entry["chain_length"] == 1
        assert tok(after[slug]["moved"]) == tok(None)
        for key in ("structure", "home", "consumes", "produces", "alignments", "functions"):
            assert after[slug][key] == d.get(key, False if key == "home" else None)
    check_links_legal(result)
    assert {(lk["from"], lk["to"]) for lk in result["links"]} == {
        (lk["from"], lk["to"]) for lk in state["links"]
    }
    for key in ("turn", "seed", "orders"):
        assert result[key] == state[key]


# ---- resolve ----------------------------------------------------------------------------------


def reach_of(state: Json) -> set[str]:
    """Every department an order names, passes through, or is linked to or from one named."""
    named: set[str] = set()
    for order in state["orders"]:
        for key in ("from", "to", "department", "attacker", "target"):
            if isinstance(order.get(key), str):
                named.add(order[key])
        for key in ("path", "consumers"):
            if isinstance(order.get(key), list):
                named.update(x for x in order[key] if isinstance(x, str))
    reach = set(named)
    for link in state["links"]:
        if link["from"] in named or link["to"] in named:
            reach.update((link["from"], link["to"]))
    return reach


def check_resolve_conserves_tokens(state: Json, result: Json) -> None:
    before = sum(sum(tok(d["stash"]).values()) for d in state["departments"])
    after = sum(sum(tok(d["stash"]).values()) for d in result["departments"])
    assert before - after == spent_by_report(state, result)


def check_resolve_outside_reach_unchanged(state: Json, result: Json) -> None:
    reach = reach_of(state)
    before, after = by_slug(state), by_slug(result)

    def links_at(s: Json, slug: str) -> list[tuple[str, str, int]]:
        return sorted(
            (lk["from"], lk["to"], lk["priority"])
            for lk in s["links"]
            if slug in (lk["from"], lk["to"])
        )

    input_ranked = ranked_links(state)
    for slug, old in before.items():
        if slug in reach:
            continue
        new = after[slug]
        assert tok(new["stash"]) == tok(old["stash"]), slug
        assert tok(new["moved"]) == tok(old.get("moved")), slug
        assert tok(new["defence"]) == tok(old.get("defence")), slug
        assert new["home"] == old["home"], slug
        old_links = sorted(
            (s, c, rank)
            for s, cs in input_ranked.items()
            for rank, c in enumerate(cs)
            if slug in (s, c)
        )
        assert links_at(result, slug) == old_links, slug
        if new["structure"] != old["structure"]:
            # Only by R13: a non-home member with no link left inside its structure.
            assert new["structure"] is None and not old["home"], slug
            mates = [lk for lk in result["links"] if slug in (lk["from"], lk["to"])]
            for lk in mates:
                other = lk["to"] if lk["from"] == slug else lk["from"]
                assert after[other]["structure"] != old["structure"], (slug, lk)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards_with_orders(), st.data())
def test_resolve_is_independent_of_unknown_keys_and_listing_of_seq_orders(state, data):
    """ENGINE.md: unknown keys are ignored; orders with explicit distinct seq resolve the same
    whatever order they are listed in."""
    noisy = copy.deepcopy(state)
    noisy["_note"] = "ignored"
    for d in noisy["departments"]:
        d["flaws"] = ["ignored"]
    for i, order in enumerate(noisy["orders"]):
        order["seq"] = i
    plain = copy.deepcopy(noisy)
    for d in plain["departments"]:
        del d["flaws"]
    shuffled = copy.deepcopy(noisy)
    shuffled["orders"] = data.draw(st.permutations(noisy["orders"]))
    expected = resolve(plain)
    assert resolve(noisy) == expected | {"orders": noisy["orders"]}
    assert resolve(shuffled)["departments"] == expected["departments"]
    assert resolve(shuffled)["links"] == expected["links"]
    assert resolve(shuffled)["report"] == expected["report"]


# ---- the property tests: one generated board feeds every check of its command ----------------


@SETTINGS
@given(boards())
def test_spawn_consume_properties(state):
    result = check_pure(spawn_consume, state)
    check_spawn_consume_matches_naive_model(state, result)
    check_spawn_consume_conserves_tokens_and_capacity(state, result)
    check_links_legal(result)


@SETTINGS
@given(st.one_of(boards_with_orders(), contested_boards()))
def test_resolve_properties(state):
    result = check_pure(resolve, state)
    check_resolve_conserves_tokens(state, result)
    check_resolve_reports_and_moved(state, result)
    check_resolve_outside_reach_unchanged(state, result)
    check_resolve_ends_with_r13_holding(state, result)
    check_links_legal(result)


@settings(SETTINGS, max_examples=100)
@given(st.one_of(boards_with_orders(), contested_boards()))
def test_spawn_consume_after_resolve_keeps_every_stash_within_capacity(state):
    """A whole turn job (R31): resolve, then spawn-consume the result: no stash over capacity,
    links still legal, moved reset."""
    result = spawn_consume({k: v for k, v in resolve(state).items() if k != "report"})
    assert result["departments"]  # boards have 3 to 8 (strategies.boards)
    for d in result["departments"]:
        assert sum(d["stash"].values()) <= d["capacity"], d
        assert tok(d["moved"]) == tok(None)
    check_links_legal(result)


@settings(SETTINGS, max_examples=100)
@given(boards_with_orders(max_orders=8, kinds=("move",)))
def test_moves_only_carry_unmoved_tokens_within_capacity(state):
    """R42 with moves only (nothing is spent): per department and type, what arrived is exactly
    the rise of its moved count, what left came from its unmoved tokens and only from a
    department some move starts at, nothing is created or lost, and every department that
    received tokens is within its capacity (R36)."""
    result = check_pure(resolve, state)
    before, after = by_slug(state), by_slug(result)
    starts = {o["from"] for o in state["orders"]}
    for t in TYPES:
        arrived = left = 0
        for slug, old in before.items():
            new = after[slug]
            received = new["moved"][t] - tok(old.get("moved"))[t]
            picked = tok(old["stash"])[t] + received - new["stash"][t]
            assert received >= 0 and picked >= 0, (slug, t)
            assert picked <= tok(old["stash"])[t] - tok(old.get("moved"))[t], (slug, t)
            assert picked == 0 or slug in starts, (slug, t)
            arrived += received
            left += picked
        assert arrived == left, t
    for slug, old in before.items():
        new = after[slug]
        if tok(new["moved"]) != tok(old.get("moved")):
            cap = old.get("capacity")
            if cap is None:
                cap = old["produces"]["amount"] if old["produces"] else 0
            assert sum(new["stash"].values()) <= cap, slug
    succeeded = [
        o for o in state["orders"] if result["report"]["orders"][o["id"]]["status"] == "succeeded"
    ]
    moved_total = sum(sum(tok(d["moved"]).values()) for d in result["departments"]) - sum(
        sum(tok(d.get("moved")).values()) for d in state["departments"]
    )
    assert moved_total == sum(sum(tok(o["tokens"]).values()) for o in succeeded)


@settings(SETTINGS, max_examples=150)
@given(st.one_of(boards_with_orders(), contested_boards()))
def test_resolve_then_spawn_is_spawn_consume_after_resolve(state):
    """R31 steps 2-3 in one pass (the turn job's call) give exactly the two calls' result:
    the state of spawn_consume(resolve(state)) and both reports merged."""
    check_resolve_then_spawn(state)
