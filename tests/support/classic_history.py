"""A classic board with a history (RULES R51, R90-R99) for the history pages' tests:
tests/support/classic_files.py's board (alice and bob, sentinel treasuries) in the demo,
recorded at the start and played through turn 1 by the real turn job.

Turn 1: alice's Mafia destroys the Yuppies (R95; the seed is picked so the roll succeeds),
bob drops the CIA onto the table (R97), and the opening of turn 2 draws the KGB and the
Cycle Gangs from the deck (R93). So compared, turns 0 and 1 hold a group destroyed, one
that changed place and two that entered from the deck."""

from __future__ import annotations

import hashlib
from typing import Any

from campaigns import engine
from campaigns.classic.selectors.state import classic_engine_state
from campaigns.engine.dice import commitment
from campaigns.models import Board, Campaign, ClassicBoard, Order, Turn, TurnRecord
from campaigns.services.turns import turn_process
from tests.support.classic_files import classic_board_in
from tests.support.demo import member

Kind = Order.Kind


def start_recorded(board: Board) -> None:
    """Turn 0's record of a classic board imported after the start, as if the GM had imported
    it before: the board as stored (a board imported later has history from its first
    processed turn on)."""
    stored = ClassicBoard.objects.get(board=board).state
    start = board.campaign.turns.get(number=0)
    TurnRecord.objects.create(turn=start, board=board, state=stored, before=stored, report={})


def seed_where_succeeds(turn: Turn, board: Board, orders: list[Order], order: Order) -> str:
    """The first of a fixed list of seeds under which `order` succeeds on classic `board`."""
    stored = ClassicBoard.objects.get(board=board).state
    catalogue = [a.as_engine() for a in turn.campaign.alignments.order_by("pk")]
    for i in range(500):
        turn.seed = hashlib.sha256(f"classic-history-{i}".encode()).hexdigest()
        state = classic_engine_state(stored, catalogue=catalogue, turn=turn, orders=orders)
        if engine.resolve(state)["report"]["orders"][order.engine_id]["status"] == "succeeded":
            return turn.seed
    raise AssertionError(f"no seed in the list makes order {order.pk} succeed")


def classic_played(campaign: Campaign) -> Board:
    """The classic board of the module's text, in `campaign` (the demo, turn 1 open),
    recorded at turns 0 and 1."""
    board = classic_board_in(campaign)
    start_recorded(board)
    turn = campaign.turns.get(number=1)
    alice, bob = member(campaign, "alice"), member(campaign, "bob")
    destroy = {"group": "mafia", "target": "yuppies", "aim": "destroy", "spend": 20}
    orders = [
        Order.objects.create(turn=turn, board=board, player=alice, kind=Kind.CLASSIC_ATTACK,
                             payload=destroy, seq=1),
        Order.objects.create(turn=turn, board=board, player=bob, kind=Kind.CLASSIC_DROP,
                             payload={"group": "cia"}, seq=1),
    ]  # fmt: skip
    turn.seed = seed_where_succeeds(turn, board, orders, orders[0])
    turn.commitment = commitment(turn.seed)
    turn.save(update_fields=["seed", "commitment"])
    assert turn_process(campaign_id=campaign.pk, number=1) is not None
    return board


def classic_state_of(groups: int, players: list[str], turn: int) -> dict[str, Any]:
    """A recorded classic state with `groups` groups beside each player's Illuminati: one in
    each structure, the rest spread over the table, the deck and the destroyed, shifting with
    `turn` so that consecutive turns differ."""
    rows: list[dict[str, Any]] = [
        {"slug": f"illuminati-{p}", "name": f"Illuminati {p}", "illuminati": True,
         "treasury": 7 + turn, "place": "structure", "controller": p, "parent": None}
        for p in players
    ]  # fmt: skip
    places = ["structure", "table", "deck", "destroyed"]
    for i in range(groups):
        place = places[(i + turn) % len(places)]
        owner = players[i % len(players)] if place == "structure" else None
        rows.append(
            {"slug": f"group-{i}", "name": f"Group {i}", "treasury": i, "place": place,
             "controller": owner, "parent": f"illuminati-{owner}" if owner else None}
        )  # fmt: skip
    deck = [g["slug"] for g in rows if g["place"] == "deck"]
    return {"ruleset": "classic", "players": [{"id": p} for p in players], "groups": rows,
            "deck": deck, "destroyed_by": {}}  # fmt: skip


def turns_processed(campaign: Campaign, turns: int) -> None:
    """Turns 1 to `turns` - 1 of `campaign` (the demo: turn 0 processed, turn 1 open) as
    processed rows, written in bulk; the open turn becomes `turns`."""
    start = campaign.turns.get(number=0)
    Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).update(number=turns)
    Turn.objects.bulk_create(
        Turn(campaign=campaign, number=n, status=Turn.Status.PROCESSED, seed=start.seed,
             commitment=start.commitment, opened_at=start.opened_at, deadline=start.deadline,
             processed_at=start.deadline)
        for n in range(1, turns)
    )  # fmt: skip


def classic_records_written(board: Board, turns: int, groups: int) -> None:
    """Records of classic `board` for its campaign's processed turns 0 to `turns` - 1, with
    `groups` groups each, written in bulk: not by the turn job, as only the pages' reading of
    them is under test."""
    campaign = board.campaign
    players = [m.player_id for m in campaign.memberships.filter(role="player").order_by("pk")]
    TurnRecord.objects.bulk_create(
        TurnRecord(turn=turn, board=board, state=classic_state_of(groups, players, turn.number),
                   before={}, report={})
        for turn in campaign.turns.filter(status=Turn.Status.PROCESSED, number__lt=turns)
    )  # fmt: skip
