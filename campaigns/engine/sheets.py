"""Characters and offices beside the board (RULES R60, R70, R80): each player's Perception and
shticks from the R60 catalogue, and the offices with their alignment, shticks, holder and
deputy. Parsed from the ENGINE.md state (EngineError on bad input), then asked, at the moment a
rule uses them, what applies:

- a shtick naming a department applies only while that department is in its holder's
  structure (R60); one with `department` null applies to every department of the holder's
  structures;
- an office's shticks act as shticks of its holder's controller while the holder is in that
  player's structure (R80); the holder and the deputy count the office's alignment in R6
  unless they hold its opposite.

Several shticks of one kind add up; of several `link_limit` shticks for one department the
greatest limit of each direction counts (the engine's reading: each "raises" a limit, R11).
A shtick may name a department the state does not hold (the site may resolve one board at a
time while a player's shticks span the campaign): it then never applies, as for a department
outside the holder's structure. An office's holder and deputy, by contrast, must be
departments of the state: an office lives on one board, and the site passes it with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import EngineError
from .refusals import refuse
from .values import objects, optional_text, text, unique_ids, whole

if TYPE_CHECKING:
    from .board import Catalogue, Department

ROLLS = ("attack", "defend", "function", "perception")
KINDS = (
    "production",
    "dice",
    "skill",
    "attempts",
    "link_limit",
    "cross_board",
    "perception",
    "text",
)
# Kinds whose `amount` counts: each needs one (a whole number >= 0).
COUNTED = frozenset({"production", "dice", "skill", "attempts", "perception"})


@dataclass(frozen=True, slots=True)
class Shtick:
    """One R60 shtick. `into` is the JSON key "in" (a link_limit's incoming limit)."""

    kind: str
    amount: int = 0
    department: str | None = None
    roll: str | None = None
    out: int | None = None
    into: int | None = None
    boards: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Player:
    """R70: the character's Perception (set by the GM), and their shticks (R60)."""

    perception: int = 0
    shticks: tuple[Shtick, ...] = ()


@dataclass(slots=True)
class Office:
    """R80: an office; `holder` and `deputy` change when an election is won. `raw` is the
    state's object, written back with the new holder and deputy. `board`, optional, is the
    engine's reading for states of several boards: only that board's departments take part
    in its election (an office belongs to one board, RULES R80 "a department of the board")."""

    id: str
    alignment: str
    shticks: tuple[Shtick, ...]
    holder: str | None
    deputy: str | None
    board: str | None
    raw: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {**self.raw, "holder": self.holder, "deputy": self.deputy}


@dataclass(slots=True)
class Sheets:
    """The players and offices of a state: what their shticks and alignments change."""

    players: dict[str, Player] = field(default_factory=dict)
    offices: list[Office] = field(default_factory=list)

    def shticks(self, player: str | None, departments: Mapping[str, Department]) -> list[Shtick]:
        """R60, R80: the shticks that apply to `player` now: their own and those of every office
        whose holder is in their structure, each naming a department only while it is theirs."""
        if player is None or not (self.players or self.offices):
            return []
        own = self.players.get(player)
        found = list(own.shticks) if own else []
        for office in self.offices:
            holder = departments.get(office.holder) if office.holder else None
            if holder is not None and holder.structure == player:
                found.extend(office.shticks)
        return [
            s
            for s in found
            if s.department is None
            or (s.department in departments and departments[s.department].structure == player)
        ]

    def roll_bonus(
        self, player: str | None, roll: str, slug: str, departments: Mapping[str, Department]
    ) -> tuple[int, int]:
        """R60: (dice, skill) added to a roll of kind `roll` made by department `slug` of
        `player`; perception rolls take only shticks with `department` null."""
        dice = skill = 0
        for s in self.shticks(player, departments):
            if s.kind not in ("dice", "skill") or s.roll != roll:
                continue
            if s.department is None or (roll != "perception" and s.department == slug):
                if s.kind == "dice":
                    dice += s.amount
                else:
                    skill += s.amount
        return dice, skill

    def production_bonuses(self, departments: Mapping[str, Department]) -> dict[str, int]:
        """R60/R32/R36: slug -> what production shticks add to its produced amount (only for
        a department that produces something, held by its controller)."""
        bonus: dict[str, int] = {}
        for player in self.holders(departments):
            for s in self.shticks(player, departments):
                if s.kind == "production" and s.department and departments[s.department].produces:
                    bonus[s.department] = bonus.get(s.department, 0) + s.amount
        return bonus

    def holders(self, departments: Mapping[str, Department]) -> set[str]:
        """Every player who may hold a shtick now: the players listed, and the controllers of
        the offices' holders."""
        found = set(self.players)
        for office in self.offices:
            holder = departments.get(office.holder) if office.holder else None
            if holder is not None and holder.structure is not None:
                found.add(holder.structure)
        return found

    def link_limits(
        self, dept: Department, departments: Mapping[str, Department]
    ) -> tuple[int | None, int | None]:
        """R11/R60: (outgoing, incoming) limits of `dept` for new links by its controller's
        link_limit shticks; None where none replaces the campaign setting."""
        out: int | None = None
        into: int | None = None
        for s in self.shticks(dept.structure, departments):
            if s.kind == "link_limit" and s.department == dept.slug:
                if s.out is not None:
                    out = s.out if out is None else max(out, s.out)
                if s.into is not None:
                    into = s.into if into is None else max(into, s.into)
        return out, into

    def total(self, player: str | None, kind: str, departments: Mapping[str, Department]) -> int:
        """R60: the sum of the `kind` shticks (attempts, perception) that apply to `player`."""
        return sum(s.amount for s in self.shticks(player, departments) if s.kind == kind)

    def perception(self, player: str | None, departments: Mapping[str, Department]) -> int:
        """R70/R60: the character's Perception plus their perception shticks."""
        base = self.players[player].perception if player in self.players else 0
        return base + self.total(player, "perception", departments)

    def crosses(
        self, player: str | None, boards: frozenset[str], departments: Mapping[str, Department]
    ) -> bool:
        """R2/R60: whether `player` holds a cross_board shtick naming both boards."""
        return any(
            s.kind == "cross_board" and boards <= s.boards
            for s in self.shticks(player, departments)
        )

    def alignments(self, dept: Department, catalogue: Catalogue) -> list[str]:
        """R80/R6: the department's alignments plus those of the offices it holds or is deputy
        of, unless it holds the alignment or its opposite (checked against what it holds so
        far, offices in the state's order)."""
        if not self.offices:
            return dept.alignments
        held = list(dept.alignments)
        for office in self.offices:
            if dept.slug not in (office.holder, office.deputy):
                continue
            folded = {a.casefold() for a in held}
            name = office.alignment.casefold()
            if name not in folded and catalogue.opposite.get(name) not in folded:
                held.append(office.alignment)
        return held


def parse_sheets(
    players: object, offices: object, catalogue: Catalogue, departments: Mapping[str, Any]
) -> Sheets:
    return Sheets(parse_players(players), parse_offices(offices, catalogue, departments))


def parse_players(raw: object) -> dict[str, Player]:
    """ENGINE.md `players`: player id -> {perception, shticks}, both optional."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise EngineError(refuse("players_shape"))
    found = {}
    for player, sheet in raw.items():
        where = f"players.{player}"
        if not isinstance(sheet, dict):
            raise EngineError(refuse("player_sheet", player=player))
        perception = whole(sheet.get("perception", 0), f"{where}.perception")
        found[player] = Player(perception, parse_shticks(sheet.get("shticks"), where))
    return found


def parse_shticks(raw: object, where: str) -> tuple[Shtick, ...]:
    return tuple(
        parse_shtick(item, f"{where} shtick {index}")
        for index, item in enumerate(objects(raw, f"{where}.shticks"))
    )


def parse_shtick(raw: dict[str, Any], where: str) -> Shtick:
    """One shtick of the R60 catalogue; an unknown kind is an input error (ENGINE.md)."""
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise EngineError(refuse("shtick_kind", what=where, shtick_kind=kind))
    amount = whole(raw.get("amount"), f"{where}: amount") if kind in COUNTED else 0
    if kind == "production":
        return Shtick(kind, amount, text(raw.get("department"), f"{where}: department"))
    if kind == "link_limit":
        return Shtick(
            kind,
            department=text(raw.get("department"), f"{where}: department"),
            # Either limit may be left out: the campaign setting then stays (engine's reading).
            out=optional_whole(raw.get("out"), f"{where}: out"),
            into=optional_whole(raw.get("in"), f"{where}: in"),
        )
    if kind in ("dice", "skill"):
        roll = raw.get("roll")
        if not isinstance(roll, str) or roll not in ROLLS:
            raise EngineError(refuse("one_of", what=f"{where}: roll", allowed=", ".join(ROLLS)))
        department = optional_text(raw.get("department"), f"{where}: department")
        return Shtick(kind, amount, department, roll=roll)
    if kind == "cross_board":
        boards = raw.get("boards")
        if (
            not isinstance(boards, list)
            or len(boards) != 2
            or not all(isinstance(b, str) and b for b in boards)
            or boards[0] == boards[1]
        ):
            raise EngineError(refuse("cross_boards", what=where))
        return Shtick(kind, boards=frozenset(boards))
    return Shtick(kind, amount)  # attempts, perception, text


def optional_whole(value: object, what: str) -> int | None:
    return None if value is None else whole(value, what)


def parse_offices(
    raw: object, catalogue: Catalogue, departments: Mapping[str, Any]
) -> list[Office]:
    """ENGINE.md part 9 `offices`: id, name, alignment (of the catalogue), shticks, holder and
    deputy (departments of the state, or null)."""
    items = objects(raw, "offices")
    unique_ids(items, "offices")
    found = []
    for item in items:
        where = f"office {item['id']}"
        alignment = text(item.get("alignment"), f"{where}: alignment")
        if alignment.casefold() not in catalogue.names:
            raise EngineError(refuse("named_alignment", what=where, alignment=alignment))
        places = {}
        for post in ("holder", "deputy"):
            slug = optional_text(item.get(post), f"{where}: {post}")
            if slug is not None and slug not in departments:
                raise EngineError(refuse("office_department", what=f"{where}: {post}", slug=slug))
            places[post] = slug
        found.append(
            Office(
                id=str(item["id"]),
                alignment=alignment,
                shticks=parse_shticks(item.get("shticks"), where),
                holder=places["holder"],
                deputy=places["deputy"],
                board=optional_text(item.get("board"), f"{where}: board"),
                raw=item,
            )
        )
    return found


def parse_election(raw: object, offices: list[Office]) -> str | None:
    """ENGINE.md part 9 `election`: {"office": id of one of the offices}, or none."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise EngineError(refuse("election_shape"))
    office = raw.get("office")
    if not any(o.id == office for o in offices):
        raise EngineError(refuse("election_office", office=office))
    assert isinstance(office, str)
    return office
