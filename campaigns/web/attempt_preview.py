"""The attempt preview (RULES R43, R6, R21, R47) and the attempt form's problems, in words:
the engine's pools and cost (engine/attempts.py) and its exact odds (engine/odds.py), the
stat each side rolls, why a pool has no dice, why an attempt cannot win, and one plain
sentence per problem. No rules arithmetic here: every number comes from the engine."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from campaigns.engine.attempts import AttemptPools, attempt_pools
from campaigns.engine.joined import SEP
from campaigns.engine.odds import attack_wins, die_chance
from campaigns.selectors.order_context import OrderContext
from campaigns.words import game, labels
from campaigns.words.labels import STAT_LABELS, TYPE_LABELS


def stat_label(stat: str) -> str:
    return str(STAT_LABELS.get(stat, stat.title()))


def type_label(kind: str) -> str:
    return str(TYPE_LABELS.get(kind, kind.title()))


@dataclass(frozen=True)
class AttemptPreview:
    """R43 and R6 for the attempt form: the engine's pools and cost, the exact chance, and
    in words: what is missing if the attacker cannot pay cost + spend, why a pool has no
    dice, and why the attempt cannot win (None where it can)."""

    pools: AttemptPools
    chance: Fraction
    missing: str | None
    attack_empty: str | None
    defend_empty: str | None
    hopeless: str | None

    @property
    def percent(self) -> str:
        """The chance as a percentage in the active language ('13.0%', '13,0 %')."""
        return labels.percent_text(float(self.chance) * 100)

    @property
    def attack_stat(self) -> str:
        return stat_label(self.pools.attack.stat)

    @property
    def defend_stat(self) -> str:
        return stat_label(self.pools.defend_stat)

    @property
    def cost_text(self) -> str:
        """R43 step 1: "2 tokens: 2 People (the default: the type the target consumes)",
        or the player's own split, "2 tokens: 1 Money and 1 People (as you split it)"; only
        the count when the split is wrong (`missing` says what is wrong)."""
        tokens = labels.count(self.pools.cost, "token")
        if self.pools.cost_problem:
            return tokens
        split = labels.tokens_text(self.pools.paid)
        if self.pools.cost_named is None:
            how = _("%(split)s (the default: the type the target consumes)") % {"split": split}
        else:
            how = _("%(split)s (as you split it)") % {"split": split}
        return f"{tokens}: {how}"

    def __getattr__(self, name: str) -> Any:
        """cost, cost_type, defence_known, defend_dice, defend_skill (the pools'), and tn,
        identical, opposed, attack_dice, attack_skill (the attack pool's)."""
        if name in ("cost", "cost_type", "defence_known", "defend_dice", "defend_skill"):
            return getattr(self.pools, name)
        attack = {"attack_dice": "dice", "attack_skill": "skill"}.get(name, name)
        if attack in ("dice", "skill", "tn", "identical", "opposed"):
            return getattr(self.pools.attack, attack)
        raise AttributeError(name)


def missing_text(ctx: OrderContext, attacker: str, pools: AttemptPools) -> str | None:
    """R43: one sentence per problem: "The cost is 2 tokens; you named 3." for a split of
    the wrong size, else "The Mint holds 1 Authority; the attempt needs 9." per type short."""
    if pools.covered:
        return None
    if pools.cost_problem:
        if pools.cost_named is not None and pools.cost_named != pools.cost:
            return _("The cost is %(cost)s; you named %(named)s.") % {
                "cost": labels.count(pools.cost, "token"),
                "named": pools.cost_named,
            }
        return game.with_names(pools.cost_problem, {})
    return " ".join(
        _("%(department)s holds %(held)s %(type)s; the attempt needs %(needed)s.")
        % {
            "department": ctx.name(attacker),
            "held": held,
            "type": type_label(kind),
            "needed": needed,
        }
        for kind, (held, needed) in pools.short.items()
    )


def attack_empty_text(ctx: OrderContext, attacker: str, pools: AttemptPools) -> str | None:
    """R21, R43 step 3: why the attacker rolls no dice (its stat is 0 and nothing of the
    stat's type is spent on it), or None."""
    if pools.attack.dice:
        return None
    return _(
        "%(department)s rolls no dice: its %(stat)s is 0 and no %(type)s is spent on the "
        "roll (each %(type)s spent adds a die)."
    ) % {
        "department": ctx.name(attacker),
        "stat": stat_label(pools.attack.stat),
        "type": type_label(pools.attack.die_type),
    }


def defend_empty_text(ctx: OrderContext, target: str, pools: AttemptPools) -> str | None:
    """R43 step 4, R47: why the target rolls no dice, as far as the player knows."""
    if pools.defend_dice:
        return None
    values = {
        "department": ctx.name(target),
        "stat": stat_label(pools.defend_stat),
        "type": type_label(pools.defend_die_type),
    }
    if pools.defence_known:
        text = _("%(department)s rolls no dice: its %(stat)s is 0 and it spends no %(type)s.")
    else:
        text = _(
            "%(department)s rolls no dice: its %(stat)s is 0 and, as far as you know, it "
            "spends no %(type)s."
        )
    return text % values


def hopeless_text(pools: AttemptPools, chance: Fraction, attack_empty: str | None) -> str | None:
    """R20, R43 step 5: why an attempt whose chance is 0 cannot win, or None."""
    if chance:
        return None
    attack = pools.attack
    if attack_empty is not None:
        why = attack_empty
    elif not die_chance(attack.skill, attack.tn):
        why = _("no face of a die plus skill %(skill)s reaches %(tn)s.") % {
            "skill": attack.skill,
            "tn": attack.tn,
        }
    else:
        why = _("your roll can never beat the defender's, and ties go to the defender.")
    return _(
        "This attempt cannot win (0%%): %(why)s Queued, it would still pay its cost, spend "
        "what you name for the roll and use this turn's attempt."
    ) % {"why": why}


def attempt_preview(ctx: OrderContext, payload: dict[str, Any]) -> AttemptPreview:
    """The engine's pools for this attempt on the planned board; the target's standing
    defence counts only where the player knows it, their own departments (R47, R50)."""
    attacker, target = payload["attacker"], payload["target"]
    engine_attacker = attacker
    planned = ctx.legal().planned
    cross = ctx.cross() if SEP in target else None
    if cross is not None:  # R60: on the boards joined, as the engine names them there
        planned, engine_attacker = cross.planned, cross.engine_name(attacker)
    pools = attempt_pools(
        planned, engine_attacker, target, spend=payload.get("spend"),
        cost=payload.get("cost"), defence_known=ctx.controlled(target),
    )  # fmt: skip
    chance = attack_wins(
        attack_dice=pools.attack.dice, attack_skill=pools.attack.skill,
        attack_tn=pools.attack.tn, defend_dice=pools.defend_dice,
        defend_skill=pools.defend_skill,
    )  # fmt: skip
    attack_empty = attack_empty_text(ctx, attacker, pools)
    return AttemptPreview(
        pools,
        chance,
        missing_text(ctx, engine_attacker, pools),
        attack_empty,
        defend_empty_text(ctx, target, pools),
        hopeless_text(pools, chance, attack_empty),
    )
