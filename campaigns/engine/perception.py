"""Perception checks (RULES R70, R71, ENGINE.md part 7): 3d6 and the player's Perception
open a department's intel envelopes. Resolved with the function rolls. The engine does not
check the player's knowledge of the department (the web layer does, R50) and changes no
knowledge level: the report says which envelopes opened."""

from __future__ import annotations

from .board import Board
from .dice import SumRoll, roll_faces
from .errors import OrderRejected
from .orders import Order, Outcome
from .refusals import refuse

DICE = 3
SIDES = 6
KEY_SUFFIX = ":perception"


def roll_sides(key: str) -> int:
    """R23, R70: the sides of the dice of the roll with key `key`: a perception check's
    ("<turn>:<order id>:perception") are d6, every other roll's d10 (R20)."""
    return SIDES if key.endswith(KEY_SUFFIX) else 10


def perceive(
    board: Board, order: Order, *, seed: str, turn: int, perceived: set[tuple[str, str]]
) -> Outcome:
    """R70: roll 3d6 (plus the player's perception `dice` shticks with department null, R60)
    by R23 with key "<turn>:<id>:perception"; the total is the faces plus Perception plus
    perception `skill` shticks (reported as the roll's skill). R71: every envelope of the
    department whose target the total meets and whose audience is everyone or lists the
    player opens. One check per department per player per turn."""
    dept = board.department(order.fields.get("department"))
    player = order.player or ""
    if (player, dept.slug) in perceived:
        raise OrderRejected(refuse("perceived_already", dept=dept.slug))
    more_dice, skill = board.sheets.roll_bonus(player, "perception", dept.slug, board.departments)
    skill += board.sheets.perception(player, board.departments)
    key = f"{turn}:{order.id}{KEY_SUFFIX}"
    dice = DICE + more_dice
    roll = SumRoll(key, dice, skill, tuple(roll_faces(seed, key, dice, SIDES)))
    opened = [e.id for e in board.envelopes if e.opens_for(player, dept.slug, roll.total)]
    perceived.add((player, dept.slug))
    return Outcome(rolls=[roll], extra={"total": roll.total, "envelopes": opened})
