"""The R50 levels a player's reports show them, read from the report pages."""

from __future__ import annotations

from tests.support.fog import (
    CARDS,
    demo_levels,
)


def report_levels(username: str) -> dict[str, int]:
    """What a player may see in turn 1's report: the levels now (after the capture), and
    `controlled` for what they controlled before the turn (their own departments then)."""
    before = demo_levels()[username]
    after = demo_levels({**{s: c.owner for s, c in CARDS.items()}, "city-watch": "carol"})[username]
    return {s: max(before[s], after[s]) for s in CARDS}
