"""Exact odds of a linking attempt (RULES R20, R43), for the preview on the order form.

Each die succeeds independently with probability p = (faces f in 1..10 with f + skill >= tn)
/ 10, so a pool's successes are binomial; the attacker wins only with strictly more
successes than the defender (ties go to the defender). Fractions keep it exact.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def die_chance(skill: int, tn: int, sides: int = 10) -> Fraction:
    """R20: one die's chance of face + skill >= tn (tn is not clamped)."""
    hits = sum(1 for face in range(1, sides + 1) if face + skill >= tn)
    return Fraction(hits, sides)


def successes_distribution(dice: int, skill: int, tn: int) -> list[Fraction]:
    """P(k successes) for k = 0..dice."""
    p = die_chance(skill, tn)
    return [comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)]


def attack_wins(
    *, attack_dice: int, attack_skill: int, attack_tn: int, defend_dice: int, defend_skill: int,
    defend_tn: int = 7,
) -> Fraction:  # fmt: skip
    """R43 step 5: P(attacker's successes > defender's)."""
    attack = successes_distribution(attack_dice, attack_skill, attack_tn)
    defend = successes_distribution(defend_dice, defend_skill, defend_tn)
    below = Fraction(0)  # P(defender < a), built up as a grows
    chance = Fraction(0)
    for a, p_attack in enumerate(attack):
        if a > 0 and a - 1 < len(defend):
            below += defend[a - 1]
        chance += p_attack * below
    return chance
