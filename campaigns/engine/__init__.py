"""The pure rules engine (RULES.md parts 1-5, 7-9): standard library only.

Public API (JSON-shaped dicts in and out, exactly the ENGINE.md contract):

- ``spawn_consume(state) -> dict``  RULES R32-R36, with R60 shticks and R61 goal progress
- ``resolve(state) -> dict``        RULES R40-R47, R60-R62, R70-R71, R80
- ``resolve_then_spawn(state) -> dict``  RULES R31 steps 2-3: both, in one pass
- ``roll_faces(seed_hex, key, dice, sides=10) -> list[int]``  RULES R23
- ``EngineError``: raised for bad input; its message is one line naming the problem.
"""

from .api import resolve, resolve_then_spawn, spawn_consume
from .dice import roll_faces
from .errors import EngineError

__all__ = ["EngineError", "resolve", "resolve_then_spawn", "roll_faces", "spawn_consume"]
