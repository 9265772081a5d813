"""Small classic boards (RULES part 10) for the engine's tests: alice and bob by default."""

from __future__ import annotations

import copy
from typing import Any

SEED = "0123456789abcdef" * 4


def group(slug: str, **fields: Any) -> dict[str, Any]:
    """A group on the table with P 0, T 0, R 0, I 0, one arrow; `fields` override."""
    base: dict[str, Any] = {
        "slug": slug, "name": slug.title(), "power": 0, "transferable": 0, "resistance": 0,
        "income": 0, "arrows": 1, "alignments": [], "treasury": 0, "place": "table",
        "controller": None, "parent": None,
    }  # fmt: skip
    base.update(fields)
    return base


def illuminati(slug: str, player: str, **fields: Any) -> dict[str, Any]:
    """A player's Illuminati: P 10, T 10, I 9, four arrows (R91)."""
    base = group(
        slug, illuminati=True, power=10, transferable=10, resistance=None, income=9,
        arrows=4, place="structure", controller=player,
    )  # fmt: skip
    base.update(fields)
    return base


def held(slug: str, player: str, parent: str, **fields: Any) -> dict[str, Any]:
    """A group in `player`'s structure hanging on `parent`."""
    return group(slug, place="structure", controller=player, parent=parent, **fields)


def board(*groups: dict[str, Any], orders: list[dict[str, Any]] | None = None,
          players: tuple[str, ...] = ("alice", "bob"), **extra: Any) -> dict[str, Any]:  # fmt: skip
    """A classic state holding each player's Illuminati (unless given) and `groups`."""
    given = {g["slug"] for g in groups}
    roots = [illuminati(f"{p}-illuminati", p) for p in players if f"{p}-illuminati" not in given]
    state: dict[str, Any] = {
        "ruleset": "classic", "turn": 1, "seed": SEED,
        "players": [{"id": p} for p in players],
        "groups": roots + [copy.deepcopy(g) for g in groups],
        "deck": [g["slug"] for g in groups if g["place"] == "deck"],
        "orders": orders or [],
    }  # fmt: skip
    state.update(extra)
    return state


def attack(oid: str, player: str, grp: str, target: str, aim: str = "control",
           **fields: Any) -> dict[str, Any]:  # fmt: skip
    return {"id": oid, "player": player, "kind": "attack", "group": grp, "target": target,
            "aim": aim, **fields}  # fmt: skip
