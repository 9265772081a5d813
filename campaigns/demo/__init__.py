"""The demo campaign "Tourmaline" as data: `campaign.json` (people, knowledge, deadline) and
one board file per board in the ENGINE.md state format plus `slug`, `name`, and each
department's `description` and `flaws` (services/boards.py imports them).

Plain reads, no Django: services/demo.py builds the campaign from these files, and tests read
the same facts (who owns what, who knows what) from here instead of repeating them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, NamedTuple


def demo_file(name: str) -> dict[str, Any]:
    """One of this package's JSON files, parsed."""
    data: dict[str, Any] = json.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))
    return data


def demo_campaign() -> dict[str, Any]:
    """campaign.json: name, slug, time_zone, deadline, boards (file names), people, knowledge."""
    return demo_file("campaign.json")


def demo_boards() -> list[dict[str, Any]]:
    """The board files in the order the campaign lists them (the demo creates them so)."""
    return [demo_file(name) for name in demo_campaign()["boards"]]


class DemoDepartment(NamedTuple):
    slug: str
    name: str
    board: str
    owner: str | None  # the board file's player id: a demo username, or None if uncontrolled


def demo_departments() -> dict[str, DemoDepartment]:
    """slug -> the department's name, board and owner, across every demo board."""
    return {
        dept["slug"]: DemoDepartment(dept["slug"], dept["name"], board["slug"], dept["structure"])
        for board in demo_boards()
        for dept in board["departments"]
    }


def demo_knowledge() -> dict[str, dict[str, int]]:
    """username -> department slug -> stored R50 level (own departments are not listed)."""
    knowledge: dict[str, dict[str, int]] = demo_campaign()["knowledge"]
    return knowledge
