"""Board files, both ways: a board as the file services/boards.py imports (the engine's JSON
state plus names, descriptions and flaws; `structure` is the player's user name), and the
same board as a spreadsheet (CSV) of departments, one line each, for GMs who prepare boards
in a spreadsheet.

CSV columns (a header line first; the order does not matter, unknown columns are refused):
slug, name, description, flaws, effect, obstruct, impress, consumes and produces ("money 2"
or empty), functions ("Smuggling: 2; Bribery: 1"), alignments ("Criminal; Weird"),
structure (a player's user name, or empty), home (yes or no), money, people, authority (the
starting stash), and supplies: the departments it supplies, in funding order (R12),
"treasury; city-watch". Only the GM reads or writes these files (they hold every secret).
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import json.decoder
import json.scanner
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from campaigns.csv_cells import csv_text, uncell
from campaigns.models import Board, Department, Link, Membership
from campaigns.models.board import Resource

COLUMNS = [
    "slug", "name", "description", "flaws", "effect", "obstruct", "impress", "consumes",
    "produces", "functions", "alignments", "structure", "home", "money", "people",
    "authority", "supplies",
]  # fmt: skip
REQUIRED = {"slug", "name"}
NUMBERS = ("effect", "obstruct", "impress")
STASH = ("money", "people", "authority")
RESOURCES = set(Resource.values)


class BoardFileError(ValueError):
    def __init__(self, messages: list[str]) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages


# --- export -------------------------------------------------------------------------------------


def board_file(board: Board) -> dict[str, Any]:
    """The board as an import file: 3 queries whatever its size."""
    usernames = dict(
        Membership.objects.filter(structures__board=board).values_list(
            "structures__pk", "user__username"
        )
    )
    departments = [
        {
            "slug": d.slug,
            "name": d.name,
            "description": d.description,
            "flaws": d.flaws,
            "effect": d.effect,
            "obstruct": d.obstruct,
            "impress": d.impress,
            "consumes": resource(d.consumes_type, d.consumes_amount),
            "produces": resource(d.produces_type, d.produces_amount),
            "functions": dict(d.functions),
            "alignments": list(d.alignments),
            "structure": usernames.get(d.structure_id) if d.structure_id else None,
            "home": d.home,
            "stash": d.stash,
        }
        for d in board.departments.order_by("slug")
    ]
    links = Link.objects.filter(board=board).order_by("supplier__slug", "priority", "pk")
    return {
        "slug": board.slug,
        "name": board.name,
        "departments": departments,
        "links": [
            {"from": s, "to": c, "priority": p}
            for s, c, p in links.values_list("supplier__slug", "consumer__slug", "priority")
        ],
    }


def resource(kind: str, amount: int) -> dict[str, Any] | None:
    return {"type": kind, "amount": amount} if kind and amount else None


def board_csv(data: dict[str, Any]) -> str:
    """A board file (as `board_file` makes it) as CSV, written by campaigns/csv_cells.py:
    a name a spreadsheet would run as a formula is quoted, and the import takes that quote
    off again."""
    supplies: dict[str, list[str]] = {}
    for link in sorted(data["links"], key=lambda lk: (lk["from"], lk.get("priority", 0))):
        supplies.setdefault(link["from"], []).append(link["to"])
    rows: list[list[object]] = [list(COLUMNS)]
    for d in data["departments"]:
        values = {
            **{key: d[key] for key in ("slug", "name", "description", "flaws", *NUMBERS)},
            "consumes": resource_text(d["consumes"]),
            "produces": resource_text(d["produces"]),
            "functions": "; ".join(f"{name}: {skill}" for name, skill in d["functions"].items()),
            "alignments": "; ".join(d["alignments"]),
            "structure": d["structure"] or "",
            "home": "yes" if d["home"] else "no",
            **{key: d["stash"].get(key, 0) for key in STASH},
            "supplies": "; ".join(supplies.get(d["slug"], [])),
        }
        rows.append([values[column] for column in COLUMNS])
    return csv_text(rows)


def resource_text(value: dict[str, Any] | None) -> str:
    return f"{value['type']} {value['amount']}" if value else ""


# --- import -------------------------------------------------------------------------------------

# The columns the database caps (models/board.py): a longer cell is refused with its line.
CELL_MAX = {
    column: Department._meta.get_field(column).max_length
    for column in ("slug", "name", "description", "flaws")
}
# A text cell beginning with one of these is a formula to a spreadsheet (csv_cells.py). A
# cell is stripped first, so a tab or carriage return is gone; a number column refuses
# anything but digits by itself.
FORMULA = ("=", "+", "-", "@")
TEXT_COLUMNS = frozenset(COLUMNS) - {*NUMBERS, *STASH}
# A board file nests five levels deep (the file, departments, a department, its stash, a
# number); JSON nested deeper is no board file, and json.loads recurses once per level.
JSON_DEPTH = 20


def board_from_json(text: str) -> dict[str, Any]:
    """The board file a JSON text holds (BoardFileError if it cannot be one). What the
    values mean is left to the import's engine check."""
    try:
        parsed = json.loads(text)
    except RecursionError:
        raise BoardFileError([too_deep()]) from None
    except ValueError as error:
        raise BoardFileError([_("file: not valid JSON (%(error)s)") % {"error": error}]) from None
    if not isinstance(parsed, dict):
        raise BoardFileError([_("file: a board file must be a JSON object")])
    problem = json_problem(parsed)
    if problem:
        raise BoardFileError([problem])
    return parsed


