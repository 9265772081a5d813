"""The orders page's three reads of the turn's orders in one query: what the order
forms check against (order_checks.OrdersAround, per board), the player's own orders of the
turn whatever their status (the page's queued and resolved lists), and the other players'
queued attempts (R46: those against the player's departments are the page's attacks).

Each order comes with its board and its player's names, as the per-read queries gave them
with select_related: no query per order, whatever the number of orders."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from campaigns.models import Board, Membership, Order, Turn
from campaigns.selectors.order_checks import ELECTION_KINDS, OrdersAround

Kind = Order.Kind

TURN_ORDERS = """
SELECT o.*, b.name AS board_name, b.slug AS board_slug, b.ruleset AS board_ruleset,
       m.character_name AS player_character, u.username AS player_username
FROM {order} o
JOIN {board} b ON b.id = o.board_id
JOIN {membership} m ON m.id = o.player_id
JOIN {user} u ON u.id = m.user_id
WHERE o.turn_id = %s
  AND (o.player_id = %s
       OR (o.status = %s AND (o.kind = %s OR (o.board_id IN ({boards}) AND o.kind IN ({kinds})))))
ORDER BY o.seq, o.id
"""


@dataclass(frozen=True)
class TurnOrders:
    """`around` board id -> OrdersAround (as order_checks.orders_around_boards reads it),
    `mine` the player's orders of the turn in sequence order, `attempts` the other players'
    queued attempts (on any board: a cross-board attempt names its target's board)."""

    around: dict[int, OrdersAround]
    mine: list[Order]
    attempts: list[Order]


def turn_orders(player: Membership, turn: Turn, boards: list[Board]) -> TurnOrders:
    """TurnOrders in one query."""
    kinds = [*ELECTION_KINDS, Kind.HANDOVER]
    sql = TURN_ORDERS.format(
        order=Order._meta.db_table,
        board=Board._meta.db_table,
        membership=Membership._meta.db_table,
        user=get_user_model()._meta.db_table,
        boards=", ".join(["%s"] * len(boards)) or "NULL",
        kinds=", ".join(["%s"] * len(kinds)),
    )
    queued = Order.Status.QUEUED
    params = [turn.pk, player.pk, queued, Kind.ATTEMPT, *(b.pk for b in boards), *kinds]
    mine: list[Order] = []
    attempts: list[Order] = []
    public: dict[int, list[Order]] = {b.pk: [] for b in boards}
    offered: dict[int, list[Order]] = {b.pk: [] for b in boards}
    read: dict[int, Board] = {}
    for order in Order.objects.raw(sql, params):
        order.board = read.setdefault(
            order.board_id,
            Board(
                pk=order.board_id,
                campaign_id=turn.campaign_id,
                name=order.board_name,
                slug=order.board_slug,
                ruleset=order.board_ruleset,
            ),
        )
        if order.player_id == player.pk:
            order.player = player
            mine.append(order)
            continue
        user = get_user_model()(username=order.player_username)
        order.player = Membership(
            pk=order.player_id,
            campaign_id=turn.campaign_id,
            character_name=order.player_character,
            user=user,
        )
        if order.kind == Kind.ATTEMPT and order.status == queued:
            attempts.append(order)
        if order.board_id not in public or order.status != queued:
            continue
        if order.kind in ELECTION_KINDS:
            public[order.board_id].append(order)
        elif order.kind == Kind.HANDOVER and order.payload.get("to") == player.player_id:
            offered[order.board_id].append(order)  # a hand-over offered (R62)
    # As Order's default ordering lists them (the page's attacks, by attacker).
    attempts.sort(key=lambda o: (o.player_id, o.seq, o.pk))
    around_mine = [o for o in mine if o.status == queued]
    return TurnOrders(
        around={b.pk: OrdersAround(around_mine, public[b.pk], offered[b.pk]) for b in boards},
        mine=mine,
        attempts=attempts,
    )
