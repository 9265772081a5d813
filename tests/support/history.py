"""The demo campaign Tourmaline after three processed turns, for the history tests (issue 11).

- Turn 1 (tests/support/demo.py): Carol's Thieves' Guild captures Alice's City Watch.
- Turn 2: Carol links the City Watch to her Temple; then Alice's Mint captures the City Watch
  back, which removes that new link within the same turn (a link made and gone again).
- Between turns 2 and 3 the GM (R53) tells Alice of Bob's Printing Press (`known`: a
  department she learns only now) and sets the Mint's Money to 41.
- Turn 3: no orders.

Each attempt's seed is chosen before processing, as in tests/support/demo.py, so both
captures always happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns.engine.dice import commitment
from campaigns.models import Campaign, Department, Knowledge, Order, TurnRecord
from campaigns.services.demo import demo_create
from tests.support.demo import Played, play_turn_one, seed_for_capture

LEARNED_LATER = "printing-press"  # Alice learns of it between turns 2 and 3
UNKNOWN, RUMOURED, KNOWN, CONTROLLED = 0, 1, 2, 3


@dataclass
class ThreeTurns:
    played: Played

    @property
    def campaign(self) -> Campaign:
        return self.played.campaign


def play_turn_two(played: Played) -> None:
    campaign = played.campaign
    members = played.members
    turn = campaign.turns.get(number=2)
    city = campaign.boards.get(slug="city")

    def order(player: str, kind: str, seq: int, **payload: Any) -> Order:
        return Order.objects.create(
            turn=turn, board=city, player=members[player], kind=kind, payload=payload, seq=seq
        )

    orders = [
        order("carol", Order.Kind.ADD_LINK, 1, **{"from": "city-watch", "to": "temple"}),
        order("alice", Order.Kind.ATTEMPT, 1, attacker="mint", target="city-watch"),
    ]
    turn.seed = seed_for_capture(turn, orders, orders[1])
    turn.commitment = commitment(turn.seed)
    turn.save(update_fields=["seed", "commitment"])
    from campaigns.services.turns import turn_process

    turn_process(campaign_id=campaign.pk, number=2)


def gm_changes_before_turn_three(played: Played) -> None:
    """R53, as the GM's pages would make them (the audit log is not what is tested here)."""
    alice = played.members["alice"]
    Knowledge.objects.update_or_create(
        player=alice,
        department=Department.objects.get(board__campaign=played.campaign, slug=LEARNED_LATER),
        defaults={"level": KNOWN},
    )
    Department.objects.filter(board__campaign=played.campaign, slug="mint").update(money=41)


def play_three_turns(create: Any = demo_create) -> ThreeTurns:
    from campaigns.services.turns import turn_process

    played = play_turn_one(create)
    play_turn_two(played)
    gm_changes_before_turn_three(played)
    turn_process(campaign_id=played.campaign.pk, number=3)
    return ThreeTurns(played)


def recorded_levels(record: TurnRecord, player_id: str, member_pk: int) -> dict[str, int]:
    """R51 computed here from the record itself (not through selectors): slug -> the level
    the player had at the end of the record's turn: `controlled` for what their structure
    held then, else the stored level capped at `known`."""
    stored = record.knowledge.get(str(member_pk), {})
    return {
        d["slug"]: CONTROLLED
        if d.get("structure") == player_id
        else min(int(stored.get(d["slug"], UNKNOWN)), KNOWN)
        for d in record.state["departments"]
    }
