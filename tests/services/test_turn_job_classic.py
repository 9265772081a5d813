"""The turn job runs classic boards (RULES R90, R93-R94; issue 27) in the same once-only job:
each classic board's stored state, with the turn's number, secret seed and orders, goes
through the engine alone; the new state replaces the stored one and the turn's record keeps
the state before and after and the engine's report, seat order included. The standard boards
of the same campaign record exactly what they record without it."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from django.db import transaction

from campaigns.models import Campaign, ClassicBoard, Order, Turn, TurnRecord
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import campaign_start, turn_process
from tests.support.board_files import fresh_campaign
from tests.support.classic_files import (
    ALICE_TREASURY,
    BOB_TREASURY,
    MAFIA_TREASURY,
    classic_board_in,
)
from tests.support.demo import ORDERS, member
from tests.support.intrigue import queue

pytestmark = pytest.mark.django_db


def standard_records(campaign: Campaign) -> dict[str, tuple[object, object, object]]:
    return {
        r.board.slug: (r.state, r.report, r.before)
        for r in TurnRecord.objects.filter(turn__campaign=campaign, turn__number=1)
        .exclude(board__ruleset="classic")
        .select_related("board")
    }


def processed_without_classic_boards(campaign: Campaign) -> dict[str, tuple[object, ...]]:
    """Turn 1 processed on the campaign as it is, then undone (a savepoint rolled back)."""
    with transaction.atomic():
        assert turn_process(campaign_id=campaign.pk, number=1) is not None
        found = standard_records(campaign)
        outcomes = dict(Order.objects.filter(turn__number=1).values_list("pk", "result"))
        transaction.set_rollback(True)
    return {**found, "orders": (outcomes,)}


def seat_order(seed: str, turn: int, players: list[str]) -> list[str]:
    """R94: players by the hex digest of HMAC-SHA256(seed, "<turn>:seat:<player>")."""

    def digest(player: str) -> str:
        message = f"{turn}:seat:{player}".encode()
        return hmac.new(bytes.fromhex(seed), message, hashlib.sha256).hexdigest()

    return sorted(players, key=digest)


def test_a_classic_board_advances_beside_standard_boards_that_behave_as_before(
    demo: Campaign,
) -> None:
    queue(demo, "city", [(p, k, payload) for _, p, k, payload in ORDERS])
    expected = processed_without_classic_boards(demo)

    board = classic_board_in(demo)
    turn = demo.turns.get(number=1)
    alice, bob = member(demo, "alice"), member(demo, "bob")
    passing = Order.objects.create(turn=turn, board=board, player=alice, kind="pass", seq=99)
    assert turn_process(campaign_id=demo.pk, number=1) is not None

    # The standard boards: the same records and outcomes as without the classic board.
    assert {**standard_records(demo), "orders": expected["orders"]} == expected
    outcomes = dict(
        Order.objects.filter(turn=turn).exclude(board=board).values_list("pk", "result")
    )
    assert outcomes == expected["orders"][0]

    # R94: alice's pass (+5 MB to her Illuminati); R93: income into each controlled group's
    # own treasury, then one group per player drawn from the top of the deck onto the table.
    a, b = f"p{alice.pk}", f"p{bob.pk}"
    state = ClassicBoard.objects.get(board=board).state
    groups = {g["slug"]: g for g in state["groups"]}
    assert groups["bavarians"]["treasury"] == ALICE_TREASURY + 5 + 9
    assert groups["gnomes"]["treasury"] == BOB_TREASURY + 12
    assert groups["mafia"]["treasury"] == MAFIA_TREASURY + 6
    assert groups["cia"]["treasury"] == 3  # income 0
    assert groups["yuppies"]["treasury"] == 0  # on the table: no income
    assert (groups["kgb"]["place"], groups["cycle-gangs"]["place"]) == ("table", "table")
    assert state["deck"] == []
    assert not {"seed", "turn", "orders", "ruleset"} & set(state)
    passing.refresh_from_db()
    assert passing.status == "succeeded"

    record = TurnRecord.objects.get(turn=turn, board=board)
    assert record.report["seat_order"] == seat_order(turn.seed, 1, [a, b])
    assert record.report["income"] == {"bavarians": 9, "gnomes": 12, "mafia": 6}
    assert record.report["drawn"] == ["kgb", "cycle-gangs"]
    assert record.report["orders"][str(passing.pk)]["status"] == "succeeded"
    assert record.state["groups"] == state["groups"] and record.state["seed"] == turn.seed
    before = {g["slug"]: g["treasury"] for g in record.before["groups"]}
    assert before["bavarians"] == ALICE_TREASURY
    assert record.before["ruleset"] == "classic" and "orders" not in record.before
    assert demo.turns.get(number=2).status == Turn.Status.OPEN


def test_a_second_run_of_the_job_changes_nothing_on_a_classic_board(demo: Campaign) -> None:
    """Once only: the turn is processed, the second call finds nothing to do."""
    board = classic_board_in(demo)
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    state = ClassicBoard.objects.get(board=board).state
    assert turn_process(campaign_id=demo.pk, number=1) is None
    assert ClassicBoard.objects.get(board=board).state == state
    assert TurnRecord.objects.filter(board=board).count() == 1


def test_the_campaign_start_opens_turn_1_on_a_classic_board_r93(demo: Campaign) -> None:
    """R93: campaign start opens turn 1 the same way: income, then the draws (no orders)."""
    copy = fresh_campaign()
    board = classic_board_in(copy)
    campaign_start(campaign=copy)
    state = ClassicBoard.objects.get(board=board).state
    groups = {g["slug"]: g for g in state["groups"]}
    assert groups["bavarians"]["treasury"] == ALICE_TREASURY + 9
    assert state["deck"] == []
    record = TurnRecord.objects.get(turn__campaign=copy, turn__number=0, board=board)
    assert record.report == {
        "income": {"bavarians": 9, "gnomes": 12, "mafia": 6},
        "drawn": ["kgb", "cycle-gangs"],
    }
    assert copy.turns.get(number=1).status == Turn.Status.OPEN


def test_undoing_the_turn_gives_the_classic_board_its_state_back_r52(demo: Campaign) -> None:
    board = classic_board_in(demo)
    before = ClassicBoard.objects.get(board=board).state
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    assert ClassicBoard.objects.get(board=board).state != before
    turn_rollback(campaign=demo, actor=member(demo, "gm").user, number=1, discard_orders=True)
    assert ClassicBoard.objects.get(board=board).state == before
    assert not TurnRecord.objects.filter(board=board).exists()
