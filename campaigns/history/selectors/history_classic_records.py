"""A classic board's history (RULES R51, R90-R99) read from what the turn job recorded: the
board after each processed turn, as ENGINE.md part 10's state in its TurnRecord
(models/classic.py). One query whatever the number of turns or groups.

Only the parts the history shows are read, cut out by the database: the groups, the players'
ids, the destroyed counts and the deck. Never the seed, the orders or the goals: a goal is
its player's (R99), and the history pages have no use for it. The deck is read only to know
which groups were face down (for its size, and for "entered from the deck"): its order is
nobody's (R99) and no view-model built from it keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.db.models.fields.json import KeyTransform

from campaigns.models import Board, Turn, TurnRecord

# A group's place (ENGINE.md part 10).
STRUCTURE, TABLE, DECK, DESTROYED = "structure", "table", "deck", "destroyed"


@dataclass(frozen=True)
class ClassicGroup:
    """One group after a turn, as recorded: what R99 makes public, and its treasury, which
    only a reader's `sees_classic_secret` may pass on."""

    slug: str
    name: str
    place: str
    controller: str | None  # an engine player id, in a structure only
    parent: str | None  # a group's slug, in a structure only (None for an Illuminati)
    illuminati: bool
    treasury: int


@dataclass(frozen=True)
class ClassicRecorded:
    """One processed turn of a classic board: its groups (by slug, in the state's order) and
    its players' engine ids."""

    number: int
    board_slug: str
    players: list[str]
    groups: dict[str, ClassicGroup]

    def in_play(self) -> list[ClassicGroup]:
        """Every group but the deck's (R99: the deck is nobody's but for its size)."""
        return [g for g in self.groups.values() if g.place != DECK]

    def deck_size(self) -> int:
        return sum(1 for g in self.groups.values() if g.place == DECK)


def whole(value: object) -> int:
    """A recorded number as a whole number; anything else as 0 (the engine checked it)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def group_of(raw: dict[str, Any], deck: set[str]) -> ClassicGroup:
    slug = str(raw.get("slug"))
    place = str(raw.get("place") or (DECK if slug in deck else TABLE))
    in_structure = place == STRUCTURE
    return ClassicGroup(
        slug=slug,
        name=str(raw.get("name") or slug),
        place=place,
        controller=str(raw["controller"]) if in_structure and raw.get("controller") else None,
        parent=str(raw["parent"]) if in_structure and raw.get("parent") else None,
        illuminati=bool(raw.get("illuminati")),
        treasury=whole(raw.get("treasury")),
    )


PARTS = {
    "groups": KeyTransform("groups", "state"),
    "players": KeyTransform("players", "state"),
    "deck": KeyTransform("deck", "state"),
}


def classic_recorded(board: Board, numbers: list[int] | None = None) -> list[ClassicRecorded]:
    """The processed turns of classic `board` (only `numbers`, if given), turn 0 first. One
    query."""
    rows = TurnRecord.objects.filter(board=board, turn__status=Turn.Status.PROCESSED)
    if numbers is not None:
        rows = rows.filter(turn__number__in=numbers)
    found = rows.order_by("turn__number").values(number=F("turn__number"), **PARTS)
    records = []
    for row in found:
        deck = {str(s) for s in row["deck"] or []}
        groups = [group_of(g, deck) for g in row["groups"] or [] if isinstance(g, dict)]
        players = [str(p.get("id")) for p in row["players"] or [] if isinstance(p, dict)]
        records.append(
            ClassicRecorded(
                number=row["number"],
                board_slug=board.slug,
                players=players,
                groups={g.slug: g for g in groups},
            )
        )
    return records
