"""RULES R61 (goals), R62 (deals) and R70-R71 (perception, envelopes) on hand-made states:
input errors and the corners the golden files do not show. ENGINE.md parts 7-8."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from campaigns.engine import EngineError, resolve, roll_faces, spawn_consume

Json = dict[str, Any]
SEED = "5eed" * 16


def dept(slug: str, owner: str | None, **fields: Any) -> Json:
    card: Json = {"slug": slug, "structure": owner, "home": owner is not None, "stash": {}}
    return {**card, **fields}


def state(*departments: Json, **extra: Any) -> Json:
    return {"turn": 4, "seed": SEED, "departments": list(departments), "orders": [], **extra}


MINT = dept("mint", "alice", impress=2, produces={"type": "money", "amount": 1},
            alignments=["Government"], stash={"money": 3}, capacity=5)  # fmt: skip
DOCKS = dept("docks", "bob", board="harbour", alignments=["Criminal"], capacity=4)


@pytest.mark.parametrize(
    ("goal", "message"),
    [
        ({"id": "g1", "player": "alice", "kind": "control"}, "n must be"),
        ({"id": "g1", "player": "alice", "kind": "control", "n": -1}, "n must be"),
        ({"id": "g1", "player": "alice", "kind": "rule", "n": 1}, "unknown goal kind"),
        ({"id": "g1", "kind": "control", "n": 1}, "player"),
        ({"player": "alice", "kind": "control", "n": 1}, "id"),
        ({"id": "g1", "player": "alice", "kind": "control_aligned", "n": 1}, "alignment"),
        ({"id": "g1", "player": "alice", "kind": "control_aligned", "n": 1, "alignment": "Pink"},
         "unknown alignment"),
        ({"id": "g1", "player": "alice", "kind": "hold", "n": 1, "type": "gold"}, "type"),
        ({"id": "g1", "player": "alice", "kind": "stat_total", "n": 1}, "stat"),
        ({"id": "g1", "player": "alice", "kind": "attempts_won", "n": 1, "count": -2}, "count"),
    ],
)  # fmt: skip
def test_r61_a_malformed_goal_is_an_input_error(goal: Json, message: str) -> None:
    """ENGINE.md: a goal without `n` is an input error (and so is any other malformed goal)."""
    for command in (resolve, spawn_consume):
        with pytest.raises(EngineError, match=message):
            command(state(MINT, goals=[goal]))


def test_r61_goals_with_one_id_twice_are_an_input_error() -> None:
    goal = {"id": "g1", "player": "alice", "kind": "control", "n": 1}
    with pytest.raises(EngineError, match="duplicate id 'g1'"):
        spawn_consume(state(MINT, goals=[goal, goal]))


def test_r61_goals_count_the_players_departments_on_every_board_of_the_state() -> None:
    """R61 across boards: bob's docks (harbour) and tower (city) both count."""
    tower = dept("tower", "bob", board="city", impress=3, alignments=["criminal"])
    goals = [
        {"id": "g1", "player": "bob", "kind": "control", "n": 2},
        {"id": "g2", "player": "bob", "kind": "control_aligned", "alignment": "Criminal", "n": 3},
        {"id": "g3", "player": "carol", "kind": "control", "n": 0},
    ]
    result = spawn_consume(state(DOCKS, tower, MINT, goals=goals))
    assert result["report"]["goals"] == {
        "g1": {"value": 2, "met": True},
        "g2": {"value": 2, "met": False},
        "g3": {"value": 0, "met": True},
    }
    assert result["goals"] == goals


def test_r61_resolve_reports_no_goals_and_counts_only_attempts_won() -> None:
    """resolve raises attempts_won counts (none won here, so 0 is written) and leaves the
    others as they came; report.goals is spawn-consume's."""
    goals = [
        {"id": "g1", "player": "alice", "kind": "attempts_won", "n": 1},
        {"id": "g2", "player": "alice", "kind": "hold", "type": "money", "n": 1},
    ]
    result = resolve(state(MINT, goals=goals))
    assert result["goals"] == [goals[0] | {"count": 0}, goals[1]]
    assert set(result["report"]) == {"orders", "attempt_order"}


