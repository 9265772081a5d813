"""`manage.py bench_classic_turns`: time the turn job (RULES R93) on classic boards
(R90-R99), in the database.

Builds a throw-away campaign (default: 5 classic boards of 200 groups, 4 players, 500 queued
orders in all) from random card-game boards, starts it, then runs the turn job once, the
code Celery's `process_turn` runs (services/turns.py turn_run), and prints the seconds,
groups and orders per second, how long the campaign row lock was held and the SQL queries.
The orders are of every kind, aimed at groups that exist (some are rejected when they
resolve, as in play: a third action, a spend the treasury no longer holds). The campaign is
deleted afterwards unless --keep."""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone

from campaigns.engine.board import DEFAULT_ALIGNMENTS
from campaigns.management.benching import (
    campaign_remove,
    order_statuses,
    vacuum,
    vacuum_note,
)
from campaigns.management.commands.bench_turns import QueryCounter
from campaigns.models import Board, Campaign, ClassicBoard, Membership, Order
from campaigns.models.campaign import engine_player_id
from campaigns.services.campaigns import alignments_create_default
from campaigns.services.turns import campaign_start, turn_run

PLAYERS = ("alice", "bob", "carol", "dave")
ALIGNMENTS = [str(a["name"]) for a in DEFAULT_ALIGNMENTS]
# Groups each player holds at the start besides their Illuminati: below the 12 that win
# with four players (R98), so the first turn is played, not won at once.
HELD = 10


def random_group(rng: random.Random, slug: str, **place: Any) -> dict[str, Any]:
    """A card (R91) on the table unless `place` says otherwise."""
    card: dict[str, Any] = {
        "slug": slug, "name": f"Group {slug}", "power": rng.randint(0, 6),
        "transferable": rng.randint(0, 4), "resistance": rng.randint(1, 8),
        "income": rng.randint(0, 4), "arrows": rng.randint(0, 3),
        "alignments": rng.sample(ALIGNMENTS, rng.randint(0, 2)), "treasury": rng.randint(0, 6),
        "place": "table", "controller": None, "parent": None,
    }  # fmt: skip
    card.update(place)
    return card


def random_classic_state(groups: int, players: list[str], seed: int) -> dict[str, Any]:
    """A legal classic board (ENGINE.md part 10) of `groups` groups: an Illuminati and HELD
    groups in each player's structure, a third of the rest in the deck, a few destroyed, the
    others on the table."""
    rng = random.Random(seed)
    cards: list[dict[str, Any]] = []
    for index, player in enumerate(players):
        cards.append(
            random_group(rng, f"illuminati-{index}", illuminati=True, power=10, transferable=10,
                         resistance=None, income=10, arrows=4, alignments=[], treasury=20,
                         place="structure", controller=player)
        )  # fmt: skip
    for index, player in enumerate(players):
        free = {f"illuminati-{index}": 4}
        for n in range(HELD):
            if len(cards) >= groups:
                break
            parent = rng.choice([slug for slug, arrows in free.items() if arrows > 0])
            free[parent] -= 1
            card = random_group(rng, f"g{index}-{n}", place="structure", controller=player,
                                parent=parent, arrows=rng.randint(1, 3))  # fmt: skip
            free[card["slug"]] = card["arrows"]
            cards.append(card)
    rest = groups - len(cards)
    for n in range(rest):
        place = "deck" if n < rest // 3 else "destroyed" if n < rest // 3 + 5 else "table"
        cards.append(random_group(rng, f"t{n}", place=place))
    return {
        "players": [{"id": p} for p in players],
        "groups": cards,
        "deck": [c["slug"] for c in cards if c["place"] == "deck"],
        "destroyed_by": {},
    }


