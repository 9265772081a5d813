"""The README stays a front door, read in minutes (issue 26), and the docs hang together: every
relative link in README.md and docs/*.md reaches a file of the repository (and a heading, when
it names one), and nothing the repository ships points outside it (the project's old habit of
citing ../shared/RULES.md, which nobody who clones the repository has)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_MAX_LINES = 120

# [text](target) outside code spans; images too. Autolinks (<https://...>) are not relative.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
# A path into the project's shared folder: ../shared/X, /work/shared/X or `shared/X`.
OUTSIDE = re.compile(r"(\.\./|/work/|`)shared/")


def prose(text: str) -> str:
    """The text with code blocks and code spans taken out: a link inside code is an example."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def heading_ids(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped,
    spaces as hyphens."""
    ids = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", prose(text), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        ids.add(slug)
    return ids


def relative_links(path: Path) -> list[str]:
    found = LINK.findall(prose(path.read_text()))
    return [target for target in found if not SCHEME.match(target)]


def test_the_readme_is_short() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; keep it at most {README_MAX_LINES} and move the "
        "rest into docs/"
    )


def test_the_docs_the_readme_promises_exist_and_it_links_each() -> None:
    names = {path.name for path in DOCS}
    wanted = {"user-guide.md", "operations.md", "engine.md", "rules.md", "development.md"}
    assert wanted <= names
    linked = {Path(target.split("#")[0]).name for target in relative_links(README)}
    assert names <= linked, f"docs the README does not link: {sorted(names - linked)}"


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_a_file_and_its_heading(path: Path) -> None:
    links = relative_links(path)
    broken = []
    for target in links:
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_file() or ROOT not in linked.parents:
            broken.append(f"{target}: no such file in the repository")
        elif anchor and linked.suffix == ".md" and anchor not in heading_ids(linked.read_text()):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    assert broken == []


def test_the_links_are_found() -> None:
    """The link finder itself: a README without a single relative link would pass the test
    above whatever its links were."""
    assert len(relative_links(README)) >= len(DOCS)
    sample = "See [a](docs/a.md), `[not](code.md)`, <https://x.org> and [b](https://y.org)."
    assert LINK.findall(prose(sample)) == ["docs/a.md", "https://y.org"]


def shipped_text_files() -> list[Path]:
    """Every text file of the repository's own: code, templates, docs, scripts, catalogues."""
    skip = {".git", ".venv", "var", "node_modules", "test-output", "staticfiles", "__pycache__"}
    suffixes = {".py", ".md", ".html", ".txt", ".sh", ".toml", ".cfg", ".js", ".po", ".json"}
    found = [ROOT / "run", ROOT / "test", ROOT / ".ci" / "run"]
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in skip and "cache" not in name]
        found += [Path(folder) / name for name in files if Path(name).suffix in suffixes]
    return found


def test_nothing_points_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in shipped_text_files()
        if path.resolve() != here
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert outside == []
