"""Small campaigns for the turn-job tests (RULES R30-R31), built with tests/factories.py.

`started_campaign()` makes a campaign with a GM, two players and one or more identical boards
(a little supply chain each), and starts it (turn 1 open). `rows()` reads every row the turn
job may touch, so a test can compare the whole database before and after.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from campaigns.models import (
    Board,
    Campaign,
    Department,
    Link,
    Membership,
    Order,
    Structure,
    Turn,
    TurnRecord,
    Weekday,
)
from campaigns.services.turns import campaign_start
from tests.factories import (
    BoardFactory,
    CampaignFactory,
    DepartmentFactory,
    LinkFactory,
    MembershipFactory,
    StructureFactory,
)

UTC = dt.UTC
GM_EMAIL = "gm@example.com"
M, P, A = "money", "people", "authority"

# slug: (owner, home, consumes, produces, stash). A cycle mint <-> treasury, a chain
# mint -> watch, bob's guild -> press, and an uncontrolled orphanage.
CARDS: dict[str, tuple[str | None, bool, tuple[str, int], tuple[str, int], dict[str, int]]] = {
    "mint": ("alice", True, (A, 1), (M, 3), {A: 1}),
    "treasury": ("alice", True, (M, 2), (A, 2), {M: 2}),
    "watch": ("alice", False, (M, 1), (P, 2), {}),
    "guild": ("bob", True, (P, 1), (M, 2), {P: 1}),
    "press": ("bob", True, (M, 1), (A, 1), {}),
    "orphanage": (None, False, (M, 1), (P, 1), {}),
}
LINKS = [
    ("mint", "treasury", 0),
    ("treasury", "mint", 0),
    ("mint", "watch", 1),
    ("guild", "press", 0),
]
# Every table the turn job reads or writes.
TABLES = (Campaign, Board, Structure, Department, Link, Turn, Order, TurnRecord)


@dataclass
class Game:
    campaign: Campaign
    gm: Membership
    alice: Membership
    bob: Membership
    boards: list[Board]

    def turn(self, number: int) -> Turn:
        return Turn.objects.get(campaign=self.campaign, number=number)

    def department(self, slug: str, board: int = 0) -> Department:
        return Department.objects.get(board=self.boards[board], slug=slug)

    def order(self, player: Membership, kind: str, board: int = 0, **payload: Any) -> Order:
        """Queue an order on the open turn (RULES R40); seq follows the player's last."""
        turn = self.campaign.turns.get(status=Turn.Status.OPEN)
        seq = Order.objects.filter(turn=turn, player=player).count()
        return Order.objects.create(
            turn=turn, board=self.boards[board], player=player, kind=kind, payload=payload, seq=seq
        )


def board_create(campaign: Campaign, players: dict[str, Membership], index: int) -> Board:
    board = BoardFactory(campaign=campaign, name=f"Board {index}", slug=f"board-{index}")
    structures = {name: StructureFactory(board=board, player=m) for name, m in players.items()}
    made = {}
    for slug, (owner, home, consumes, produces, stash) in CARDS.items():
        made[slug] = DepartmentFactory(
            board=board,
            slug=slug,
            name=slug.title(),
            consumes_type=consumes[0],
            consumes_amount=consumes[1],
            produces_type=produces[0],
            produces_amount=produces[1],
            functions={"linking": 1, "paperwork": 2},
            alignments=[],
            structure=structures[owner] if owner else None,
            home=home,
            **stash,
        )
    for supplier, consumer, priority in LINKS:
        LinkFactory(
            board=board, supplier=made[supplier], consumer=made[consumer], priority=priority
        )
    return board


def started_campaign(
    *,
    boards: int = 2,
    start: dt.datetime | None = None,
    time_zone: str = "Europe/Berlin",
    weekday: int = Weekday.FRIDAY,
    at: dt.time = dt.time(18, 0),
    slug: str = "reliable",
) -> Game:
    """A running campaign with turn 1 open, started at `start` (default: now)."""
    campaign = CampaignFactory(
        name=slug.title(),
        slug=slug,
        time_zone=time_zone,
        deadline_weekday=weekday,
        deadline_time=at,
    )
    gm = MembershipFactory(
        campaign=campaign,
        role=Membership.Role.GM,
        user__username=f"{slug}-gm",
        user__email=GM_EMAIL,
    )
    alice = MembershipFactory(campaign=campaign, user__username=f"{slug}-alice")
    bob = MembershipFactory(campaign=campaign, user__username=f"{slug}-bob")
    players = {"alice": alice, "bob": bob}
    made = [board_create(campaign, players, index) for index in range(boards)]
    campaign_start(campaign=campaign, now=start)
    campaign.refresh_from_db()
    return Game(campaign=campaign, gm=gm, alice=alice, bob=bob, boards=made)


def due_campaign(
    *, boards: int = 2, slug: str = "reliable", deadline: dt.datetime | None = None, **schedule: Any
) -> Game:
    """A started campaign (`schedule`: time_zone, weekday, at) whose turn 1 was due at
    `deadline` (default: a minute ago), with orders of both players queued on every board:
    a move and a function roll of Alice's, a function roll of Bob's."""
    game = started_campaign(boards=boards, slug=slug, **schedule)
    make_due(game, 1, deadline or dt.datetime.now(UTC) - dt.timedelta(minutes=1))
    roll = {"function": "paperwork", "stat": "effect"}
    for board in range(boards):
        move = {"from": "treasury", "path": ["mint"], "tokens": {A: 1}}
        game.order(game.alice, "move", board, **move)
        game.order(game.alice, "function", board, department="mint", **roll)
        game.order(game.bob, "function", board, department="guild", **roll)
    return game


def make_due(game: Game, number: int, deadline: dt.datetime) -> Turn:
    """Move turn `number`'s deadline (as a GM extending or a test rewinding the clock)."""
    Turn.objects.filter(campaign=game.campaign, number=number).update(deadline=deadline)
    return game.turn(number)


def rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table the turn job touches, in primary-key order."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in TABLES}


def rows_changed(
    before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """Every difference between two `rows()` readings, in words ("Order 7: status queued ->
    succeeded"), so a test that expects none says which rows a fault left behind."""
    changed: list[str] = []
    for table in before.keys() | after.keys():
        old = {row["id"]: row for row in before.get(table, [])}
        new = {row["id"]: row for row in after.get(table, [])}
        changed += [f"{table} {pk}: added" for pk in sorted(new.keys() - old.keys())]
        changed += [f"{table} {pk}: removed" for pk in sorted(old.keys() - new.keys())]
        for pk in sorted(old.keys() & new.keys()):
            changed += [
                f"{table} {pk}: {name} {old[pk][name]!r} -> {new[pk][name]!r}"
                for name in old[pk]
                if old[pk][name] != new[pk].get(name)
            ]
    return sorted(changed)
