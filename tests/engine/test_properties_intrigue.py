"""Property tests (hypothesis) for ENGINE.md parts 7-8 (RULES R60-R62, R70-R71), on random
boards (strategies.py) with players, shticks, envelopes, goals, several boards and orders of
every kind (strategies_intrigue.py):

- a `text` shtick changes nothing (R60);
- `production +n` raises the produced amount by exactly n (R60, R32);
- a state with the optional keys present but empty resolves and spawns exactly as without
  them (and test_unchanged.py compares states without them to main's engine byte for byte);
- a hand-over without its accept changes nothing (R62);
- with every part present, both commands are pure, statuses are valid, tokens are conserved
  (gifts move them, perception checks spend none), every department keeps moved <= stash, and
  R13 holds after the turn.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import boards, boards_with_orders, contested_boards  # noqa: E402
from strategies_intrigue import ROLL_FREE, intrigue_boards  # noqa: E402

from campaigns.engine import resolve, spawn_consume  # noqa: E402
from tests.support.engine_checks import (  # noqa: E402
    check_pure,
    check_resolve_ends_with_r13_holding,
    check_resolve_reports_and_moved,
    check_resolve_then_spawn,
    spent_by_report,
)

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
OPTIONAL = ("players", "envelopes", "goals")


def without(result: Json, *keys: str) -> Json:
    return {k: v for k, v in result.items() if k not in keys}


@SETTINGS
@given(st.one_of(boards_with_orders(), contested_boards()), st.data())
def test_r60_a_text_shtick_changes_nothing(state: Json, data: st.DataObject) -> None:
    texts = data.draw(st.lists(st.text(max_size=30), min_size=1, max_size=3))
    owners = sorted({d["structure"] for d in state["departments"] if d["structure"]}) or ["x"]
    told = copy.deepcopy(state)
    told["players"] = {
        player: {"shticks": [{"kind": "text", "text": t} for t in texts]} for player in owners
    }
    for command in (resolve, spawn_consume):
        result = command(told)
        assert result["players"] == told["players"]
        assert without(result, "players") == command(state)


@SETTINGS
@given(boards(), st.data())
def test_r60_production_plus_n_raises_the_produced_amount_by_exactly_n(
    state: Json, data: st.DataObject
) -> None:
    producers = [d for d in state["departments"] if d["produces"] and d["structure"]]
    assume(producers)
    dept = data.draw(st.sampled_from(producers))
    n = data.draw(st.integers(1, 5))
    boosted = copy.deepcopy(state)
    boosted["players"] = {
        dept["structure"]: {
            "shticks": [{"kind": "production", "department": dept["slug"], "amount": n}]
        }
    }
    before = spawn_consume(state)["report"]["departments"]
    after = spawn_consume(boosted)["report"]["departments"]
    for slug, entry in after.items():
        raised = n if slug == dept["slug"] else 0
        assert entry["produced"] == before[slug]["produced"] + raised, slug
    entry = after[dept["slug"]]
    assert entry["capacity"] == entry["produced"] * entry["chain_length"]


@SETTINGS
@given(st.one_of(boards_with_orders(), contested_boards()))
def test_empty_optional_parts_change_nothing(state: Json) -> None:
    """ENGINE.md: all optional; present but empty, they only come back as they went in."""
    dressed = copy.deepcopy(state) | {"players": {}, "envelopes": [], "goals": []}
    for command in (resolve, spawn_consume):
        result = command(dressed)
        assert {k: result[k] for k in OPTIONAL} == {k: dressed[k] for k in OPTIONAL}
        if command is spawn_consume:
            assert result["report"].pop("goals") == {}
        assert without(result, *OPTIONAL) == command(state)


@SETTINGS
@given(st.one_of(boards_with_orders(), contested_boards()), st.data())
def test_r62_a_handover_without_its_accept_changes_nothing(
    state: Json, data: st.DataObject
) -> None:
    owned = [d for d in state["departments"] if d["structure"]]
    assume(owned)
    dept = data.draw(st.sampled_from(owned))
    receiver = data.draw(st.sampled_from(["alice", "bob", "carol", "mallory"]))
    assume(receiver != dept["structure"])
    offered = copy.deepcopy(state)
    handover = {"id": "gift-of-state", "player": dept["structure"], "kind": "handover"}
    handover |= {"department": dept["slug"], "to": receiver, "seq": data.draw(st.integers(0, 9))}
    offered["orders"].append(handover)  # last: the others keep their default seq
    plain = resolve(state)
    result = resolve(offered)
    entry = result["report"]["orders"].pop("gift-of-state")
    assert entry["status"] == "failed" and entry["rolls"] == []
    assert without(result, "orders") == without(plain, "orders")


def conserved(state: Json, result: Json) -> None:
    """Tokens: what left the game is what the report shows spent (R21, R43, R45, R47); gifts
    and hand-overs move tokens, perception checks spend none."""
    plain_kinds = {o["id"] for o in state["orders"] if o["kind"] != "perceive"}
    shown = copy.deepcopy(result)
    shown["report"]["orders"] = {
        k: v for k, v in shown["report"]["orders"].items() if k in plain_kinds
    }
    before = sum(sum(d["stash"].values()) for d in state["departments"])
    after = sum(sum(d["stash"].values()) for d in result["departments"])
    assert before - after == spent_by_report(state, shown)


@SETTINGS
@given(intrigue_boards(shtick_kinds=ROLL_FREE))
def test_resolve_with_every_part_keeps_the_books(state: Json) -> None:
    result = check_pure(resolve, state)
    conserved(state, result)
    check_resolve_reports_and_moved_within(state, result)
    check_resolve_ends_with_r13_holding(state, result)
    for order in state["orders"]:
        entry = result["report"]["orders"][order["id"]]
        if order["kind"] == "perceive" and entry["status"] == "succeeded":
            (roll,) = entry["rolls"]
            assert entry["total"] == sum(roll["faces"]) + roll["skill"]
            assert roll["tn"] is None and roll["successes"] is None
        if order["kind"] in ("handover", "accept", "gift") and entry["status"] != "succeeded":
            assert entry["reason"]
    counts = {g["id"]: g.get("count", 0) for g in state["goals"] if g["kind"] == "attempts_won"}
    for goal in result["goals"]:
        if goal["kind"] == "attempts_won":
            won = [
                oid
                for oid in result["report"]["attempt_order"]
                if result["report"]["orders"][oid]["status"] == "succeeded"
                and next(o for o in state["orders"] if o["id"] == oid)["player"] == goal["player"]
            ]
            assert goal["count"] == counts[goal["id"]] + len(won)


def check_resolve_reports_and_moved_within(state: Json, result: Json) -> None:
    """test_properties' checks of statuses and moved tokens, without its capacity check of
    moved tokens against a capacity that production shticks may raise."""
    plain = copy.deepcopy(state)
    for dept in plain["departments"]:
        dept["capacity"] = dept.get("capacity", 99)
    check_resolve_reports_and_moved(plain, result)


@SETTINGS
@given(intrigue_boards())
def test_both_commands_take_any_mix_of_parts(state: Json) -> None:
    """Every shtick kind, envelopes, goals, two boards: pure and deterministic; spawn-consume
    reports every goal, its value counted on the state it returns."""
    resolved = check_pure(resolve, state)
    assert set(resolved["report"]["orders"]) == {o["id"] for o in state["orders"]}
    opened = check_pure(spawn_consume, {k: v for k, v in resolved.items() if k != "report"})
    assert set(opened["report"]["goals"]) == {g["id"] for g in state["goals"]}
    for goal in opened["goals"]:
        mine = [d for d in opened["departments"] if d["structure"] == goal["player"]]
        value = opened["report"]["goals"][goal["id"]]["value"]
        if goal["kind"] == "control":
            assert value == len(mine)
        elif goal["kind"] == "hold":
            assert value == sum(d["stash"][goal["type"]] for d in mine)
        assert opened["report"]["goals"][goal["id"]]["met"] == (value >= goal["n"])


@SETTINGS
@given(intrigue_boards())
def test_resolve_then_spawn_is_spawn_consume_after_resolve_with_every_part(state: Json) -> None:
    """The turn job's one call gives spawn_consume(resolve(state)) with both reports merged,
    goal progress (report.goals, R61) included."""
    check_resolve_then_spawn(state)
