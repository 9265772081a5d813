"""Every CSV the site writes goes through campaigns/csv_cells.py (issue 24): a cell a
spreadsheet would run as a formula gets a leading quote, and the board import takes that
quote off again, so the site's own files round-trip."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

from campaigns.csv_cells import cell, csv_text, uncell, write_rows

APP = Path(__file__).resolve().parents[1] / "campaigns"
SHARED = APP / "csv_cells.py"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        # A quote the text begins with is doubled only before a formula, so that reading
        # the cell back takes off exactly the quote written.
        ("'=x", "''=x"),
        ("'Tis the Mint", "'Tis the Mint"),
        ("The Mint", "The Mint"),
        ("", ""),
        (None, ""),
        # Numbers are numbers: -3 is no formula, and no column is text that looks like one.
        (-3, -3),
        (7, 7),
    ],
)
def test_a_cell_a_spreadsheet_would_run_gets_a_quote_and_reads_back(
    value: object, written: object
) -> None:
    assert cell(value) == written
    if isinstance(written, str):
        assert uncell(written) == ("" if value is None else value)


def test_the_rows_are_written_as_csv_through_cell() -> None:
    out = io.StringIO()
    assert write_rows(out, [["name", "effect"], ["=1+1", -2]]) == 2
    assert out.getvalue() == "name,effect\r\n'=1+1,-2\r\n"
    assert csv_text([["a"], ["@x"]]) == "a\r\n'@x\r\n"


WRITERS = {"writer", "DictWriter"}


def csv_writers_in(path: Path) -> list[int]:
    """The lines of `path` that make a csv writer (csv.writer, csv.DictWriter, or the same
    names imported from csv)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in WRITERS:
            if isinstance(node.value, ast.Name) and node.value.id == "csv":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "csv":
            if any(alias.name in WRITERS for alias in node.names):
                lines.append(node.lineno)
    return lines


def test_every_csv_of_the_site_is_written_by_the_one_function() -> None:
    """A second writer would be a second place to forget the escaping: only csv_cells.py
    makes one; everything else calls write_rows or csv_text."""
    found = {
        str(path.relative_to(APP)): lines
        for path in sorted(APP.rglob("*.py"))
        if path != SHARED and (lines := csv_writers_in(path))
    }
    assert found == {}
    assert csv_writers_in(SHARED)  # the check sees a writer where there is one
