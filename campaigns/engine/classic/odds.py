"""The exact chance of a classic attack (RULES R95), for the preview on the order form."""

from __future__ import annotations

from fractions import Fraction

HIGHEST_SUCCESS = 10  # R95: 11 and 12 always fail


def attack_chance(need: int) -> Fraction:
    """R95: P(2d6 <= need and 2d6 <= 10), exactly."""
    top = min(need, HIGHEST_SUCCESS)
    hits = sum(1 for x in range(1, 7) for y in range(1, 7) if x + y <= top)
    return Fraction(hits, 36)


def succeeds(total: int, need: int) -> bool:
    """R95: a roll of 2d6 succeeds when its total is at most the need and at most 10."""
    return total <= min(need, HIGHEST_SUCCESS)
