"""campaigns.engine.legal for the election's order kinds (RULES R80) on hand-made boards."""

from __future__ import annotations

from typing import Any

from campaigns.engine.legal import legal_choices
from campaigns.engine.legal_election import SupportChoice, VoteChoice

Json = dict[str, Any]


def board(*orders: Json, election: bool = True) -> Json:
    """alice: mint, press (media); bob: guild; field uncontrolled."""
    departments = [
        {"slug": "mint", "structure": "alice", "home": True, "impress": 2},
        {"slug": "press", "structure": "alice", "home": True, "functions": {"Media": 0}},
        {"slug": "guild", "structure": "bob", "home": True},
        {"slug": "field", "structure": None},
    ]
    state: Json = {"turn": 1, "seed": "ab" * 32, "departments": departments, "orders": list(orders)}
    state["offices"] = [{"id": "mayor", "name": "Mayor", "alignment": "Government"}]
    if election:
        state["election"] = {"office": "mayor"}
    return state


NOMINATE = {"id": "n", "player": "bob", "kind": "nominate", "candidate": "mint"}
NOMINATE |= {"running_mate": "guild"}


def test_r80_without_an_election_there_is_nothing_to_order_and_the_reason_says_so() -> None:
    legal = legal_choices(board(election=False), "alice")
    for kind in ("nominate", "running_mate", "support", "vote"):
        assert legal.choices(kind) == []
        assert legal.why_not[kind] == "there is no election this turn (R80)"


def test_r80_tickets_running_mates_support_and_votes_after_a_nomination() -> None:
    legal = legal_choices(board(NOMINATE), "alice")
    assert [c.candidate for c in legal.nominate] == ["press", "guild", "field"]
    assert [c.candidate for c in legal.running_mate] == ["mint"]  # bob nominated her mint
    assert legal.running_mate[0].accepts("field") and not legal.running_mate[0].accepts("mint")
    assert legal.support == [
        SupportChoice("mint", ("mint",), False),
        SupportChoice("press", ("mint",), True),
    ]
    assert legal.vote == [VoteChoice("mint")]
    assert legal_choices(board(NOMINATE), "bob").running_mate == []


def test_r80_a_doubled_media_department_has_no_function_roll_left() -> None:
    double = {"id": "s", "player": "alice", "kind": "support", "department": "press"}
    legal = legal_choices(board(NOMINATE, double | {"ticket": "mint", "double": True}), "alice")
    assert [c.department for c in legal.support] == ["mint"]
    assert [c.department for c in legal.function] == ["mint"]


def test_r80_the_plan_says_which_queued_election_orders_resolve_would_reject() -> None:
    """A support for a ticket nobody nominated (its nomination withdrawn, say) and a second
    vote: the orders page tells the player before the deadline (web/election_views.py)."""
    support = {"id": "s", "player": "alice", "kind": "support", "department": "mint"}
    votes = [{"id": f"v{i}", "player": "alice", "kind": "vote", "ticket": "mint"} for i in (1, 2)]
    plan = legal_choices(board(support | {"ticket": "guild"}, NOMINATE, *votes), "alice").plan
    assert plan.election_refused == {
        "s": "there is no ticket 'guild' (R80)",
        "v2": "you have already voted this turn (R80)",
    }
    assert legal_choices(board(NOMINATE), "alice").plan.election_refused == {}
