"""The things on the table (RULES parts 1-2): departments, alignments, links, structures.

`Board` is the engine's private working copy of one board. The public functions parse the
caller's state into a fresh Board, change only that copy, and serialise it back, so inputs are
never mutated.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import EngineError, OrderRejected

# R3: the three resource types, in the fixed order drops and discards use (Money, People,
# Authority), and the stat each one is tied to.
TYPES: tuple[str, ...] = ("money", "people", "authority")
STAT_TYPE: dict[str, str] = {"effect": "money", "obstruct": "people", "impress": "authority"}

Tokens = dict[str, int]


def no_tokens() -> Tokens:
    return dict.fromkeys(TYPES, 0)


# R5: the card game's ten alignments.
DEFAULT_ALIGNMENTS: list[dict[str, object]] = [
    {"name": "Government", "opposite": "Communist"},
    {"name": "Liberal", "opposite": "Conservative"},
    {"name": "Peaceful", "opposite": "Violent"},
    {"name": "Straight", "opposite": "Weird"},
    {"name": "Criminal"},
    {"name": "Fanatic", "self_opposed": True},
]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """R5: an alignment catalogue. Names are compared case-insensitively."""

    names: frozenset[str]
    opposite: dict[str, str]
    self_opposed: frozenset[str]

    @classmethod
    def parse(cls, entries: object) -> Catalogue:
        if entries is None:
            entries = DEFAULT_ALIGNMENTS
        if not isinstance(entries, list):
            raise EngineError("alignments must be a list")
        names: set[str] = set()
        opposite: dict[str, str] = {}
        self_opposed: set[str] = set()
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise EngineError("each alignment needs a name")
            name = entry["name"].casefold()
            names.add(name)
            if entry.get("self_opposed"):
                self_opposed.add(name)
            other = entry.get("opposite")
            if other is None:
                continue
            if not isinstance(other, str):
                raise EngineError(f"alignment {entry['name']}: opposite must be a name")
            other = other.casefold()
            names.add(other)
            for a, b in ((name, other), (other, name)):
                if opposite.get(a, b) != b:
                    raise EngineError(f"alignment {a} has two opposites")
                opposite[a] = b
        if self_opposed & opposite.keys():
            raise EngineError("a self-opposed alignment cannot also have an opposite")
        return cls(frozenset(names), opposite, frozenset(self_opposed))

    def check_department(self, alignments: Iterable[str]) -> None:
        """R4/R5: at most three known alignments, never one together with its opposite."""
        held = [a.casefold() for a in alignments]
        if len(held) > 3:
            raise EngineError("at most three alignments")
        for name in held:
            if name not in self.names:
                raise EngineError(f"unknown alignment {name!r}")
            if self.opposite.get(name) in held:
                raise EngineError(f"holds {name} together with its opposite (R5)")

    def counts(self, a: Iterable[str], b: Iterable[str]) -> tuple[int, int]:
        """R6: (identical, opposed) between two departments' alignments."""
        held_a = {x.casefold() for x in a}
        held_b = {x.casefold() for x in b}
        both = held_a & held_b
        identical = len(both - self.self_opposed)
        opposed = sum(1 for x in held_a if self.opposite.get(x) in held_b)
        opposed += len(both & self.self_opposed)
        return identical, opposed


def alignment_counts(
    a: list[str], b: list[str], catalogue: list[dict[str, object]] | None = None
) -> tuple[int, int]:
    """R6: (identical, opposed) for two alignment lists under a catalogue (default R5)."""
    return Catalogue.parse(catalogue).counts(a, b)


