"""`manage.py engine` with ENGINE.md part 9: the section's own example (an office and its
election) through both commands, every election order kind, and an election for an unknown
office refused with exit 2 and one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tests.support.engine_cli import engine, run  # noqa: E402

# ENGINE.md "Part 9", word for word.
EXAMPLE: dict[str, Any] = json.loads("""{
  "offices": [{"id": "mayor", "name": "Mayor of Tourmaline", "alignment": "Government",
               "shticks": [{"kind": "dice", "roll": "attack", "department": null, "amount": 1}],
               "holder": "mint", "deputy": null}],
  "election": {"office": "mayor"}
}""")
BOARD: dict[str, Any] = {
    "turn": 3,
    "seed": "ab" * 32,
    "departments": [
        {"slug": "mint", "impress": 4, "structure": "alice", "home": True},
        {"slug": "watch", "impress": 1, "structure": "alice", "home": True},
        {"slug": "orphanage", "impress": 3, "structure": None},
        {"slug": "guild", "impress": 2, "functions": {"media": 1}, "structure": "bob",
         "home": True},
    ],
}  # fmt: skip
ORDERS = [
    {"id": "n1", "player": "bob", "kind": "nominate", "candidate": "mint",
     "running_mate": "guild"},
    {"id": "r1", "player": "alice", "kind": "running_mate", "candidate": "mint",
     "running_mate": "watch"},
    {"id": "s1", "player": "alice", "kind": "support", "department": "mint", "ticket": "mint"},
    {"id": "s2", "player": "bob", "kind": "support", "department": "guild", "ticket": "mint",
     "double": True},
    {"id": "v1", "player": "carol", "kind": "vote", "ticket": "mint"},
]  # fmt: skip


def test_the_sections_example_elects_with_every_order_kind() -> None:
    """mint's ticket (running mate watch after r1): mint 4 + guild doubled 2 x 2 + orphanage
    3 (uncontrolled, the only ticket) = 11; decided by support."""
    output = run("resolve", {**BOARD, **EXAMPLE, "orders": ORDERS})
    statuses = {k: v["status"] for k, v in output["report"]["orders"].items()}
    assert set(statuses.values()) == {"succeeded"}
    assert output["report"]["election"] == {
        "office": "mayor",
        "winner": "mint",
        "decided_by": "support",
        "tickets": {
            "mint": {"running_mate": "watch", "support": 11,
                     "supporters": ["guild", "mint", "orphanage"]},
        },
    }  # fmt: skip
    assert output["offices"] == [{**EXAMPLE["offices"][0], "deputy": "watch"}]
    assert output["election"] == EXAMPLE["election"]


def test_the_sections_example_goes_through_spawn_consume_unchanged() -> None:
    output = run("spawn-consume", {**BOARD, **EXAMPLE, "orders": []})
    assert output["offices"] == EXAMPLE["offices"]
    assert output["election"] == EXAMPLE["election"]
    assert "election" not in output["report"]


@pytest.mark.parametrize("command", ["resolve", "spawn-consume"])
def test_an_election_for_an_unknown_office_exits_2_with_one_line(command: str) -> None:
    state = {**BOARD, **EXAMPLE, "election": {"office": "governor"}, "orders": []}
    result = engine(command, "-", stdin=json.dumps(state))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "error: election for an unknown office 'governor'\n"
