"""RULES R50 in a turn report: `visibility.level_of` with the history of the turn folded in.

A department the viewer controlled before or after the turn counts as controlled *for this
report*; one they control now but did not then is capped at `known` (its stash back then
belonged to someone else).
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns.models import Department, Membership
from campaigns.selectors.visibility import Level, level_of, sees_everything

from .report_view_models import UNNAMED


class Knowing:
    """R50 for one viewer and one board, with the history of this turn folded in."""

    def __init__(
        self,
        viewer: Membership,
        rows: Iterable[Department],
        knowledge: dict[int, int],
        controlled_then: set[str],
    ) -> None:
        self.full = sees_everything(viewer)
        self.rows = {d.slug: d for d in rows}
        self.levels: dict[str, Level] = {}
        for slug, dept in self.rows.items():
            now = level_of(dept, viewer, knowledge)
            if self.full or slug in controlled_then:
                level = Level.CONTROLLED
            else:
                # Controlled now but not during this turn: what it held then was someone
                # else's, so no more than the card.
                level = Level(min(now, Level.KNOWN))
            self.levels[slug] = level

    def level(self, slug: str) -> Level:
        return self.levels.get(slug, Level.UNKNOWN)

    def name(self, slug: object, *, at_least: Level = Level.RUMOURED) -> str:
        if isinstance(slug, str) and slug in self.rows and self.level(slug) >= at_least:
            return self.rows[slug].name
        return UNNAMED
