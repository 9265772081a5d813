"""A player's classic orders (RULES R94-R97, ENGINE.md part 10), queued as Order rows of the
classic kinds, go to the turn job's classic engine call with the engine's player ids and kind
names; the attack is rolled with the turn's seed (R23), the report holds its need and rolls,
and the stored state changes as the engine says."""

from __future__ import annotations

import pytest

from campaigns.engine.classic.preview import attack_preview
from campaigns.engine.dice import roll_faces
from campaigns.models import Campaign, ClassicBoard, Order, TurnRecord
from campaigns.selectors.order_checks import OrderRefused
from campaigns.services.orders import orders_submit
from campaigns.services.turns import turn_process
from tests.support.classic_files import (
    ALICE_TREASURY,
    BOB_TREASURY,
    MAFIA_TREASURY,
    classic_board_in,
)
from tests.support.demo import member

pytestmark = pytest.mark.django_db

Kind = Order.Kind


def test_a_queued_classic_attack_is_rolled_with_the_turns_seed_r95(demo: Campaign) -> None:
    board = classic_board_in(demo)
    turn = demo.turns.get(number=1)
    alice, bob = member(demo, "alice"), member(demo, "bob")
    a, b = f"p{alice.pk}", f"p{bob.pk}"
    before = ClassicBoard.objects.get(board=board).state
    payload = {"group": "mafia", "target": "yuppies", "aim": "control",
               "assist": ["bavarians"], "spend": 3}  # fmt: skip
    attack = Order.objects.create(
        turn=turn, board=board, player=alice, kind=Kind.CLASSIC_ATTACK, payload=payload
    )
    # The site's own value for a classic gift reaches the engine as its `gift`.
    gift = Order.objects.create(
        turn=turn, board=board, player=bob, kind=Kind.CLASSIC_GIFT,
        payload={"to_player": a, "amount": 2},
    )  # fmt: skip
    # The need the engine's preview gives on the board before the turn (nobody defends).
    expected = attack_preview(
        {**before, "ruleset": "classic"}, {"player": a, "kind": "attack", **payload}
    )
    assert turn_process(campaign_id=demo.pk, number=1) is not None

    record = TurnRecord.objects.get(turn=turn, board=board)
    entry = record.report["orders"][str(attack.pk)]
    assert entry["need"] == expected["need"] == entry["attack"] - entry["defence"]
    # R23: the roll is the turn's seed under the key "<turn>:<order id>:attack", verifiable.
    key = f"1:{attack.pk}:attack"
    faces = roll_faces(turn.seed, key, 2, 6)
    assert entry["rolls"] == [{"key": key, "dice": 2, "sides": 6, "faces": faces,
                               "total": sum(faces)}]  # fmt: skip
    won = sum(faces) <= min(entry["need"], 10)
    attack.refresh_from_db()
    gift.refresh_from_db()
    assert attack.status == ("succeeded" if won else "failed")
    assert gift.status == "succeeded"

    # The state: the attack paid 3 MB from the Mafia; the gift moved 2 MB between the
    # Illuminati; then income (R93: the Mafia 6, alice's 9, bob's 12, the Yuppies 5 if won).
    groups = {g["slug"]: g for g in ClassicBoard.objects.get(board=board).state["groups"]}
    assert groups["mafia"]["treasury"] == MAFIA_TREASURY - 3 + 6
    assert groups["bavarians"]["treasury"] == ALICE_TREASURY + 2 + 9
    assert groups["gnomes"]["treasury"] == BOB_TREASURY - 2 + 12
    yuppies = groups["yuppies"]
    if won:
        assert (yuppies["place"], yuppies["controller"], yuppies["parent"]) == (
            "structure", a, "mafia",
        )  # fmt: skip
    else:
        assert (yuppies["place"], yuppies["controller"]) == ("table", None)
    assert b in record.report["seat_order"]


def test_orders_queued_through_the_service_reach_the_engine_and_a_refused_one_is_not_stored(
    demo: Campaign,
) -> None:
    """R40, R94: orders_submit checks a classic order against the engine's choices, stores
    it, and the turn job resolves it; one the engine does not offer is refused, unstored."""
    board = classic_board_in(demo)
    turn = demo.turns.get(number=1)
    alice = member(demo, "alice")
    with pytest.raises(OrderRefused):
        orders_submit(player=alice, turn=turn, board=board, kind=Kind.CLASSIC_DROP,
                      payload={"group": "bavarians"})  # fmt: skip
    with pytest.raises(OrderRefused):  # a standard kind on a classic board (R90)
        orders_submit(player=alice, turn=turn, board=board, kind=Kind.ATTEMPT,
                      payload={"attacker": "mafia", "target": "yuppies"})  # fmt: skip
    assert not Order.objects.filter(board=board).exists()
    drop = orders_submit(player=alice, turn=turn, board=board, kind=Kind.CLASSIC_DROP,
                         payload={"group": "mafia"})  # fmt: skip
    assert turn_process(campaign_id=demo.pk, number=1) is not None
    drop.refresh_from_db()
    assert drop.status == "succeeded"
    groups = {g["slug"]: g for g in ClassicBoard.objects.get(board=board).state["groups"]}
    # R97: a dropped group goes to the table, its treasury lost.
    assert (groups["mafia"]["place"], groups["mafia"]["treasury"]) == ("table", 0)