def json_problem(data: object) -> str | None:
    """Nesting deeper than JSON_DEPTH, or a NUL character in any text (PostgreSQL cannot
    store one): walked without recursion, since the nesting is what is in doubt."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > JSON_DEPTH:
            return too_deep()
        if isinstance(value, dict):
            stack += [(key, depth) for key in value]
            stack += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            stack += [(item, depth + 1) for item in value]
        elif isinstance(value, str) and "\x00" in value:
            return _("file: holds a NUL character (\\u0000), which no board's text may hold")
    return None


def too_deep() -> str:
    return _("file: nested deeper than %(n)s levels, which no board file is") % {"n": JSON_DEPTH}


@dataclass(frozen=True)
class FileLines:
    """The line of the file each department and each link (a classic board's: each group)
    begins on (None: not known), so a problem the import finds in one can name its line."""

    departments: list[int | None] = field(default_factory=list)
    links: list[int | None] = field(default_factory=list)
    groups: list[int | None] = field(default_factory=list)

    def line(self, place: tuple[str, int] | None) -> int | None:
        if place is None:
            return None
        kind, index = place
        lines = {"departments": self.departments, "groups": self.groups}.get(kind, self.links)
        return lines[index] if 0 <= index < len(lines) else None


def located(messages: list[str], places: list[Any], lines: FileLines) -> list[str]:
    """The import's problems, each about a department or link led by its line in the file."""
    said = []
    for message, place in zip(messages, places, strict=True):
        line = lines.line(place)
        said.append(
            message
            if line is None
            else _("line %(n)s, %(problem)s") % {"n": line, "problem": message}
        )
    return said


def json_lines(text: str) -> FileLines:
    """Where each department and link object of a JSON board file begins. Read again with
    the json module's Python scanner, whose objects can be told where they begin; only
    when a problem is shown, and only after the fast reading found it valid JSON (so no
    deeper than JSON_DEPTH)."""
    starts: dict[int, int] = {}
    decoder = json.JSONDecoder()

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
        made, end = json.decoder.JSONObject(s_and_end, *args)  # type: ignore[attr-defined]
        starts[id(made)] = s_and_end[1] - 1
        return made, end

    decoder.parse_object = parse_object  # type: ignore[assignment]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    try:
        data = decoder.decode(text)
    except (ValueError, RecursionError):
        return FileLines()
    breaks = [i for i, char in enumerate(text) if char == "\n"]

    def lines_of(entries: object) -> list[int | None]:
        if not isinstance(entries, list):
            return []
        return [
            bisect.bisect_left(breaks, starts[id(e)]) + 1 if id(e) in starts else None
            for e in entries
        ]

    if not isinstance(data, dict):
        return FileLines()
    return FileLines(
        lines_of(data.get("departments")), lines_of(data.get("links")), lines_of(data.get("groups"))
    )


def board_from_csv(text: str, *, slug: str, name: str) -> dict[str, Any]:
    """The board file a CSV of departments describes (BoardFileError listing every problem,
    by line and column). What the values mean is left to the import's engine check."""
    return board_and_lines_from_csv(text, slug=slug, name=name)[0]


def board_and_lines_from_csv(
    text: str, *, slug: str, name: str
) -> tuple[dict[str, Any], FileLines]:
    """`board_from_csv`, and the line of each department and link (a link's is its
    supplier's: the line whose supplies column names it)."""
    lines = FileLines()
    rows = records(text)
    __, first = next(rows, (1, []))
    header = [h.strip() for h in first]
    problems = []
    if not header:
        raise BoardFileError([_("line 1: the file is empty; the first line names the columns")])
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        problems.append(
            _("line 1: unknown column(s) %(unknown)s; known: %(known)s")
            % {"unknown": ", ".join(unknown), "known": ", ".join(COLUMNS)}
        )
    missing = sorted(REQUIRED - set(header))
    if missing:
        problems.append(
            _("line 1: missing column(s) %(missing)s") % {"missing": ", ".join(missing)}
        )
    if problems:
        raise BoardFileError(problems)
    departments, links = [], []
    for line, row in rows:
        cells = {column: value.strip() for column, value in zip(header, row, strict=False)}
        if len(row) > len(header):
            problems.append(_("line %(n)s: more cells than columns") % {"n": line})
        if not any(cells.values()):
            continue  # a blank line of the spreadsheet
        dept, found = department_from_cells(cells, _("line %(n)s") % {"n": line})
        problems += found
        departments.append(dept)
        lines.departments.append(line)
        for rank, consumer in enumerate(split(uncell(cells.get("supplies", "")))):
            links.append({"from": dept["slug"], "to": consumer, "priority": rank})
            lines.links.append(line)
    if not departments and not problems:
        problems.append(_("the file has no departments"))
    if problems:
        raise BoardFileError(problems)
    return {"slug": slug, "name": name, "departments": departments, "links": links}, lines


def records(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each record of the CSV `text`, with the line it begins on. BoardFileError, naming
    that line, for what no spreadsheet writes: a quote never closed, a stray quote, a cell
    longer than csv reads, a NUL character."""
    # newline="": a quoted cell keeps its line breaks and a lone carriage return ends a line
    # (csv's own advice); strict: a stray quote is refused rather than guessed around.
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    line = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise BoardFileError([csv_problem(line, str(error))]) from None
        if any("\x00" in value for value in row):
            raise BoardFileError(
                [
                    _("line %(n)s: holds a NUL character (byte 0), which no board's text may hold")
                    % {"n": line}
                ]
            )
        yield line, row
        line = reader.line_num + 1


def csv_problem(line: int, error: str) -> str:
    """csv's error as a line of the form's list (its texts are csv's, in English)."""
    if error.startswith("unexpected end of data"):
        return _('line %(n)s: a quote (") opens a cell that is never closed') % {"n": line}
    if error.startswith("field larger than field limit"):
        return _(
            "line %(n)s: a cell of more than %(limit)s characters; no column holds that much"
        ) % {"n": line, "limit": csv.field_size_limit()}
    return _("line %(n)s: not CSV as a spreadsheet writes it (%(error)s)") % {
        "n": line,
        "error": error,
    }


def cell_problems(cells: dict[str, str], where: str) -> list[str]:
    """A formula written by hand (the export quotes its own: csv_cells.py), and a cell longer
    than its column holds."""
    problems = []
    for column, text in cells.items():
        if column in TEXT_COLUMNS and text.startswith(FORMULA):
            problems.append(
                _(
                    "%(where)s, %(column)s: %(text)s begins with %(char)s, which a spreadsheet "
                    "would run as a formula; to keep it as text, begin the cell with a quote (')"
                )
                % {"where": where, "column": column, "text": repr(shown(text)), "char": text[0]}
            )
        elif len(uncell(text)) > CELL_MAX.get(column, len(text)):
            problems.append(
                _("%(where)s, %(column)s: %(length)s characters; at most %(n)s (R4)")
                % {"where": where, "column": column, "length": len(uncell(text)),
                   "n": CELL_MAX[column]}
            )  # fmt: skip
    return problems


def shown(text: str, limit: int = 60) -> str:
    """`text` cut short for a message: a cell may hold 100,000 characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def split(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(";") if part.strip()]


def functions_of(cell: str, where: str, problems: list[str]) -> dict[str, int]:
    """The functions cell ("Smuggling: 2; Bribery: 1") as name -> skill; what cannot be
    read goes to `problems`."""
    functions: dict[str, int] = {}
    for entry in split(cell):
        function, __, skill = entry.rpartition(":")
        if not function.strip() or not skill.strip().isdigit():
            problems.append(
                _("%(where)s, functions: %(entry)s should read like 'Smuggling: 2' (R4)")
                % {"where": where, "entry": repr(entry)}
            )
        else:
            functions[function.strip()] = int(skill)
    return functions


def department_from_cells(cells: dict[str, str], where: str) -> tuple[dict[str, Any], list[str]]:
    """One department of the file from one line's cells (as written, stripped), and what is
    wrong with them."""
    where = f"{where} ({shown(cells.get('slug', '')) or _('no slug')})"
    problems = cell_problems(cells, where)
    cells = {column: uncell(text) for column, text in cells.items()}

    def whole(column: str) -> int:
        text = cells.get(column, "") or "0"
        if not text.isdigit():
            problems.append(
                _("%(where)s, %(column)s: %(text)s is not a whole number 0 or more (R4)")
                % {"where": where, "column": column, "text": repr(text)}
            )
            return 0
        return int(text)

    def resource_of(column: str) -> dict[str, Any] | None:
        text = cells.get(column, "")
        if not text:
            return None
        parts = text.split()
        if len(parts) != 2 or parts[0].lower() not in RESOURCES or not parts[1].isdigit():
            problems.append(
                _(
                    "%(where)s, %(column)s: %(text)s should read like 'money 2' "
                    "(money, people or authority, then a whole number; R3, R4)"
                )
                % {"where": where, "column": column, "text": repr(text)}
            )
            return None
        return {"type": parts[0].lower(), "amount": int(parts[1])}

    functions = functions_of(cells.get("functions", ""), where, problems)
    home = cells.get("home", "").lower()
    if home not in ("", "yes", "no", "true", "false", "1", "0"):
        problems.append(
            _("%(where)s, home: %(text)s should be yes or no (R13)")
            % {"where": where, "text": repr(cells["home"])}
        )
    department = {
        "slug": cells.get("slug", ""),
        "name": cells.get("name", ""),
        "description": cells.get("description", ""),
        "flaws": cells.get("flaws", ""),
        **{column: whole(column) for column in NUMBERS},
        "consumes": resource_of("consumes"),
        "produces": resource_of("produces"),
        "functions": functions,
        "alignments": split(cells.get("alignments", "")),
        "structure": cells.get("structure") or None,
        "home": home in ("yes", "true", "1"),
        "stash": {column: whole(column) for column in STASH},
    }
    return department, problems
