"""Several boards as one state and back (engine/joined.py, ENGINE.md part 8): joining then
splitting gives each board's state back exactly, and resolving two boards in one state gives
each board exactly what resolving it alone gives, as long as no player acts on both (RULES
R43 counts a player's attempts across the campaign)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import PLAYERS, boards_with_orders, contested_boards  # noqa: E402

from campaigns.engine import resolve_then_spawn  # noqa: E402
from campaigns.engine.joined import (  # noqa: E402
    join,
    order_renamed,
    qualify,
    reason_in,
    split_report,
    split_state,
    unqualify,
)

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BOARD_STATES = st.one_of(boards_with_orders(), contested_boards())


def other_players(state: Json, suffix: str) -> Json:
    """`state` with every player and order id renamed, so it shares nobody with another."""
    out = copy.deepcopy(state)
    rename = {p: f"{p}{suffix}" for p in PLAYERS}
    for dept in out["departments"]:
        dept["structure"] = rename.get(dept["structure"], dept["structure"])
    for order in out["orders"]:
        order["id"] = f"{order['id']}{suffix}"
        if isinstance(order.get("player"), str):
            order["player"] = rename.get(order["player"], order["player"])
        if isinstance(order.get("answers"), str):
            order["answers"] = f"{order['answers']}{suffix}"
    return out


def two_boards(first: Json, second: Json) -> tuple[Json, Json]:
    """Two boards of one campaign: one seed, turn, settings and catalogue; nobody on both.
    Every order carries its `seq`, as the site's do (ENGINE.md's default is the place in
    the list, which joining changes: join fills it in)."""
    first, second = copy.deepcopy(first), other_players(second, "-2")
    for state in (first, second):
        for index, order in enumerate(state["orders"]):
            order.setdefault("seq", index)
    for key in ("seed", "turn", "settings", "alignments"):
        if key in first:
            second[key] = first[key]
        else:
            second.pop(key, None)
    return first, second


def boards_of(state: Json) -> dict[str, str]:
    return {str(o["id"]): "b" for o in state["orders"]}


def test_names_are_qualified_once_and_come_back() -> None:
    assert qualify("city", "mint") == "city/mint"
    assert qualify("city", "harbour/docks") == "harbour/docks"  # another board's: kept
    assert unqualify("city", "city/mint") == "mint"
    assert unqualify("city", "harbour/docks") == "harbour/docks"
    assert qualify("city", None) is None


def test_an_order_is_qualified_field_by_field_by_its_kind() -> None:
    handover = {"id": "1", "kind": "handover", "department": "mint", "to": "p7"}
    accept = {"id": "2", "kind": "accept", "department": "mint", "from": "p3"}
    move = {"id": "3", "kind": "move", "from": "mint", "path": ["vault", "harbour/docks"]}
    q = lambda n: qualify("city", n)  # noqa: E731
    assert order_renamed(handover, q)["to"] == "p7"  # a player, not a department
    assert order_renamed(accept, q) == {**accept, "department": "city/mint"}
    assert order_renamed(move, q)["path"] == ["city/vault", "harbour/docks"]


def test_a_reason_loses_only_its_own_boards_prefix() -> None:
    reason = "city/mint does not produce what harbour/docks consumes (R10); old-city/x"
    assert reason_in(reason, "city") == (
        "mint does not produce what harbour/docks consumes (R10); old-city/x"
    )


@SETTINGS
@given(BOARD_STATES, BOARD_STATES)
def test_join_then_split_is_the_identity(a: Json, b: Json) -> None:
    a, b = two_boards(a, b)
    joined = join([("city", a), ("harbour", b)], {})
    order_boards = {**{o["id"]: "city" for o in a["orders"]},
                    **{o["id"]: "harbour" for o in b["orders"]}}  # fmt: skip
    assert split_state(joined, "city", order_boards) == a
    assert split_state(joined, "harbour", order_boards) == b
    assert {d["board"] for d in joined["departments"]} <= {"city", "harbour"}
    assert all("/" in d["slug"] for d in joined["departments"])


@SETTINGS
@given(BOARD_STATES, BOARD_STATES)
def test_two_boards_in_one_call_resolve_as_each_alone(a: Json, b: Json) -> None:
    a, b = two_boards(a, b)
    order_boards = {**{o["id"]: "city" for o in a["orders"]},
                    **{o["id"]: "harbour" for o in b["orders"]}}  # fmt: skip
    together = resolve_then_spawn(join([("city", a), ("harbour", b)], {}))
    for board, alone_state in (("city", a), ("harbour", b)):
        alone = resolve_then_spawn(alone_state)
        report = alone.pop("report")
        assert split_state(together, board, order_boards) == alone
        assert split_report(together["report"], board, order_boards) == report


def test_a_link_to_another_board_goes_with_its_supplier_and_its_far_end_as_a_stub() -> None:
    joined = {
        "departments": [
            {"slug": "city/mint", "board": "city", "structure": "p1"},
            {"slug": "harbour/docks", "board": "harbour", "structure": None},
        ],
        "links": [{"from": "city/mint", "to": "harbour/docks", "priority": 0}],
    }
    city = split_state(joined, "city")
    harbour = split_state(joined, "harbour")
    assert city["links"] == [{"from": "mint", "to": "harbour/docks", "priority": 0}]
    assert city["departments"] == [
        {"slug": "mint", "structure": "p1"},
        {"slug": "harbour/docks", "board": "harbour", "structure": None},
    ]
    assert harbour == {"departments": [{"slug": "docks", "structure": None}], "links": []}
    # Joined again, the stub gives way to the real department and the link is kept once.
    again = join([("city", {**city, "orders": []}), ("harbour", {**harbour, "orders": []})], {})
    assert again["departments"] == joined["departments"]
    assert again["links"] == joined["links"]


def test_the_parts_7_to_9_go_to_the_boards_they_concern() -> None:
    joined = {
        "departments": [],
        "links": [],
        "players": {"p1": {"perception": 2, "shticks": [
            {"kind": "production", "department": "city/mint", "amount": 1},
            {"kind": "production", "department": "harbour/docks", "amount": 1}]}},
        "goals": [{"id": "g1", "player": "p1", "kind": "control", "n": 3}],
        "envelopes": [{"id": "e1", "department": "harbour/docks", "target": 9, "audience": None}],
        "offices": [{"id": "o1", "board": "city", "name": "Mayor", "alignment": "Government",
                     "shticks": [], "holder": "city/mint", "deputy": None}],
        "election": {"office": "o1"},
    }  # fmt: skip
    city = split_state(joined, "city")
    harbour = split_state(joined, "harbour")
    assert city["players"]["p1"]["shticks"][0]["department"] == "mint"
    assert city["players"]["p1"]["shticks"][1]["department"] == "harbour/docks"
    assert city["goals"] == harbour["goals"] == joined["goals"]
    assert (city["envelopes"], harbour["envelopes"][0]["department"]) == ([], "docks")
    assert city["offices"][0]["holder"] == "mint" and "board" not in city["offices"][0]
    assert city["election"] == {"office": "o1"} and "election" not in harbour
    assert harbour["offices"] == []


def test_the_election_report_goes_to_its_offices_board_in_plain_slugs() -> None:
    report = {
        "orders": {},
        "election": {"office": "o1", "winner": "city/mint", "decided_by": "support",
                     "tickets": {"city/mint": {"running_mate": "city/watch", "support": 4,
                                               "supporters": ["city/mint", "city/watch"]}}},
    }  # fmt: skip
    city = split_report(report, "city", {}, {"o1": "city"})
    assert city["election"]["winner"] == "mint"
    assert city["election"]["tickets"] == {
        "mint": {"running_mate": "watch", "support": 4, "supporters": ["mint", "watch"]}
    }
    assert "election" not in split_report(report, "harbour", {}, {"o1": "city"})
