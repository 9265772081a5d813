"""A turn played with a defence in it, and what the defence spent, for the report tests."""

from __future__ import annotations

from campaigns.models import Campaign, Department, Knowledge, Shtick
from campaigns.services.demo import demo_create
from tests.support.demo import Played, play_turn_one

SPENT = (
    "The City Watch rolled 5 dice at skill 1 (Obstruct 3, 1 Money and 1 People of its "
    "standing defence, 1 die from shticks)"
)


def play(*, carol_knows_the_watch: bool) -> Played:
    """Turn 1 of the demo with the Watch's defence set, under a seed where it holds."""

    def create() -> Campaign:
        campaign = demo_create()
        members = {m.user.username: m for m in campaign.memberships.select_related("user")}
        Department.objects.filter(board__campaign=campaign, slug="city-watch").update(
            money=2, people=1, authority=0, defence={"money": 1, "people": 1, "authority": 1}
        )
        Shtick.objects.create(
            member=members["alice"], kind="dice",
            data={"kind": "dice", "roll": "defend", "department": None, "amount": 1},
        )  # fmt: skip
        if not carol_knows_the_watch:
            Knowledge.objects.filter(player=members["carol"], department__slug="city-watch").update(
                level=Knowledge.Level.RUMOURED
            )
        return campaign

    return play_turn_one(create, carol_attempt="failed")
