"""The attempt form's preview (RULES R43, R6): what the linking attempt costs, its target
number and the exact chance it succeeds (engine/odds.py), from what the player may know
(R50)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from campaigns.engine.board import TYPES, Catalogue
from campaigns.engine.odds import attack_wins
from campaigns.selectors.visibility import Level
from campaigns.web.order_choices import OrderContext


@dataclass(frozen=True)
class AttemptPreview:
    """R43 and R6 for the attempt form: cost, target number, exact chance (odds.py)."""

    cost: int
    cost_type: str
    tn: int
    identical: int
    opposed: int
    attack_dice: int
    attack_skill: int
    defend_dice: int
    defend_skill: int
    defence_known: bool
    chance: Fraction

    @property
    def percent(self) -> str:
        return f"{float(self.chance) * 100:.1f}%"


def attempt_preview(ctx: OrderContext, payload: dict[str, Any]) -> AttemptPreview:
    """The attacker rolls Impress + spent Authority dice, skill Linking + other spent tokens,
    for 7 + opposed - identical; the target rolls Obstruct (+ its standing defence, which the
    player knows only for their own departments, R50) for 7."""
    depts = ctx.departments
    attacker, target = depts[payload["attacker"]], depts[payload["target"]]
    catalogue = Catalogue.parse(ctx.state.get("alignments"))
    identical, opposed = catalogue.counts(attacker["alignments"], target["alignments"])
    spend = payload.get("spend") or {}
    linking = next((s for n, s in attacker["functions"].items() if n.casefold() == "linking"), 0)
    known = ctx.levels[target["slug"]] == Level.CONTROLLED
    defence = {t: min(target["defence"].get(t, 0), target["stash"].get(t, 0)) for t in TYPES}
    if not known:
        defence = dict.fromkeys(TYPES, 0)
    attack_dice = attacker["impress"] + spend.get("authority", 0)
    attack_skill = linking + spend.get("money", 0) + spend.get("people", 0)
    defend_dice = target["obstruct"] + defence["people"]
    defend_skill = defence["money"] + defence["authority"]
    tn = 7 + opposed - identical
    chance = attack_wins(
        attack_dice=attack_dice, attack_skill=attack_skill, attack_tn=tn,
        defend_dice=defend_dice, defend_skill=defend_skill,
    )  # fmt: skip
    return AttemptPreview(
        cost=2 * target["consumes"]["amount"],
        cost_type=target["consumes"]["type"],
        tn=tn,
        identical=identical,
        opposed=opposed,
        attack_dice=attack_dice,
        attack_skill=attack_skill,
        defend_dice=defend_dice,
        defend_skill=defend_skill,
        defence_known=known,
        chance=chance,
    )
