"""`manage.py engine` with ENGINE.md parts 7-8: the section's own example (players, envelopes,
goals) through both commands and every new order kind; bad input there exits 2 with one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tests.support.engine_cli import engine, run  # noqa: E402

# ENGINE.md "Parts 7 and 8", word for word (one line broken in two).
EXAMPLE: dict[str, Any] = json.loads("""{
  "players": {"alice": {"perception": 2, "shticks": [
      {"kind": "production", "department": "mint", "amount": 1},
      {"kind": "dice", "roll": "attack", "department": null, "amount": 1},
      {"kind": "skill", "roll": "function", "department": "treasury", "amount": 2},
      {"kind": "attempts", "amount": 1},
      {"kind": "link_limit", "department": "mint", "out": 3, "in": 2},
      {"kind": "cross_board", "boards": ["city", "harbour"]},
      {"kind": "perception", "amount": 1},
      {"kind": "text", "text": "Knows everyone at the yacht club."}]}},
  "envelopes": [{"id": "e1", "department": "mint", "target": 12, "audience": null,
                 "grants": "known"}],
  "goals": [{"id": "g1", "player": "alice", "kind": "control", "n": 8},
            {"id": "g2", "player": "bob", "kind": "attempts_won", "n": 3, "count": 1}]
}""")
SEED = "ab" * 32
BOARD: dict[str, Any] = {
    "turn": 3,
    "seed": SEED,
    "departments": [
        {"slug": "mint", "board": "city", "produces": {"type": "money", "amount": 3},
         "stash": {"money": 2}, "structure": "alice", "home": True, "capacity": 6},
        {"slug": "treasury", "board": "city", "effect": 1,
         "consumes": {"type": "money", "amount": 1}, "structure": "alice", "home": True,
         "capacity": 3},
        {"slug": "docks", "board": "harbour", "consumes": {"type": "money", "amount": 1},
         "structure": "bob", "home": True, "capacity": 4},
        {"slug": "pier", "board": "harbour", "structure": "bob", "home": True},
    ],
    "links": [{"from": "mint", "to": "treasury"}],
}  # fmt: skip
ORDERS = [
    {"id": "p1", "player": "alice", "kind": "perceive", "department": "mint"},
    {"id": "g1", "player": "alice", "kind": "gift", "from": "mint", "to": "docks",
     "tokens": {"money": 1}},
    {"id": "h1", "player": "bob", "kind": "handover", "department": "pier", "to": "alice"},
    {"id": "a1", "player": "alice", "kind": "accept", "department": "pier", "from": "bob"},
    {"id": "f1", "player": "alice", "kind": "function", "department": "treasury",
     "function": "audit", "stat": "effect"},
]  # fmt: skip


def test_the_sections_example_resolves_every_new_order_kind() -> None:
    output = run("resolve", {**BOARD, **EXAMPLE, "orders": ORDERS})
    orders = output["report"]["orders"]
    assert {k: v["status"] for k, v in orders.items()} == {
        "p1": "succeeded", "g1": "succeeded", "h1": "succeeded", "a1": "succeeded",
        "f1": "succeeded",
    }  # fmt: skip
    faces = orders["p1"]["rolls"][0]["faces"]
    assert orders["p1"]["total"] == sum(faces) + 2 + 1  # Perception 2, perception shtick +1
    assert orders["p1"]["envelopes"] == (["e1"] if orders["p1"]["total"] >= 12 else [])
    assert orders["f1"]["rolls"][0]["skill"] == 2  # outside its functions: 0 + skill shtick
    assert output["players"] == EXAMPLE["players"]
    assert output["envelopes"] == EXAMPLE["envelopes"]
    assert output["goals"] == EXAMPLE["goals"]  # no attempt won: counts stay


def test_the_sections_example_spawns_with_production_and_reports_goals() -> None:
    output = run("spawn-consume", {**BOARD, **EXAMPLE, "orders": []})
    report = output["report"]
    assert report["departments"]["mint"]["produced"] == 3 + 1
    assert report["goals"] == {"g1": {"value": 2, "met": False}, "g2": {"value": 1, "met": False}}
    assert [d.get("board") for d in output["departments"]] == ["city", "city", "harbour", "harbour"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": {"alice": {"shticks": [{"kind": "levitation"}]}}}, "unknown shtick kind"),
        ({"goals": [{"id": "g1", "player": "alice", "kind": "control"}]}, "goal g1: n must be"),
        ({"envelopes": [{"id": "e1", "department": "mint", "target": "high"}]}, "target"),
        ({"players": {"alice": {"shticks": [{"kind": "dice", "roll": "lunch", "amount": 1}]}}},
         "roll must be"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("command", ["resolve", "spawn-consume"])
def test_bad_parts_exit_2_with_one_line(change: dict[str, Any], message: str, command: str) -> None:
    result = engine(command, "-", stdin=json.dumps({**BOARD, **EXAMPLE, **change, "orders": []}))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr
