"""Checking an order (RULES R40) reads only the part of the board that decides it
(selectors/state.py `board_rows_near`, engine/scope.py): the same outcome as the whole
board, in the same few queries whatever the size of the board."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import engine
from campaigns.engine.bench import random_orders
from campaigns.management.commands.bench_turns import bench_campaign
from campaigns.models import Board
from campaigns.selectors.state import COLUMNS, board_rows, board_rows_near, board_state

pytestmark = pytest.mark.django_db
SEED = "ab" * 32


def random_board(size: int) -> tuple[Board, dict[str, Any]]:
    campaign = bench_campaign(slug=f"near-{size}", boards=1, departments=size, orders=0)
    board = campaign.boards.get()
    return board, board_state(board, turn=campaign.turns.get(number=1))


def test_orders_resolve_near_as_on_the_whole_board() -> None:
    board, whole = random_board(120)
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        orders = random_orders(rng, whole["departments"], whole["links"], rng.randint(1, 6))
        player = orders[0]["player"]
        orders = [o for o in orders if o["player"] == player]
        state = {**whole, "orders": orders, "seed": SEED}
        near = {**board_state(board, rows=board_rows_near(board, orders)), "turn": whole["turn"]}
        near |= {"orders": orders, "seed": SEED}
        assert len(near["departments"]) < len(whole["departments"])
        assert engine.resolve(near)["report"] == engine.resolve(state)["report"]
        checked += 1
    assert checked == 60


def test_reading_near_costs_the_same_queries_on_any_board() -> None:
    counts = []
    for size in (40, 400):
        board, whole = random_board(size)
        orders = random_orders(random.Random(3), whole["departments"], whole["links"], 4)
        with CaptureQueriesContext(connection) as queries:
            board_state(board, rows=board_rows_near(board, orders))
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 7, counts


def test_the_near_rows_are_the_rows_the_orm_reads() -> None:
    """board_rows_near reads with its own SQL (an order check runs on every submission): the
    same values, of the same types (JSON decoded, booleans as booleans on SQLite too), and
    the same controllers as board_rows."""
    board, whole = random_board(60)
    everything = board_rows(board)
    orders = random_orders(random.Random(5), whole["departments"], whole["links"], 6)
    near = board_rows_near(board, orders)
    assert near.departments
    by_slug = {row[1]: row for row in everything.departments}
    for row in near.departments:
        assert row == by_slug[row[1]]
        assert [type(v) for v in row] == [type(v) for v in by_slug[row[1]]]
    assert set(near.players.items()) <= set(everything.players.items())
    controlled = {row[COLUMNS.index("structure_id")] for row in near.departments} - {None}
    assert controlled == set(near.players)
