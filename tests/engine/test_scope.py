"""campaigns/engine/scope.py (RULES R13, R40-R46): one player's orders resolved on their
neighbourhood of the board get exactly the outcomes (status, reason, rolls) and the attempt
order they get on the whole board. The order check (R40) relies on it to judge an order on a
board of 1,000 departments without reading the other 990."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import boards, boards_with_orders, contested_boards  # noqa: E402

from campaigns.engine import resolve  # noqa: E402
from campaigns.engine.scope import (  # noqa: E402
    deciding,
    named_departments,
    neighbourhood,
    reach,
)

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BIG_BOARDS = st.builds(lambda stranded: stranded, st.booleans()).flatmap(
    lambda stranded: boards(min_departments=8, max_departments=24, stranded=stranded)
)


def checked_together(state: Json, player: str) -> list[Json]:
    """What the order check resolves for `player`: their orders, and any attempt one of their
    reinforcements answers (R46)."""
    mine = [o for o in state["orders"] if o.get("player") == player]
    answered = {o.get("answers") for o in mine if o.get("kind") == "reinforce"}
    return mine + [o for o in state["orders"] if o["id"] in answered and o not in mine]


@SETTINGS
@given(
    st.one_of(
        boards_with_orders(min_orders=1, max_orders=12, board=BIG_BOARDS),
        boards_with_orders(min_orders=1, max_orders=12),
        contested_boards(),
    )
)
def test_orders_resolve_on_their_neighbourhood_as_on_the_whole_board(state: Json) -> None:
    """Every example holds at least one order (a board without orders would compare two empty
    reports and check nothing), and every order's outcome is among those compared."""
    players = sorted({o["player"] for o in state["orders"] if isinstance(o.get("player"), str)})
    assert players, "an example without orders checks nothing"
    compared: set[str] = set()
    for player in players:
        orders = checked_together(state, player)
        whole = resolve({**state, "orders": orders})["report"]
        part = resolve(neighbourhood(state, orders))["report"]
        assert part == whole, player
        compared |= {o["id"] for o in orders if o["id"] in whole["orders"]}
    assert compared == {o["id"] for o in state["orders"]}


@settings(SETTINGS, max_examples=100)
@given(st.one_of(boards_with_orders(max_orders=12, board=BIG_BOARDS), contested_boards()))
def test_an_order_resolves_alike_without_the_orders_of_later_phases(state: Json) -> None:
    """What the order check leaves out besides the rest of the board (scope.deciding). Its
    orders all carry their seq (a default seq is the position, which leaving out changes)."""
    state["orders"] = [{"seq": i, **o} for i, o in enumerate(state["orders"])]
    whole = resolve(state)["report"]["orders"]
    for order in state["orders"]:
        kept = deciding(state["orders"], order["kind"])
        assert (
            resolve({**state, "orders": kept})["report"]["orders"][order["id"]]
            == whole[order["id"]]
        )


def test_the_neighbourhood_is_the_named_departments_and_their_links_out_to_reach() -> None:
    """A chain d0 -> d1 -> ... -> d5: a move from d2 reaches one link out (d1, d3); with an
    attempt among the orders, two (d0 to d5). The outermost keep only their links inwards."""
    departments = [{"slug": f"d{i}"} for i in range(6)]
    links = [{"from": f"d{i}", "to": f"d{i + 1}"} for i in range(5)]
    state = {"departments": departments, "links": links}
    move = {"id": "1", "kind": "move", "from": "d2", "path": ["d3"]}
    attempt = {"id": "2", "kind": "attempt", "attacker": "d2", "target": "nowhere"}

    assert named_departments([move, attempt]) == {"d2", "d3", "nowhere"}
    assert (reach([move]), reach([move, attempt])) == (1, 2)
    near = neighbourhood(state, [move])
    assert [d["slug"] for d in near["departments"]] == ["d1", "d2", "d3", "d4"]
    assert [(x["from"], x["to"]) for x in near["links"]] == [
        ("d1", "d2"),
        ("d2", "d3"),
        ("d3", "d4"),
    ]
    wider = neighbourhood(state, [move, attempt])
    assert [d["slug"] for d in wider["departments"]] == ["d0", "d1", "d2", "d3", "d4", "d5"]
    assert len(wider["links"]) == 5


def test_orders_of_parts_7_to_9_or_their_state_keys_are_never_sliced() -> None:
    """Shticks, goals, envelopes, hand-overs and elections reach beyond a neighbourhood."""
    from campaigns.engine.scope import PHASE_ORDER, deciding, sliceable

    classic = [{"kind": "move", "seq": 1}, {"kind": "attempt", "seq": 2}]
    assert sliceable({"departments": []}, classic)
    assert not sliceable({"departments": [], "players": {"p1": {}}}, classic)
    for kind in ("handover", "accept", "gift", "perceive", "nominate", "support", "vote"):
        assert not sliceable({"departments": []}, [*classic, {"kind": kind}])
    # Every phase the engine knows has its place: an election order is judged after the
    # attempts (and with them), before the function rolls.
    orders = [{"kind": k, "seq": i} for i, k in enumerate(["support", "function", "move"])]
    assert [o["kind"] for o in deciding(orders, "support")] == ["support", "move"]
    assert "election" in PHASE_ORDER
