"""Property tests (hypothesis) for ENGINE.md part 9 (RULES R80), on random boards with offices,
an election and orders of every kind (strategies_election.py):

- each ticket's support is the sum of its supporters' Impress, doubled where a media
  department doubled it, and no department supports two tickets;
- every department uncontrolled at the election supports a ticket when there is one;
- the winner has the most support, `decided_by` says which tie-break decided, and the office
  carries the winner's candidate and running mate;
- a doubled department's function roll is rejected;
- with no `election` key every election order is rejected and nothing else changes.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strategies import boards_with_orders  # noqa: E402
from strategies_election import ELECTION_KINDS, election_boards, election_order  # noqa: E402

from campaigns.engine import resolve  # noqa: E402
from tests.support.engine_checks import check_pure  # noqa: E402

Json = dict[str, Any]
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def succeeded(result: Json, order: Json) -> bool:
    return bool(result["report"]["orders"][order["id"]]["status"] == "succeeded")


@SETTINGS
@given(election_boards())
def test_r80_support_is_the_supporters_impress_doubled_where_doubled(state: Json) -> None:
    result = check_pure(resolve, state)
    election = result["report"]["election"]
    impress = {d["slug"]: d["impress"] for d in state["departments"]}
    doubled = {
        o["department"]
        for o in state["orders"]
        if o["kind"] == "support" and o.get("double") is True and succeeded(result, o)
    }
    seen: list[str] = []
    for ticket in election["tickets"].values():
        power = sum(impress[s] * (2 if s in doubled else 1) for s in ticket["supporters"])
        assert ticket["support"] == power
        assert ticket["supporters"] == sorted(ticket["supporters"])
        seen += ticket["supporters"]
    assert len(seen) == len(set(seen)), "a department supported two tickets"
    if election["tickets"]:
        uncontrolled = {d["slug"] for d in result["departments"] if d["structure"] is None}
        assert uncontrolled <= set(seen)
    for order in state["orders"]:
        if order["kind"] == "function" and order.get("department") in doubled:
            assert result["report"]["orders"][order["id"]]["status"] == "rejected"


@SETTINGS
@given(election_boards())
def test_r80_the_winner_has_the_most_support_and_takes_the_office(state: Json) -> None:
    result = resolve(state)
    election = result["report"]["election"]
    mayor = next(o for o in result["offices"] if o["id"] == "mayor")
    before = next(o for o in state["offices"] if o["id"] == "mayor")
    tickets = election["tickets"]
    if not tickets:
        assert (election["winner"], election["decided_by"]) == (None, None)
        assert (mayor["holder"], mayor["deputy"]) == (before["holder"], before["deputy"])
        return
    winner = tickets[election["winner"]]
    top = max(t["support"] for t in tickets.values())
    assert winner["support"] == top
    tied = [c for c, t in tickets.items() if t["support"] == top]
    assert (election["decided_by"] == "support") == (len(tied) == 1)
    impress = {d["slug"]: d["impress"] for d in state["departments"]}
    if election["decided_by"] != "support":
        assert impress[election["winner"]] == max(impress[c] for c in tied)
    assert (mayor["holder"], mayor["deputy"]) == (election["winner"], winner["running_mate"])
    assert result["election"] == state["election"]


@SETTINGS
@given(boards_with_orders(), st.data())
def test_r80_without_an_election_every_election_order_is_rejected_and_nothing_changes(
    state: Json, data: st.DataObject
) -> None:
    voting = copy.deepcopy(state)
    extra = [
        data.draw(election_order(state, f"e{i}", ELECTION_KINDS))
        for i in range(data.draw(st.integers(1, 5)))
    ]
    voting["orders"] = voting["orders"] + extra  # after the others: their seq stay
    plain = resolve(state)
    result = resolve(voting)
    for order in extra:
        entry = result["report"]["orders"].pop(order["id"])
        assert entry["status"] == "rejected" and entry["rolls"] == []
        assert entry["reason"] in (
            "there is no election this turn (R80)",
            "the order names no player",
        )
    assert "election" not in result["report"]
    assert {k: v for k, v in result.items() if k != "orders"} == {
        k: v for k, v in plain.items() if k != "orders"
    }
