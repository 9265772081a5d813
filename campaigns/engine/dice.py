"""Verifiable dice (RULES R20-R23).

Every die is derived from the turn's secret seed with HMAC-SHA256, never drawn from a global
random generator, so anyone holding the published seed can recompute a turn report.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import EngineError
from .refusals import refuse

SEED_PATTERN = re.compile(r"[0-9a-f]{64}")


def check_seed(seed_hex: object) -> str:
    """R23: a seed is 32 bytes written as 64 lowercase hex digits."""
    if not isinstance(seed_hex, str) or not SEED_PATTERN.fullmatch(seed_hex):
        raise EngineError(refuse("seed_hex"))
    return seed_hex


def commitment(seed_hex: str) -> str:
    """R23: the commitment published when a turn opens: sha256 of the seed's hex text."""
    return hashlib.sha256(check_seed(seed_hex).encode("ascii")).hexdigest()


def roll_faces(seed_hex: str, key: str, dice: int, sides: int = 10) -> list[int]:
    """R23: die i of roll `key` is HMAC-SHA256(seed, "<key>:<i>")[:8] big-endian mod sides + 1."""
    if dice < 0 or sides < 1:
        raise EngineError(refuse("dice_counts"))
    secret = bytes.fromhex(check_seed(seed_hex))
    faces = []
    for i in range(dice):
        digest = hmac.new(secret, f"{key}:{i}".encode(), hashlib.sha256).digest()
        faces.append(int.from_bytes(digest[:8], "big") % sides + 1)
    return faces


def order_digest(seed_hex: str, turn: int, order_id: str) -> str:
    """R43: the sort key of a linking attempt, HMAC-SHA256(seed, "<turn>:order:<id>") in hex."""
    message = f"{turn}:order:{order_id}".encode()
    return hmac.new(bytes.fromhex(seed_hex), message, hashlib.sha256).hexdigest()


class Reported(Protocol):
    """A roll as a turn report shows it (ENGINE.md `rolls`)."""

    def as_report(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Roll:
    """One dice pool roll (R20): a die succeeds when face + skill >= tn (tn is not clamped)."""

    key: str
    dice: int
    skill: int
    tn: int
    faces: tuple[int, ...]

    @property
    def successes(self) -> int:
        return sum(1 for face in self.faces if face + self.skill >= self.tn)

    def as_report(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "dice": self.dice,
            "skill": self.skill,
            "tn": self.tn,
            "faces": list(self.faces),
            "successes": self.successes,
        }


def roll_pool(seed_hex: str, key: str, *, dice: int, skill: int, tn: int) -> Roll:
    """R20: roll `dice` d10 for `tn` with `skill`; 0 dice give 0 successes."""
    return Roll(key, dice, skill, tn, tuple(roll_faces(seed_hex, key, dice)))


@dataclass(frozen=True, slots=True)
class SumRoll:
    """R70: a roll that is summed, not counted (a perception check: 3d6 and more dice from
    shticks, plus `skill`, the Perception and skill shticks). It has no target number and
    no successes; ENGINE.md reports both as null."""

    key: str
    dice: int
    skill: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces) + self.skill

    def as_report(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "dice": self.dice,
            "skill": self.skill,
            "tn": None,
            "faces": list(self.faces),
            "successes": None,
        }
