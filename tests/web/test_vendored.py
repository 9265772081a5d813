"""The vendored libraries are exactly what scripts/vendor_js.sh fetched and checked (pinned
versions, sha512 of each npm tarball): every file listed in VENDORED.txt has the sha256 the
script recorded, and no file in campaigns/static/vendor/ is missing from the list. Offline:
`scripts/vendor_js.sh --check` compares with the registry itself."""

from __future__ import annotations

import hashlib
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "campaigns" / "static" / "vendor"


def recorded() -> dict[str, str]:
    """vendored path -> sha256, from VENDORED.txt."""
    files = {}
    for line in (VENDOR / "VENDORED.txt").read_text().splitlines():
        if line.startswith("  "):
            digest, path = line.split()
            files[path] = digest
    return files


def test_every_vendored_file_is_the_one_the_script_checked() -> None:
    files = recorded()
    assert {"cytoscape/cytoscape.min.js", "chartjs/chart.umd.min.js"} <= set(files)
    changed = [
        path
        for path, digest in files.items()
        if hashlib.sha256((VENDOR / path).read_bytes()).hexdigest() != digest
    ]
    assert changed == []


def test_nothing_is_vendored_by_hand() -> None:
    present = {str(p.relative_to(VENDOR)) for p in VENDOR.rglob("*") if p.is_file()} - {
        "VENDORED.txt"
    }
    assert present == set(recorded())
