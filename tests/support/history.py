"""The demo campaign Tourmaline after three processed turns, for the history tests (issue 11).

- Turn 1 (tests/support/demo.py): Carol's Thieves' Guild captures Alice's City Watch.
- Turn 2: Carol links the City Watch to her Temple; then Alice's Mint captures the City Watch
  back, which removes that new link within the same turn (a link made and gone again).
- Between turns 2 and 3 the GM (R53) tells Alice of Bob's Printing Press (`known`: a
  department she learns only now) and sets the Mint's Money to 41.
- Turn 3: Bob's Printing Press tries to link the uncontrolled Tax Office, and fails.

Each turn's seed is chosen before processing (as in tests/support/demo.py), so the captures
and the failure always happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.engine.dice import commitment
from campaigns.models import Campaign, Department, Knowledge, Order, TurnRecord
from campaigns.services.demo import demo_create
from campaigns.services.turns import turn_process
from tests.support.demo import Played, play_turn_one, seed_where
from tests.support.fog import own_link_ends

LEARNED_LATER = "printing-press"  # Alice learns of it between turns 2 and 3
UNKNOWN, RUMOURED, KNOWN, CONTROLLED = 0, 1, 2, 3


@dataclass
class ThreeTurns:
    played: Played

    @property
    def campaign(self) -> Campaign:
        return self.played.campaign


def play_turn(
    played: Played, number: int, orders: list[tuple[str, str, dict[str, Any]]], wanted: str
) -> None:
    """Queue `orders` (player, kind, payload) on the city board for turn `number`, pick a
    seed under which its last order (an attempt) ends `wanted`, and process the turn."""
    campaign = played.campaign
    turn = campaign.turns.get(number=number)
    city = campaign.boards.get(slug="city")
    rows = [
        Order.objects.create(
            turn=turn, board=city, player=played.members[player], kind=kind, payload=payload,
            seq=seq,
        )
        for seq, (player, kind, payload) in enumerate(orders, start=1)
    ]  # fmt: skip
    turn.seed = seed_where(turn, rows, rows[-1], wanted, prefix="history-tests")
    turn.commitment = commitment(turn.seed)
    turn.save(update_fields=["seed", "commitment"])
    turn_process(campaign_id=campaign.pk, number=number)


def gm_changes_before_turn_three(played: Played) -> None:
    """R53, as the GM's pages would make them (the audit log is not what is tested here)."""
    alice = played.members["alice"]
    Knowledge.objects.update_or_create(
        player=alice,
        department=Department.objects.get(board__campaign=played.campaign, slug=LEARNED_LATER),
        defaults={"level": KNOWN},
    )
    Department.objects.filter(board__campaign=played.campaign, slug="mint").update(money=41)


TURN_TWO = [
    ("carol", Order.Kind.ADD_LINK, {"from": "city-watch", "to": "temple"}),
    ("alice", Order.Kind.ATTEMPT, {"attacker": "mint", "target": "city-watch"}),
]
TURN_THREE = [("bob", Order.Kind.ATTEMPT, {"attacker": "printing-press", "target": "tax-office"})]


def play_three_turns(create: Any = demo_create) -> ThreeTurns:
    played = play_turn_one(create)
    play_turn(played, 2, TURN_TWO, "succeeded")
    gm_changes_before_turn_three(played)
    play_turn(played, 3, TURN_THREE, "failed")
    return ThreeTurns(played)


def recorded_levels(record: TurnRecord, player_id: str, member_pk: int) -> dict[str, int]:
    """R51 computed here from the record itself (not through selectors): slug -> the level
    the player had at the end of the record's turn: `controlled` for what their structure
    held then, else the stored level capped at `known`, and at least `rumoured` for the
    other end of a link of theirs then (R50)."""
    stored = record.knowledge.get(str(member_pk), {})
    levels = {
        d["slug"]: CONTROLLED
        if d.get("structure") == player_id
        else min(int(stored.get(d["slug"], UNKNOWN)), KNOWN)
        for d in record.state["departments"]
    }
    return own_link_ends(levels, [(lk["from"], lk["to"]) for lk in record.state["links"]])
