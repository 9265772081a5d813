"""The German catalogue (issue 13): complete, compiled, and in step with the code.

Fails when locale/de/LC_MESSAGES/django.po has an untranslated or fuzzy message, when the
committed django.mo does not say what the .po says (someone edited the .po and forgot
`manage.py compilemessages`), or when a string wrapped for translation in the code or the
templates is missing from the .po (or the .po keeps one the code no longer has): it runs
`manage.py makemessages -l de` in a temporary copy of the project and compares msgids.
Fix with: manage.py makemessages -l de --no-obsolete, translate, manage.py compilemessages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# What makemessages reads: the project's own code and templates (not .venv or tests).
COPIED = ["manage.py", "illumineaucracy", "campaigns", "templates", "locale"]


def key(entry: polib.POEntry | polib.MOEntry) -> tuple[str, str, str]:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def translations(catalogue: polib.POFile | polib.MOFile) -> dict[tuple[str, str, str], object]:
    return {
        key(e): (tuple(sorted(e.msgstr_plural.items())) if e.msgid_plural else e.msgstr)
        for e in catalogue
        if e.msgid and not e.obsolete
    }


def test_the_german_catalogue_has_no_untranslated_or_fuzzy_message() -> None:
    po = polib.pofile(str(PO))
    live = [e for e in po if not e.obsolete]
    assert len(live) > 500, "the German catalogue is nearly empty"
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated, f"untranslated in {PO.name}: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy in {PO.name}: {fuzzy[:10]}"
    assert not po.metadata_is_fuzzy
    assert po.metadata.get("Language") == "de"


def test_the_committed_mo_says_what_the_po_says() -> None:
    assert MO.exists(), "django.mo is not committed: run manage.py compilemessages"
    assert translations(polib.mofile(str(MO))) == translations(polib.pofile(str(PO))), (
        "django.mo is out of date: run manage.py compilemessages -l de"
    )


def test_every_wrapped_string_is_in_the_german_catalogue(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None:
        pytest.fail("xgettext is missing: apt-get install gettext (./test installs it)")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, tmp_path / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete", "-v", "0"],
        cwd=tmp_path,
        check=True,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "illumineaucracy.settings"},
    )
    fresh = {key(e) for e in polib.pofile(str(tmp_path / "locale/de/LC_MESSAGES/django.po"))}
    committed = {key(e) for e in polib.pofile(str(PO)) if not e.obsolete}
    fresh.discard(("", "", ""))
    missing = sorted(fresh - committed)
    stale = sorted(committed - fresh)
    assert not missing, f"wrapped in the code but not in {PO.name}: {missing[:10]}"
    assert not stale, f"in {PO.name} but no longer in the code: {stale[:10]}"
