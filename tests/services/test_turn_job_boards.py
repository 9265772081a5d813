"""A campaign of several boards is resolved in one engine call (services/turn_plans.py,
engine/joined.py) and split back into one record per board: orders that stay on their board
record exactly what one engine call per board recorded before; a link across two boards (a
cross_board shtick, RULES R60) is kept by its supplier's board, carried in the record with its
far end as a stub, and comes back with a rollback (R52)."""

from __future__ import annotations

import pytest

from campaigns import engine
from campaigns.models import Campaign, Department, Link, Membership, Order, Turn, TurnRecord
from campaigns.selectors.state import board_state
from campaigns.services.rollback import turn_rollback
from campaigns.services.turns import turn_process
from tests.support.demo import ORDERS, member, seed_for_capture
from tests.support.intrigue import plot_game, queue

pytestmark = pytest.mark.django_db

HARBOUR_ORDERS = [
    ("bob", Order.Kind.FUNCTION, {"department": "shipwright", "function": "build",
                                  "stat": "effect"}),
    ("carol", Order.Kind.FUNCTION, {"department": "customs-house", "function": "inspect",
                                    "stat": "impress"}),
    ("alice", Order.Kind.FUNCTION, {"department": "spice-house", "function": "haggle",
                                    "stat": "effect"}),
]  # fmt: skip


def one_call_per_board(campaign: Campaign, turn: Turn) -> dict[str, tuple[dict, dict]]:
    """What the turn job recorded before it joined the boards: each board resolved alone."""
    found = {}
    for board in campaign.boards.all():
        orders = list(turn.orders.filter(board=board).order_by("seq", "pk"))
        opened = engine.resolve_then_spawn(board_state(board, turn=turn, orders=orders))
        report = opened.pop("report")
        opened.pop("orders")
        found[board.slug] = (opened, report)
    return found


def test_a_two_board_demo_turn_records_what_one_engine_call_per_board_recorded(
    demo: Campaign,
) -> None:
    queue(demo, "city", [(p, k, payload) for _, p, k, payload in ORDERS])
    queue(demo, "harbour", HARBOUR_ORDERS)
    turn = demo.turns.get(number=1)
    attempt = Order.objects.get(turn=turn, kind=Order.Kind.ATTEMPT)
    city_orders = list(turn.orders.filter(board__slug="city"))
    turn.seed = seed_for_capture(turn, city_orders, attempt)
    turn.save()
    expected = one_call_per_board(demo, turn)

    assert turn_process(campaign_id=demo.pk, number=1) is not None

    for record in TurnRecord.objects.filter(turn=turn).select_related("board"):
        state, report = expected[record.board.slug]
        assert record.state == state
        assert record.report == report
    assert Order.objects.get(pk=attempt.pk).status == "succeeded"  # a capture in it too


def test_a_link_across_boards_is_made_and_recorded_with_its_supplier(crossed: Campaign) -> None:
    order = Order.objects.get(kind=Order.Kind.ADD_LINK)
    assert order.status == "succeeded", order.result
    link = Link.objects.get(supplier__slug="city-watch")
    assert (link.board.slug, link.consumer.board.slug, link.consumer.slug) == (
        "city",
        "harbour",
        "spice-house",
    )
    city = TurnRecord.objects.get(turn__number=1, board__slug="city")
    assert {"from": "city-watch", "to": "harbour/spice-house", "priority": 0} in city.state["links"]
    stub = next(d for d in city.state["departments"] if d["slug"] == "harbour/spice-house")
    assert stub["board"] == "harbour"
    harbour = TurnRecord.objects.get(turn__number=1, board__slug="harbour")
    assert "spice-house" in {d["slug"] for d in harbour.state["departments"]}
    # The record is still an ENGINE.md state (its links name departments of the state).
    engine.spawn_consume(city.state)


def test_the_next_turn_funds_across_the_link_and_a_rollback_restores_it(
    crossed: Campaign,
) -> None:
    assert turn_process(campaign_id=crossed.pk, number=2) is not None
    harbour = TurnRecord.objects.get(turn__number=2, board__slug="harbour")
    consumed = harbour.report["departments"]["spice-house"]["consumed"]
    assert all(c["from"] in ("spice-house", "city/city-watch") for c in consumed)

    gm = member(crossed, "gm").user
    turn_rollback(campaign=crossed, actor=gm, number=2, discard_orders=True)
    assert Link.objects.filter(supplier__slug="city-watch", consumer__slug="spice-house").exists()
    turn_rollback(campaign=crossed, actor=gm, number=1, discard_orders=True)
    assert not Link.objects.filter(supplier__slug="city-watch").exists()
    assert Department.objects.get(slug="spice-house").structure.player == Membership.objects.get(
        campaign=crossed, user__username="alice"
    )


def test_a_campaign_whose_boards_were_all_removed_still_processes_its_turn(db: None) -> None:
    game = plot_game()
    for board in game.boards:
        board.delete()
    assert turn_process(campaign_id=game.campaign.pk, number=1) is not None
    assert not TurnRecord.objects.filter(turn__number=1).exists()
