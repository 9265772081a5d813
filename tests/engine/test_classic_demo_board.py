"""The classic demo board (campaigns/demo/classic.json, RULES part 10) is a board the engine
accepts and that can be played: three players, thirty groups, one goal each, and on every
turn of a short game each player has attacks to choose from and the engine resolves them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from campaigns.engine import resolve_then_spawn, spawn_consume
from campaigns.engine.classic.legal import legal_choices

BOARD = Path(__file__).resolve().parents[2] / "campaigns" / "demo" / "classic.json"
SEED = "5e" * 32


def opening() -> dict[str, Any]:
    state = json.loads(BOARD.read_text())
    state.pop("_about")
    state.update(turn=1, seed=SEED, orders=[])
    return state


def test_the_demo_board_has_three_players_thirty_groups_and_a_goal_each() -> None:
    state = opening()
    groups = state["groups"]
    assert [p["id"] for p in state["players"]] == ["alice", "bob", "carol"]
    assert all(p["goal"] for p in state["players"])
    assert len(groups) == 30
    assert sum(1 for g in groups if g.get("illuminati")) == 3
    assert {g["place"] for g in groups} == {"structure", "table", "deck"}


def test_the_opening_pays_income_and_draws_one_group_per_player() -> None:
    result = spawn_consume(opening())
    report = result["report"]
    assert len(report["drawn"]) == 3
    assert report["income"]["grey-chancery"] == 9
    drawn = {g["slug"]: g["place"] for g in result["groups"] if g["slug"] in report["drawn"]}
    assert set(drawn.values()) == {"table"}


def first_attack(state: dict[str, Any], player: str, number: int) -> dict[str, Any] | None:
    """The player's first offered attack, spending nothing, as an order."""
    choices = legal_choices(state, player).choices("attack")
    if not choices:
        return None
    choice = choices[0]
    return {"id": f"{player}-{number}", "player": player, "kind": "attack",
            "group": choice.group, "target": choice.target, "aim": choice.aim}  # fmt: skip


def test_four_turns_of_first_attacks_resolve_and_change_the_board() -> None:
    state = spawn_consume(opening())
    state.pop("report")
    resolved = 0
    for turn in range(1, 5):
        orders = [first_attack(state, p, turn) for p in ("alice", "bob", "carol")]
        offered = [order for order in orders if order]
        assert offered, f"turn {turn}: nobody had an attack to choose"
        state.update(orders=offered, turn=turn)
        result = resolve_then_spawn(state)
        statuses = {o: r["status"] for o, r in result["report"]["orders"].items()}
        # Every order gets an outcome; one offered at the start of the turn may be rejected
        # when an earlier attack in seat order took or destroyed its target.
        assert set(statuses) == {o["id"] for o in offered}
        resolved += sum(1 for s in statuses.values() if s in ("succeeded", "failed"))
        state = {k: v for k, v in result.items() if k != "report"}
    assert resolved >= 8
