"""A classic board (RULES R90-R92) from a spreadsheet: the CSV a GM prepares, turned into the
board file classic/services/boards.py imports (ENGINE.md part 10 with names), so it goes
through the same review and write as a JSON file. Only the reading is here; what the values
mean is the import's and the engine's to check.

One line per group, the first line naming the columns (any order; unknown ones are refused).
`slug`, `name` and `place` are required; a CSV whose first line names `place` is a classic
board's (a standard board's CSV has no such column).

- `place`: structure, table, deck or destroyed. The deck is the deck's lines in file order,
  top first.
- `controller` (a player's user name) and `parent` (the slug of the group it hangs on): for a
  group in a structure; an Illuminati has a controller and no parent.
- `illuminati`: yes on each player's Illuminati; its line also holds the player's `goal`
  (see `goal_of`) and `groups_destroyed` (how many groups the player has destroyed, R98).
  The players are the controllers of the Illuminati lines, in file order.
- `power`, `transferable`, `income`, `arrows`, `treasury`, `groups_destroyed`: whole numbers,
  empty 0; `resistance`: a whole number, empty for an Illuminati (it has none).
- `alignments`: "Criminal; Violent"; `bonuses`: "control 3 own Criminal; destroy 2" (aim,
  amount, then optionally own or any, then optionally an alignment); `description`: text.

A text cell beginning with =, +, - or @ is a formula to a spreadsheet and is refused unless a
quote (') comes first, which is taken off (campaigns/csv_cells.py, as the department CSV)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaigns.csv_cells import uncell
from campaigns.selectors.board_files import (
    FORMULA,
    BoardFileError,
    FileLines,
    records,
    shown,
    split,
)

COLUMNS = [
    "slug", "name", "illuminati", "power", "transferable", "resistance", "income", "arrows",
    "alignments", "bonuses", "place", "controller", "parent", "treasury", "goal",
    "groups_destroyed", "description",
]  # fmt: skip
REQUIRED = ("slug", "name", "place")
NUMBERS = ("power", "transferable", "income", "arrows", "treasury")
TEXT_COLUMNS = frozenset(COLUMNS) - {*NUMBERS, "resistance", "groups_destroyed"}
# The goal kinds (ENGINE.md part 10) and what follows each kind's word in the goal cell.
GOAL_AMOUNT = ("power", "transferable", "money", "destroyed")
GOAL_ALIGNMENT_AMOUNT = ("alignment", "in_play")
GOAL_KINDS = ("groups", *GOAL_AMOUNT, *GOAL_ALIGNMENT_AMOUNT, "every_alignment")
YES = ("yes", "true", "1")
NO = ("", "no", "false", "0")


def is_classic_csv(text: str) -> bool:
    """A CSV whose first line names a `place` column is a classic board's."""
    try:
        __, header = next(records(text), (1, []))
    except BoardFileError:
        return False
    return "place" in (h.strip().lower() for h in header)


def classic_board_and_lines_from_csv(
    text: str, *, slug: str, name: str
) -> tuple[dict[str, Any], FileLines]:
    """The classic board file the CSV `text` describes and the line of each group
    (BoardFileError listing every problem, each with its line and column)."""
    rows = records(text)
    __, first = next(rows, (1, []))
    header = [h.strip().lower() for h in first]
    problems = header_problems(header)
    if problems:
        raise BoardFileError(problems)
    groups: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    destroyed_by: dict[str, int] = {}
    lines = FileLines()
    for line, row in rows:
        if len(row) > len(header):
            problems.append(_("line %(n)s: more cells than columns") % {"n": line})
        cells = {column: value.strip() for column, value in zip(header, row, strict=False)}
        if not any(cells.values()):
            continue  # a blank line of the spreadsheet
        reading = GroupLine(line, cells)
        group = reading.group()
        if group.get("illuminati") and isinstance(group.get("controller"), str):
            player: dict[str, Any] = {"id": group["controller"]}
            goal = reading.goal()
            if goal is not None:
                player["goal"] = goal
            players.append(player)
            destroyed = reading.whole("groups_destroyed")
            if destroyed:
                destroyed_by[group["controller"]] = destroyed
        else:
            reading.only_on_illuminati()
        problems += reading.problems
        groups.append(group)
        lines.groups.append(line)
    if not groups and not problems:
        problems.append(_("the file has no groups"))
    if problems:
        raise BoardFileError(problems)
    data = {
        "ruleset": "classic", "slug": slug, "name": name, "players": players, "groups": groups,
        "deck": [g["slug"] for g in groups if g["place"] == "deck"],
        "destroyed_by": destroyed_by,
    }  # fmt: skip
    return data, lines


def header_problems(header: list[str]) -> list[str]:
    if not any(header):
        return [_("line 1: the file is empty; the first line names the columns")]
    problems = []
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        problems.append(
            _("line 1: unknown column(s) %(unknown)s; known: %(known)s")
            % {"unknown": ", ".join(unknown), "known": ", ".join(COLUMNS)}
        )
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        problems.append(
            _("line 1: missing column(s) %(missing)s") % {"missing": ", ".join(missing)}
        )
    repeated = sorted({h for h in header if h and header.count(h) > 1})
    if repeated:
        problems.append(
            _("line 1: column(s) named twice: %(columns)s") % {"columns": ", ".join(repeated)}
        )
    return problems


def digits(text: str) -> bool:
    """0-9 only ("²" is a digit to str.isdigit, and int() refuses it)."""
    return text.isascii() and text.isdigit()


