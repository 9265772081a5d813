"""Golden files for classic boards (RULES part 10, ENGINE.md part 10): pairs NAME.in.json /
NAME.out.json in tests/engine/golden/classic/, as in test_golden.py. `ex_*` are the rulebook's
worked examples (R95), `k_*` cover each order kind, spawn-consume and victory. Every number was
checked by hand against the "_why" note; golden/regen.py rewrites them (check again by hand).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from campaigns.engine import resolve, roll_faces, spawn_consume

GOLDEN = Path(__file__).resolve().parent / "golden" / "classic"
CASES = sorted(p.name.removesuffix(".in.json") for p in GOLDEN.glob("*.in.json"))
COMMANDS = {"spawn-consume": spawn_consume, "resolve": resolve}
# R95: the rulebook's worked examples and the need each must report for its attack a1.
WORKED = {
    "ex_power_6_vs_resistance_2": 4,
    "ex_assistant_transferable_4": 7,
    "ex_cuban_pilots_vs_insurers": -8,
    "ex_cuban_pilots_spend_18": 10,
    "ex_cuban_pilots_vs_conservative": 4,
    "ex_bavarians_vs_deep_group": 2,
}
KINDS = {"attack", "defend", "interfere", "transfer", "move_group", "give_group", "accept",
         "drop", "gift", "pass"}  # fmt: skip


def load(name: str) -> tuple[dict, str]:
    state = json.loads((GOLDEN / f"{name}.in.json").read_text())
    return state, (GOLDEN / f"{name}.out.json").read_text()


def render(result: dict) -> str:
    return json.dumps(result, sort_keys=True, indent=2) + "\n"


def test_the_classic_golden_set_covers_every_kind_and_example():
    outs = sorted(p.name.removesuffix(".out.json") for p in GOLDEN.glob("*.out.json"))
    assert outs == CASES and set(WORKED) <= set(CASES)
    kinds = {o["kind"] for name in CASES for o in load(name)[0]["orders"]}
    assert kinds == KINDS
    assert {load(name)[0]["command"] for name in CASES} == set(COMMANDS)
    assert all(load(name)[0].get("_why") for name in CASES)


@pytest.mark.parametrize("name", CASES)
def test_classic_golden(name: str):
    state, text = load(name)
    before = copy.deepcopy(state)
    result = COMMANDS[state["command"]](state)
    assert render(result) == text
    assert state == before


@pytest.mark.parametrize("name", sorted(WORKED))
def test_the_worked_examples_report_their_need(name: str):
    """R95: the need of each worked example, as the rulebook gives it."""
    state, _ = load(name)
    assert resolve(state)["report"]["orders"]["a1"]["need"] == WORKED[name]


@pytest.mark.parametrize("name", CASES)
def test_classic_golden_rolls_follow_r23(name: str):
    """R23/R95: every attack rolls 2d6 with key <turn>:<id>:attack, faces by R23, and it
    succeeded exactly when the total is at most the need and at most 10."""
    state, text = load(name)
    for oid, entry in json.loads(text)["report"].get("orders", {}).items():
        for roll in entry["rolls"]:
            assert roll["key"] == f"{state['turn']}:{oid}:attack"
            assert roll["faces"] == roll_faces(state["seed"], roll["key"], 2, 6)
            won = roll["total"] <= min(entry["need"], 10)
            assert entry["status"] == ("succeeded" if won else "failed")
