"""The one place the site writes CSV: the board export, the history download and
`manage.py export_history` all write through `write_rows` or `csv_text`, and
tests/test_csv_cells.py fails if a module makes a csv writer of its own.

CSV formula injection (OWASP): a spreadsheet runs a cell that begins with =, +, - or @ (and
some with a tab or a carriage return before one) as a formula, so a department or character
named '=HYPERLINK(...)' would run on the GM's or a reviewer's computer. Such a cell is
written with a quote (') first, which spreadsheets read as "this is text".

Only text is quoted; numbers are written as numbers. A number cannot carry a formula, and
quoting one would turn it into text in the spreadsheet (no sums). No column of the site's
files is negative today (stashes, capacities, cards' numbers and turn numbers are whole
numbers 0 or more, R4), but a negative one would still be a number, not a formula.

The board import reads its own files back (selectors/board_files.py): `uncell` takes off
exactly the quote `cell` added. A quote the text itself begins with is doubled only when a
formula character follows it, so "'Tis the Mint" is written and read unchanged and "'=x"
round-trips as well."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"


def cell(value: object) -> object:
    """`value` as a CSV cell no spreadsheet runs: None as empty, numbers as they are, text
    that would read as a formula behind a quote."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    text = str(value)
    return QUOTE + text if text.lstrip(QUOTE).startswith(FORMULA_START) else text


def uncell(text: str) -> str:
    """The text a cell written by `cell` held: its quote taken off."""
    if text.startswith(QUOTE) and text.lstrip(QUOTE).startswith(FORMULA_START):
        return text[len(QUOTE) :]
    return text


def write_rows(out: Any, rows: Iterable[Iterable[object]]) -> int:
    """Write `rows` (the header first, if any) to `out` as CSV, every cell through `cell`;
    the number of rows written."""
    writer = csv.writer(out)
    written = 0
    for row in rows:
        writer.writerow([cell(value) for value in row])
        written += 1
    return written


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """`rows` as the text of a CSV file (see `write_rows`)."""
    out = io.StringIO()
    write_rows(out, rows)
    return out.getvalue()