def bonus_from_text(entry: str) -> dict[str, Any] | None:
    """ "control 3 own Criminal": aim, amount, scope (optional), alignment (optional); None
    if `entry` does not read so (the engine then checks the aim and the alignment, R91)."""
    words = entry.split()
    amount = words[1].lstrip("+") if len(words) > 1 else ""
    if len(words) < 2 or not digits(amount):
        return None
    rest = words[2:]
    scope = rest.pop(0).lower() if rest and rest[0].lower() in ("own", "any") else "any"
    return {"aim": words[0].lower(), "amount": int(amount), "scope": scope,
            "alignment": " ".join(rest) or None}  # fmt: skip


def bonus_problem(entry: str) -> str:
    return _("%(entry)s should read like 'control 3 own Criminal' or 'destroy 2'") % {
        "entry": repr(shown(entry))
    }


def bonus_text(bonus: dict[str, Any]) -> str:
    """A bonus of the document as `bonus_from_text` reads it."""
    words = [str(bonus.get("aim", "")), str(bonus.get("amount", ""))]
    if bonus.get("scope", "any") != "any" or bonus.get("alignment"):
        words.append(str(bonus.get("scope", "any")))
    if bonus.get("alignment"):
        words.append(str(bonus["alignment"]))
    return " ".join(words)


class GroupLine:
    """One line of the CSV read as a group; what cannot be read goes to `problems`, each
    naming the line and the column."""

    def __init__(self, line: int, cells: dict[str, str]) -> None:
        self.where = _("line %(n)s (%(slug)s)") % {
            "n": line,
            "slug": shown(cells.get("slug", "")) or _("no slug"),
        }
        self.problems: list[str] = []
        self.raw = cells
        self.cells = {column: self.text_of(column, text) for column, text in cells.items()}

    def say(self, column: str, problem: str) -> None:
        self.problems.append(
            _("%(where)s, %(column)s: %(problem)s")
            % {"where": self.where, "column": column, "problem": problem}
        )

    def text_of(self, column: str, text: str) -> str:
        """The cell's text, its quote taken off; a formula written by hand is refused."""
        if column in TEXT_COLUMNS and text.startswith(FORMULA):
            self.say(
                column,
                _(
                    "%(text)s begins with %(char)s, which a spreadsheet would run as a formula; "
                    "to keep it as text, begin the cell with a quote (')"
                )
                % {"text": repr(shown(text)), "char": text[0]},
            )
        return uncell(text)

    def whole(self, column: str, *, empty: int | None = 0) -> int | None:
        text = self.cells.get(column, "")
        if not text:
            return empty
        if not text.isascii() or not text.isdigit():
            self.say(
                column, _("%(text)s is not a whole number 0 or more") % {"text": repr(shown(text))}
            )
            return 0
        return int(text)

    def yes(self, column: str) -> bool:
        text = self.cells.get(column, "").lower()
        if text not in (*YES, *NO):
            self.say(column, _("%(text)s should be yes or no") % {"text": repr(shown(text))})
        return text in YES

    def group(self) -> dict[str, Any]:
        cells = self.cells
        illuminati = self.yes("illuminati")
        group: dict[str, Any] = {
            "slug": cells.get("slug", ""),
            "name": cells.get("name", ""),
            **({"illuminati": True} if illuminati else {}),
            **{column: self.whole(column) for column in NUMBERS},
            "resistance": self.whole("resistance", empty=None),
            "alignments": split(cells.get("alignments", "")),
            "place": cells.get("place", "").lower(),
            "controller": cells.get("controller") or None,
            "parent": cells.get("parent") or None,
        }
        bonuses = [self.bonus(entry) for entry in split(cells.get("bonuses", ""))]
        if bonuses:
            group["bonuses"] = [b for b in bonuses if b is not None]
        if cells.get("description"):
            group["description"] = cells["description"]
        return group

    def bonus(self, entry: str) -> dict[str, Any] | None:
        found = bonus_from_text(entry)
        if found is None:
            self.say("bonuses", bonus_problem(entry))
        return found

    def goal(self) -> dict[str, Any] | None:
        """The goal cell: "groups", "power 35", "alignment Criminal 5", "in_play Weird 4",
        "every_alignment Government; Liberal" (R98); empty: no goal."""
        text = self.cells.get("goal", "")
        if not text:
            return None
        kind, __, rest = text.partition(" ")
        kind, rest = kind.lower(), rest.strip()
        words = rest.rsplit(" ", 1)
        if kind == "groups" and not rest:
            return {"kind": kind}
        if kind in GOAL_AMOUNT and digits(rest):
            return {"kind": kind, "amount": int(rest)}
        if (
            kind in GOAL_ALIGNMENT_AMOUNT
            and len(words) == 2
            and words[1].isascii()
            and words[1].isdigit()
        ):
            return {"kind": kind, "alignment": words[0].strip(), "amount": int(words[1])}
        if kind == "every_alignment" and split(rest):
            return {"kind": kind, "alignments": split(rest)}
        self.say(
            "goal",
            _(
                "%(text)s is no goal; write one of: groups; power 35; transferable 20; "
                "money 50; destroyed 3; alignment Criminal 5; in_play Weird 4; "
                "every_alignment Government; Liberal (R98)"
            )
            % {"text": repr(shown(text))},
        )
        return None

    def only_on_illuminati(self) -> None:
        """A goal or a count of destroyed groups belongs to a player: on their Illuminati."""
        for column in ("goal", "groups_destroyed"):
            if self.cells.get(column):
                self.say(
                    column,
                    _("only a player's Illuminati (illuminati: yes, with a controller) has one"),
                )