@pytest.mark.parametrize(
    ("envelope", "message"),
    [
        ({"id": "e1", "department": "mint", "target": 3, "audience": "bob"}, "audience"),
        ({"id": "e1", "department": "mint", "target": -3}, "target"),
        ({"id": "e1", "target": 3}, "department"),
        ({"department": "mint", "target": 3}, "id"),
    ],
)
def test_r71_a_malformed_envelope_is_an_input_error(envelope: Json, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        resolve(state(MINT, envelopes=[envelope]))


def test_r70_a_perception_check_rolls_3d6_by_r23_and_changes_nothing_else() -> None:
    """R70/R23: key "<turn>:<id>:perception", six-sided dice; the total adds Perception."""
    check = {"id": "look", "player": "bob", "kind": "perceive", "department": "mint"}
    sheet = {"bob": {"perception": 2}}
    before = state(MINT, DOCKS, orders=[check], players=sheet, envelopes=[])
    result = resolve(copy.deepcopy(before))
    entry = result["report"]["orders"]["look"]
    faces = roll_faces(SEED, "4:look:perception", 3, sides=6)
    assert entry["rolls"] == [
        {"key": "4:look:perception", "dice": 3, "skill": 2, "tn": None, "faces": faces,
         "successes": None}
    ]  # fmt: skip
    assert entry["total"] == sum(faces) + 2 and entry["envelopes"] == []
    assert result["departments"] == resolve({**before, "orders": []})["departments"]


def test_r70_an_envelope_is_opened_by_a_total_that_meets_its_target_exactly() -> None:
    check = {"id": "look", "player": "bob", "kind": "perceive", "department": "mint"}
    total = sum(roll_faces(SEED, "4:look:perception", 3, sides=6))
    envelopes = [
        {"id": "at", "department": "mint", "target": total, "audience": None},
        {"id": "over", "department": "mint", "target": total + 1, "audience": None},
    ]
    result = resolve(state(MINT, orders=[check], envelopes=envelopes))
    assert result["report"]["orders"]["look"]["envelopes"] == ["at"]
    assert result["envelopes"] == envelopes  # as they went in: the engine opens, never edits


def test_r62_gifted_tokens_count_as_moved_and_cannot_travel_on_the_same_turn() -> None:
    """R62/R42: bob's move of the tokens alice gave him is rejected; a move of his own
    unmoved tokens is not."""
    vault = dept("vault", "bob", produces={"type": "money", "amount": 1}, capacity=9,
                 stash={"people": 1})  # fmt: skip
    cellar = dept("cellar", "bob", consumes={"type": "money", "amount": 1}, capacity=9)
    orders = [
        {"id": "g1", "player": "alice", "kind": "gift", "from": "mint", "to": "vault",
         "tokens": {"money": 2}, "seq": 0},
        {"id": "m1", "player": "bob", "kind": "move", "from": "vault", "path": ["cellar"],
         "tokens": {"money": 1}, "seq": 1},
        {"id": "m2", "player": "bob", "kind": "move", "from": "vault", "path": ["cellar"],
         "tokens": {"people": 1}, "seq": 2},
    ]  # fmt: skip
    result = resolve(state(MINT, vault, cellar, links=[{"from": "vault", "to": "cellar"}],
                           orders=orders))  # fmt: skip
    statuses = {k: v["status"] for k, v in result["report"]["orders"].items()}
    assert statuses == {"g1": "succeeded", "m1": "rejected", "m2": "succeeded"}
    vault_after = result["departments"][1]
    assert vault_after["stash"] == {"money": 2, "people": 0, "authority": 0}
    assert vault_after["moved"] == {"money": 2, "people": 0, "authority": 0}


def test_r62_a_home_department_handed_over_joins_as_a_non_home_one() -> None:
    """R62: it joins the receiver's structure as a non-home department, so without a link
    there it leaves at the end of the link phase (R13) and is uncontrolled, stash kept."""
    orders = [
        {"id": "h", "player": "alice", "kind": "handover", "department": "mint", "to": "bob"},
        {"id": "a", "player": "bob", "kind": "accept", "department": "mint", "from": "alice"},
    ]
    result = resolve(state(MINT, DOCKS, orders=orders))
    mint = result["departments"][0]
    assert (mint["structure"], mint["home"], mint["stash"]["money"]) == (None, False, 3)
    assert result["report"]["orders"]["a"]["status"] == "succeeded"
