"""RULES R50 and R51 in a turn report: what the viewer knew at that turn.

A report is read through the levels stored with its turn (`TurnRecord.knowledge`, the
viewer's levels at the end of the turn), never through what the viewer learned later: the
rule is `visibility.level_from`, the one place R50 lives. A department the viewer controlled
before or after the turn counts as controlled *for this report*; one they control now but did
not then is no more than its recorded level (its stash back then was someone else's).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaigns.models import Department, Membership
from campaigns.selectors.report_view_models import UNNAMED
from campaigns.selectors.visibility import Level, level_from, sees_everything, with_own_links


class Knowing:
    """R50 for one viewer and one board of one turn (R51)."""

    def __init__(
        self,
        viewer: Membership,
        rows: Iterable[Department],
        recorded: dict[str, Any],
        controlled_then: set[str],
        links: Iterable[tuple[str, str]] = (),
    ) -> None:
        """`recorded`: the turn's stored levels, {"<membership id>": {slug: level}};
        `links`: the viewer's own links of the turn (reports.own_links), whose other ends
        are at least `rumoured` to them (R50)."""
        self.full = sees_everything(viewer)
        self.rows = {d.slug: d for d in rows}
        self.names = {slug: d.name for slug, d in self.rows.items()}  # for the GM's reasons
        stored = recorded.get(str(viewer.pk), {})
        self.levels: dict[str, Level] = {
            slug: level_from(
                everything=self.full,
                controls=slug in controlled_then,
                stored=int(stored.get(slug, Level.UNKNOWN)),
            )
            for slug in self.rows
        }
        self.own = set(links)
        self.levels = with_own_links(self.levels, self.own)

    def sees_link(self, supplier: str, consumer: str) -> bool:
        """R50: both ends `known`, or a link of the viewer's own in the turn."""
        if (supplier, consumer) in self.own:
            return True
        return min(self.level(supplier), self.level(consumer)) >= Level.KNOWN

    def level(self, slug: str) -> Level:
        return self.levels.get(slug, Level.UNKNOWN)

    def name(self, slug: object, *, at_least: Level = Level.RUMOURED) -> str:
        if isinstance(slug, str) and slug in self.rows and self.level(slug) >= at_least:
            return self.rows[slug].name
        return str(UNNAMED)
