"""The pure rules engine (RULES.md parts 1-5): standard library only.

Public API (JSON-shaped dicts in and out, exactly the ENGINE.md contract):

- ``spawn_consume(state) -> dict``  RULES R32-R36
- ``resolve(state) -> dict``        RULES R40-R47
- ``resolve_then_spawn(state) -> dict``  RULES R31 steps 2-3: both, in one pass
- ``roll_faces(seed_hex, key, dice, sides=10) -> list[int]``  RULES R23
- ``EngineError``: raised for bad input; its message is one line naming the problem.
"""

from .api import resolve, resolve_then_spawn, spawn_consume
from .dice import roll_faces
from .errors import EngineError

__all__ = ["EngineError", "resolve", "resolve_then_spawn", "roll_faces", "spawn_consume"]