def random_orders(state: dict[str, Any], count: int, seed: int) -> list[dict[str, Any]]:
    """`count` orders of the state's players, every kind of R94-R97 but pass (which would
    reject the rest of its player's orders), as the site stores them: engine fields and
    the site's kind (models/turn.py)."""
    rng = random.Random(seed)
    players = [p["id"] for p in state["players"]]
    held = {p: [g for g in state["groups"] if g.get("controller") == p] for p in players}
    others = {p: [g for g in state["groups"] if g.get("controller") not in (None, p)]
              for p in players}  # fmt: skip
    table = [g for g in state["groups"] if g["place"] == "table"]
    orders = []
    for _ in range(count):
        player = rng.choice(players)
        own = held[player]
        vassals = [g for g in own if not g.get("illuminati")]
        kind = rng.choices(
            ["attack", "transfer", "mb_gift", "defend", "interfere", "move_group", "drop"],
            weights=[40, 15, 10, 10, 10, 10, 5],
        )[0]
        attacker = rng.choice([g for g in own if g["power"] > 0])
        group = rng.choice(vassals)
        if kind == "attack":
            aim = rng.choice(["control", "control", "neutralize", "destroy"])
            target = rng.choice(table if aim == "control" else others[player])
            assist = [g["slug"] for g in rng.sample(own, 1) if g is not attacker]
            payload = {"group": attacker["slug"], "target": target["slug"], "aim": aim,
                       "assist": assist, "spend": rng.randint(0, 2)}  # fmt: skip
        elif kind == "transfer":
            payload = {"from": group["slug"], "to": group["parent"], "amount": 1}
        elif kind == "mb_gift":
            to = rng.choice([p for p in players if p != player])
            payload = {"to_player": to, "amount": rng.randint(1, 3)}
        elif kind == "defend":
            payload = {"group": group["slug"], "spend": 1, "spend_illuminati": 1}
        elif kind == "interfere":
            payload = {"target": rng.choice(others[player])["slug"], "side": "defend",
                       "amount": 1}  # fmt: skip
        elif kind == "move_group":
            payload = {"group": group["slug"], "to": rng.choice(own)["slug"]}
        else:
            payload = {"group": group["slug"]}
        orders.append({"player": player, "kind": kind, "payload": payload})
    return orders


def bench_classic_campaign(
    *, slug: str, boards: int, groups: int, orders: int, seed: int = 1
) -> Campaign:
    """A started campaign (turn 1 open) of `boards` random classic boards of `groups` groups
    each, with `orders` queued orders on turn 1 spread over the boards. The same `seed`
    gives the same campaign."""
    with transaction.atomic():
        campaign = Campaign.objects.create(name=f"Bench {slug}", slug=slug)
        alignments_create_default(campaign=campaign)
        users = get_user_model().objects
        members = {}
        for name in PLAYERS:
            user, _ = users.get_or_create(username=f"{slug}-{name}")
            members[name] = Membership.objects.create(campaign=campaign, user=user)
        by_id = {engine_player_id(m.pk): m for m in members.values()}
        planned = []
        for index in range(boards):
            state = random_classic_state(groups, list(by_id), seed + index)
            board = Board.objects.create(
                campaign=campaign, name=f"Board {index}", slug=f"c{index}",
                ruleset=Board.Ruleset.CLASSIC,
            )  # fmt: skip
            ClassicBoard.objects.create(board=board, state=state)
            count = orders // boards + (1 if index < orders % boards else 0)
            planned.append((board, random_orders(state, count, seed + index)))
    turn = campaign_start(campaign=campaign)
    Order.objects.bulk_create(
        Order(turn=turn, board=board, player=by_id[o["player"]], kind=o["kind"],
              payload=o["payload"], seq=seq)
        for board, board_orders in planned
        for seq, o in enumerate(board_orders)
    )  # fmt: skip
    return campaign


class Command(BaseCommand):
    help = "Time the turn job on classic boards (5 boards x 200 groups, 500 orders)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--boards", type=int, default=5)
        parser.add_argument("--groups", type=int, default=200, help="per board")
        parser.add_argument("--orders", type=int, default=500, help="in total")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the campaign afterwards")

    def handle(self, *args: Any, **options: Any) -> None:
        boards, groups, orders = options["boards"], options["groups"], options["orders"]
        least = len(PLAYERS) * (HELD + 1) + 1
        if groups < least:
            self.stderr.write(f"--groups must be at least {least} (the players' structures)")
            return
        slug = f"bench-{timezone.now():%Y%m%d%H%M%S%f}"
        self.stdout.write(
            f"Building {boards} classic boards x {groups} groups, {orders} orders "
            f"({connection.vendor})"
        )
        started = time.perf_counter()
        campaign = bench_classic_campaign(
            slug=slug, boards=boards, groups=groups, orders=orders, seed=options["seed"]
        )
        self.stdout.write(
            f"  built and started in {time.perf_counter() - started:.2f} s; {vacuum_note()}"
        )
        try:
            self.measure(campaign, boards, groups, orders)
        finally:
            if not options["keep"]:
                campaign_remove(campaign)

    def measure(self, campaign: Campaign, boards: int, groups: int, orders: int) -> None:
        vacuum()
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            started = time.perf_counter()
            run = turn_run(campaign_id=campaign.pk, number=1)
            seconds = time.perf_counter() - started
        assert run.opened is not None, "turn 1 was not open"
        statuses = order_statuses(campaign, 1)
        out = self.stdout.write
        out(f"turn job: {seconds:.3f} s total, {seconds / boards:.3f} s per board")
        out(
            f"  {groups * boards / seconds:,.0f} groups/s, {orders / seconds:,.0f} orders/s; "
            f"campaign row lock held {run.locked_seconds:.3f} s"
        )
        out(f"SQL queries: {counter.count} total, {counter.count / boards:.1f} per board")
        out(f"orders: {dict(sorted(statuses.items()))}")
