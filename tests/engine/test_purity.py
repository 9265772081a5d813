"""The engine is pure: standard library only (issue 2; README, "Layout")."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "campaigns" / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_engine_imports_only_the_standard_library() -> None:
    files = sorted(ENGINE.rglob("*.py"))  # the classic subpackage too
    assert len(files) >= 8  # the walk found the engine
    outside = {
        f"{path.name}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


def test_the_check_sees_a_django_import(tmp_path: Path) -> None:
    """The check above can fail: it flags a third-party import."""
    module = tmp_path / "bad.py"
    module.write_text("from django.db import models\nimport json\n")
    found = {n for n in imported_modules(module) if n.split(".")[0] not in sys.stdlib_module_names}
    assert found == {"django.db"}
