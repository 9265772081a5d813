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

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from campaigns.csv_cells import csv_text, uncell
from campaigns.models import Board, Link, Membership
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

# A text cell beginning with one of these is a formula to a spreadsheet (csv_cells.py). A
# cell is stripped first, so a tab or carriage return is gone; a number column refuses
# anything but digits by itself.
FORMULA = ("=", "+", "-", "@")
TEXT_COLUMNS = frozenset(COLUMNS) - {*NUMBERS, *STASH}


def board_from_csv(text: str, *, slug: str, name: str) -> dict[str, Any]:
    """The board file a CSV of departments describes (BoardFileError listing every problem,
    by line and column). What the values mean is left to the import's engine check."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
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
    for row in reader:
        cells = {k.strip(): (v or "").strip() for k, v in row.items() if k is not None}
        line = reader.line_num
        if None in row:
            problems.append(_("line %(n)s: more cells than columns") % {"n": line})
        if not any(cells.values()):
            continue  # a blank line of the spreadsheet
        dept, found = department_from_cells(cells, _("line %(n)s") % {"n": line})
        problems += found
        departments.append(dept)
        for rank, consumer in enumerate(split(uncell(cells.get("supplies", "")))):
            links.append({"from": dept["slug"], "to": consumer, "priority": rank})
    if not departments and not problems:
        problems.append(_("the file has no departments"))
    if problems:
        raise BoardFileError(problems)
    return {"slug": slug, "name": name, "departments": departments, "links": links}


def cell_problems(cells: dict[str, str], where: str) -> list[str]:
    """A formula written by hand (the export quotes its own: csv_cells.py)."""
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
