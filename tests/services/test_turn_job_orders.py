"""RULES R31 step 2 through the database: queued orders are resolved in the job and their
status and result written back (R40); what the bridge writes is what the engine computed."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

import pytest

from campaigns.engine.refusals import TABLE, Refusal
from campaigns.models import Department, Order, TurnRecord
from campaigns.reasons import STORED, stored_reason
from campaigns.selectors.state import board_state
from campaigns.services.turns import turn_process
from tests.support.turn_job import UTC, started_campaign

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
DEADLINE = dt.datetime(2026, 1, 9, 17, 0, tzinfo=UTC)


def faces(seed_hex: str, key: str, dice: int, sides: int = 10) -> list[int]:
    """RULES R23, computed here independently of the engine."""
    out = []
    for i in range(dice):
        h = hmac.new(bytes.fromhex(seed_hex), f"{key}:{i}".encode(), hashlib.sha256).digest()
        out.append(int.from_bytes(h[:8], "big") % sides + 1)
    return out


def department_rows(state: dict) -> dict[str, dict]:
    """Departments by slug; `moved` and `defence` without their zero entries (the bridge
    stores only what is not zero)."""
    out = {}
    for dept in state["departments"]:
        dept = dict(dept)
        for key in ("moved", "defence"):
            dept[key] = {kind: n for kind, n in dept.get(key, {}).items() if n}
        out[dept["slug"]] = dept
    return out


def links(state: dict) -> list[tuple[str, str, int]]:
    return sorted((link["from"], link["to"], link["priority"]) for link in state["links"])


def test_queued_orders_are_resolved_and_their_outcome_written() -> None:
    """Turn 1 opens (start's spawn-consume) with treasury holding 2 Authority, mint 2 Money,
    guild 1 Money and no Authority (worked out in tests/support/turn_job.py's cards)."""
    game = started_campaign(start=START, boards=1)
    assert game.department("treasury").authority == 2
    assert game.department("guild").authority == 0
    move = game.order(
        game.alice, "move", **{"from": "treasury", "path": ["mint"], "tokens": {"authority": 1}}
    )
    foreign = game.order(game.bob, "break_link", **{"from": "mint", "to": "treasury"})
    broke = game.order(
        game.bob, "attempt", attacker="guild", target="orphanage", cost={"authority": 2}
    )
    roll = game.order(
        game.alice, "function", department="mint", function="paperwork", stat="effect"
    )
    cancelled = game.order(game.alice, "break_link", **{"from": "mint", "to": "watch"})
    Order.objects.filter(pk=cancelled.pk).update(status=Order.Status.CANCELLED)

    turn_process(campaign_id=game.campaign.pk, number=1, now=DEADLINE)

    for order in (move, foreign, broke, roll, cancelled):
        order.refresh_from_db()
    # R42: legal move along treasury -> mint.
    assert move.status == Order.Status.SUCCEEDED
    assert move.result["status"] == "succeeded"
    # R14: bob may not break alice's link.
    assert foreign.status == Order.Status.REJECTED
    assert foreign.result["reason"]
    # R43 step 1: the guild cannot pay 2 Authority.
    assert broke.status == Order.Status.FAILED
    assert "pay" in broke.result["reason"]
    # R45, R22-R23: a function roll for 7s, with dice anyone can recompute from the seed.
    assert roll.status == Order.Status.SUCCEEDED
    (dice,) = roll.result["rolls"]
    turn_1 = game.turn(1)
    assert dice["key"] == f"1:{roll.pk}:function"
    assert (dice["dice"], dice["skill"], dice["tn"]) == (1, 2, 7)
    assert dice["faces"] == faces(turn_1.seed, dice["key"], dice["dice"])
    # Not queued at the deadline: left alone, and the link it named is still there.
    assert (cancelled.status, cancelled.result) == (Order.Status.CANCELLED, {})
    assert game.boards[0].links.filter(supplier__slug="mint", consumer__slug="watch").exists()
    # The turn report holds the same outcomes.
    report = TurnRecord.objects.get(turn=turn_1).report
    assert report["orders"][str(move.pk)] == move.result
    assert set(report["orders"]) == {str(o.pk) for o in (move, foreign, broke, roll)}
    # A refused order's row keeps its reason's code and parameters beside the text, which
    # they say again (issue 26); the record keeps the engine's report as it gave it.
    for refused in (foreign, broke):
        coded = refused.result[STORED]
        assert coded["code"] in TABLE
        assert Refusal(coded["code"], coded["params"]) == refused.result["reason"]
        assert stored_reason(refused.result).code == coded["code"]
        assert report["orders"][str(refused.pk)] == {
            k: v for k, v in refused.result.items() if k != STORED
        }
    assert broke.result[STORED]["code"] == "cannot_pay"


def test_the_rows_written_are_the_state_recorded() -> None:
    """The bridge's round trip: reading the board back gives the state the turn record
    holds (stash, structure, home, capacity, moved, links and their ranks)."""
    game = started_campaign(start=START, boards=2)
    game.order(
        game.alice, "move", **{"from": "treasury", "path": ["mint"], "tokens": {"authority": 1}}
    )
    game.order(game.alice, "break_link", **{"from": "mint", "to": "watch"})
    Department.objects.filter(slug="guild").update(defence={"people": 1, "money": 2})  # R47

    turn_process(campaign_id=game.campaign.pk, number=1, now=DEADLINE)

    for board in game.boards:
        recorded = TurnRecord.objects.get(turn=game.turn(1), board=board).state
        read_back = board_state(board)
        assert department_rows(recorded) == department_rows(read_back)
        assert links(recorded) == links(read_back)
        figures = TurnRecord.objects.get(turn=game.turn(1), board=board).report["departments"]
        depts = list(Department.objects.filter(board=board))
        assert len(depts) == 6
        for dept in depts:
            assert dept.status == figures[dept.slug]["status"]
            assert dept.chain_length == figures[dept.slug]["chain_length"]
    # R13: the watch lost its only link inside alice's structure and is not a home.
    assert game.department("watch").structure_id is None
    assert game.department("watch", board=1).structure is not None
    assert game.department("guild").defence == {"people": 1, "money": 2}


def test_a_campaign_without_its_own_catalogue_plays_with_the_default_alignments() -> None:
    """R5: the default catalogue is the card game's ten. A campaign made without Alignment
    rows (the admin, a factory) must not fail its turns because a card says "Straight"."""
    game = started_campaign(start=START, boards=1)
    assert not game.campaign.alignments.exists()
    Department.objects.filter(slug="mint").update(alignments=["Straight", "Government"])

    assert turn_process(campaign_id=game.campaign.pk, number=1, now=DEADLINE) is not None

    state = TurnRecord.objects.get(turn=game.turn(1)).state
    assert department_rows(state)["mint"]["alignments"] == ["Straight", "Government"]