@dataclass(slots=True)
class Department:
    """R4: one card. `consumes`/`produces` are (type, amount) or None."""

    slug: str
    name: str
    effect: int
    obstruct: int
    impress: int
    consumes: tuple[str, int] | None
    produces: tuple[str, int] | None
    functions: dict[str, int]
    alignments: list[str]
    stash: Tokens
    structure: str | None
    home: bool
    defence: Tokens
    moved: Tokens
    capacity: int | None = None

    def produced_amount(self) -> int:
        return self.produces[1] if self.produces else 0

    def move_capacity(self) -> int:
        """R36/R42: what the last spawn-consume computed, else the produced amount (L = 1)."""
        return self.capacity if self.capacity is not None else self.produced_amount()

    def total(self) -> int:
        return sum(self.stash.values())

    def function_skill(self, function: str) -> int | None:
        """The skill of one of its functions (names compared case-insensitively), or None."""
        wanted = function.casefold()
        for name, skill in self.functions.items():
            if name.casefold() == wanted:
                return skill
        return None

    def spend(self, tokens: Tokens) -> None:
        """R21: spent tokens leave the game. Moved tokens go first, so unmoved ones stay
        available for a later move (the rules leave the choice open; this favours the player)."""
        for kind, n in tokens.items():
            if n > self.stash[kind]:
                raise OrderRejected(f"{self.slug} holds only {self.stash[kind]} {kind}")
        for kind, n in tokens.items():
            self.stash[kind] -= n
            self.moved[kind] = max(0, self.moved[kind] - n)


@dataclass(slots=True)
class Settings:
    max_out_links: int = 2
    max_in_links: int = 2
    attempts_per_turn: int = 1


@dataclass(slots=True)
class Board:
    """A working copy of one board: departments, links (ordered by funding priority) and
    the catalogue. `out_links[s]` lists s's consumers, rank 0 first (R12)."""

    departments: dict[str, Department]
    catalogue: Catalogue
    settings: Settings
    out_links: dict[str, list[str]] = field(default_factory=dict)
    in_links: dict[str, list[str]] = field(default_factory=dict)

    def department(self, slug: object) -> Department:
        if not isinstance(slug, str) or slug not in self.departments:
            raise OrderRejected(f"no department {slug!r} on this board")
        return self.departments[slug]

    def has_link(self, supplier: str, consumer: str) -> bool:
        return consumer in self.out_links.get(supplier, ())

    def link_problem(self, supplier: Department, consumer: Department) -> str | None:
        """R10-R11: why a new link supplier->consumer would be illegal, or None."""
        problem = self.type_problem(supplier, consumer)
        if problem:
            return problem
        if len(self.out_links.get(supplier.slug, ())) >= self.settings.max_out_links:
            return f"{supplier.slug} has no free outgoing link (R11)"
        if len(self.in_links.get(consumer.slug, ())) >= self.settings.max_in_links:
            return f"{consumer.slug} has no free incoming link (R11)"
        return None

    def type_problem(self, supplier: Department, consumer: Department) -> str | None:
        """R10: why a link supplier->consumer is illegal whatever the limits, or None."""
        if supplier.slug == consumer.slug:
            return "a department cannot link to itself (R10)"
        if self.has_link(supplier.slug, consumer.slug):
            return f"{supplier.slug} already links to {consumer.slug} (R10)"
        if not supplier.produces or not consumer.consumes:
            return f"{supplier.slug} does not produce what {consumer.slug} consumes (R10)"
        if supplier.produces[0] != consumer.consumes[0]:
            return f"{supplier.slug} does not produce what {consumer.slug} consumes (R10)"
        return None

    def add_link(self, supplier: str, consumer: str) -> None:
        """R12: a new link is ranked last."""
        self.out_links.setdefault(supplier, []).append(consumer)
        self.in_links.setdefault(consumer, []).append(supplier)

    def remove_link(self, supplier: str, consumer: str) -> None:
        self.out_links[supplier].remove(consumer)
        self.in_links[consumer].remove(supplier)

    def linked_within_structure(self, dept: Department) -> bool:
        """R13: has a link to or from another department of its own structure."""
        others = self.out_links.get(dept.slug, []) + self.in_links.get(dept.slug, [])
        return any(self.departments[o].structure == dept.structure for o in others)

    def apply_departures(self, structure: str | None = None) -> None:
        """R13: non-home departments with no link inside their structure leave it (become
        uncontrolled, keep their stash). One pass suffices: a leaver had no link inside the
        structure, so its leaving cannot strand another member."""
        leavers = [
            d
            for d in self.departments.values()
            if d.structure is not None
            and (structure is None or d.structure == structure)
            and not d.home
            and not self.linked_within_structure(d)
        ]
        for dept in leavers:
            dept.structure = None
