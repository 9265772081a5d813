"""The things on the table (RULES parts 1-2): departments, alignments, links, structures.

`Board` is the engine's private working copy of one board. The public functions parse the
caller's state into a fresh Board, change only that copy, and serialise it back, so inputs are
never mutated.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .errors import EngineError, OrderRejected
from .refusals import refuse
from .sheets import Sheets

if TYPE_CHECKING:
    from .envelopes import Envelope
    from .goals import Goal

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
            raise EngineError(refuse("alignments_list"))
        names: set[str] = set()
        opposite: dict[str, str] = {}
        self_opposed: set[str] = set()
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise EngineError(refuse("alignment_name"))
            name = entry["name"].casefold()
            names.add(name)
            if entry.get("self_opposed"):
                self_opposed.add(name)
            other = entry.get("opposite")
            if other is None:
                continue
            if not isinstance(other, str):
                raise EngineError(refuse("opposite_name", alignment=entry["name"]))
            other = other.casefold()
            names.add(other)
            for a, b in ((name, other), (other, name)):
                if opposite.get(a, b) != b:
                    raise EngineError(refuse("two_opposites", alignment=a))
                opposite[a] = b
        if self_opposed & opposite.keys():
            raise EngineError(refuse("self_opposed"))
        return cls(frozenset(names), opposite, frozenset(self_opposed))

    def check_department(self, alignments: Iterable[str]) -> None:
        """R4/R5: at most three known alignments, never one together with its opposite."""
        held = [a.casefold() for a in alignments]
        if len(held) > 3:
            raise EngineError(refuse("three_alignments"))
        for name in held:
            if name not in self.names:
                raise EngineError(refuse("unknown_alignment", alignment=name))
            if self.opposite.get(name) in held:
                raise EngineError(refuse("opposites_held", alignment=name))

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
    # ENGINE.md part 8: the board a department is on, in a state of several boards. Slugs
    # stay unique across the whole state (the engine's reading: a slug is the department's
    # id in the state, the board a separate key; a site whose boards share a slug qualifies
    # it, e.g. "harbour/mint", and maps it back). Departments without one share one board.
    board: str | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Department:
        """copy.deepcopy, field by field: the planner copies whole boards (engine/plan.py),
        and the generic walk over each department's dicts was most of an order form's time
        on a big board. Every mutable field gets its own copy; `replace` carries the rest
        (immutable values), a field added later included."""
        copied = replace(
            self,
            functions=dict(self.functions),
            alignments=list(self.alignments),
            stash=dict(self.stash),
            defence=dict(self.defence),
            moved=dict(self.moved),
        )
        memo[id(self)] = copied
        return copied

    def produced_amount(self) -> int:
        return self.produces[1] if self.produces else 0

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
                raise OrderRejected(
                    refuse("holds_only", dept=self.slug, held=self.stash[kind], kind=kind)
                )
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
    """A working copy of the state's board(s): departments, links (ordered by funding
    priority), the catalogue, and what lies beside them (ENGINE.md parts 7-9: players and
    offices in `sheets`, envelopes, goals, the office up for election). `out_links[s]` lists
    s's consumers, rank 0 first (R12)."""

    departments: dict[str, Department]
    catalogue: Catalogue
    settings: Settings
    out_links: dict[str, list[str]] = field(default_factory=dict)
    in_links: dict[str, list[str]] = field(default_factory=dict)
    sheets: Sheets = field(default_factory=Sheets)
    envelopes: list[Envelope] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    election: str | None = None

    def department(self, slug: object) -> Department:
        if not isinstance(slug, str) or slug not in self.departments:
            raise OrderRejected(refuse("no_such_department", slug=slug))
        return self.departments[slug]

    def has_link(self, supplier: str, consumer: str) -> bool:
        return consumer in self.out_links.get(supplier, ())

    def produced(self, dept: Department) -> int:
        """R32/R60: the produced amount with its controller's production shticks."""
        amount = dept.produced_amount()
        if amount and (self.sheets.players or self.sheets.offices):
            amount += self.sheets.production_bonuses(self.departments).get(dept.slug, 0)
        return amount

    def move_capacity(self, dept: Department) -> int:
        """R36/R42: what the last spawn-consume computed, else the produced amount (L = 1)."""
        return dept.capacity if dept.capacity is not None else self.produced(dept)

    def out_limit(self, dept: Department) -> int:
        """R11/R60: the most outgoing links `dept` may have for a new link. (Asked for every
        pair the order forms weigh, so the usual case, no shticks, returns at once.)"""
        if not (self.sheets.players or self.sheets.offices):
            return self.settings.max_out_links
        return self.limits(dept)[0]

    def in_limit(self, dept: Department) -> int:
        """R11/R60: the most incoming links `dept` may have for a new link."""
        if not (self.sheets.players or self.sheets.offices):
            return self.settings.max_in_links
        return self.limits(dept)[1]

    def limits(self, dept: Department) -> tuple[int, int]:
        """R11/R60: (outgoing, incoming) limits for new links: the campaign settings, unless
        a link_limit shtick of its controller replaces one."""
        out, into = self.sheets.link_limits(dept, self.departments)
        return (
            self.settings.max_out_links if out is None else out,
            self.settings.max_in_links if into is None else into,
        )

    def attempt_limit(self, player: str | None) -> int:
        """R43/R60: the player's linking attempts per turn, across every board of the state,
        with their attempts shticks."""
        extra = self.sheets.total(player, "attempts", self.departments)
        return self.settings.attempts_per_turn + extra

    def alignments(self, dept: Department) -> list[str]:
        """R6/R80: its alignments with those of the offices it holds or is deputy of."""
        return self.sheets.alignments(dept, self.catalogue)

    def crossing_problem(self, player: str | None, a: Department, b: Department) -> str | None:
        """R2/R60: a new link (or a linking attempt) between two boards needs a cross_board
        shtick of the player naming both; links already in the state are not checked."""
        if a.board == b.board:
            return None
        boards = frozenset((a.board or "", b.board or ""))
        if self.sheets.crosses(player, boards, self.departments):
            return None
        return refuse("different_boards", supplier=a.slug, consumer=b.slug)

    def link_problem(self, supplier: Department, consumer: Department) -> str | None:
        """R10-R11, R2: why a new link supplier->consumer would be illegal, or None. Both are
        in the ordering player's structure (R14), so the supplier's controller is that player."""
        problem = self.type_problem(supplier, consumer)
        if problem:
            return problem
        if len(self.out_links.get(supplier.slug, ())) >= self.out_limit(supplier):
            return refuse("no_free_out", dept=supplier.slug)
        if len(self.in_links.get(consumer.slug, ())) >= self.in_limit(consumer):
            return refuse("no_free_in", dept=consumer.slug)
        return self.crossing_problem(supplier.structure, supplier, consumer)

    def type_problem(self, supplier: Department, consumer: Department) -> str | None:
        """R10: why a link supplier->consumer is illegal whatever the limits, or None."""
        if supplier.slug == consumer.slug:
            return refuse("self_link")
        if self.has_link(supplier.slug, consumer.slug):
            return refuse("already_linked", supplier=supplier.slug, consumer=consumer.slug)
        if not supplier.produces or not consumer.consumes:
            return refuse("not_produced", supplier=supplier.slug, consumer=consumer.slug)
        if supplier.produces[0] != consumer.consumes[0]:
            return refuse("not_produced", supplier=supplier.slug, consumer=consumer.slug)
        return None

    def add_link(self, supplier: str, consumer: str) -> None:
        """R12: a new link is ranked last."""
        self.out_links.setdefault(supplier, []).append(consumer)
        self.in_links.setdefault(consumer, []).append(supplier)

    def remove_link(self, supplier: str, consumer: str) -> None:
        self.out_links[supplier].remove(consumer)
        self.in_links[consumer].remove(supplier)

    def cut_from_structure(self, dept: Department) -> None:
        """R44/R62: remove every link between `dept` and the other departments of its
        structure (it is about to leave it)."""
        old = dept.structure
        for supplier in list(self.in_links.get(dept.slug, ())):
            if self.departments[supplier].structure == old:
                self.remove_link(supplier, dept.slug)
        for consumer in list(self.out_links.get(dept.slug, ())):
            if self.departments[consumer].structure == old:
                self.remove_link(dept.slug, consumer)

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
