"""The import graph runs engine <- models/selectors <- services <- web/tasks, never back up
(STYLE.md: web -> services -> selectors -> engine/models), and no module re-exports names
it imported (`__all__` aside). Read from the source with `ast`, so a lazy import inside a
function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "campaigns"

# layer -> the layers of the app it must never import
FORBIDDEN = {
    "engine": {
        "models",
        "selectors",
        "services",
        "web",
        "tasks",
        "wording",
        "intrigue_words",
        "reasons",
        "management",
    },
    "wording": {"models", "selectors", "services", "web", "tasks"},
    "intrigue_words": {"models", "selectors", "services", "web", "tasks"},
    "reasons": {"models", "selectors", "services", "web", "tasks"},
    "csv_cells": {"models", "selectors", "services", "web", "tasks"},
    "models": {"selectors", "services", "web", "tasks"},
    "selectors": {"services", "web", "tasks"},
    "services": {"web", "tasks"},
    "web": {"tasks"},
}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "campaigns" or len(parts) < 2:
        return None
    return parts[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Absolute names of the campaigns modules `source` (module `module`) imports, relative
    imports resolved."""
    package = module if is_package else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("campaigns")}


SOURCES = sorted(p for p in APP.rglob("*.py") if "migrations" not in p.parts)


def wrong_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    forbidden = FORBIDDEN.get(layer_of(module) or "", set())
    found = imports_of(source, module, is_package=is_package)
    return sorted(name for name in found if layer_of(name) in forbidden)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up_the_layers(path: Path) -> None:
    module = module_name(path)
    wrong = wrong_imports(path.read_text(), module, is_package=path.name == "__init__.py")
    assert wrong == [], f"{module} imports {wrong}"


@pytest.mark.parametrize(
    "source",
    ["from campaigns.services.orders import orders_submit", "from ..web import access",
     "import campaigns.services.turns", "def f():\n    from campaigns.web.urls import x"],
)  # fmt: skip
def test_the_layer_check_sees_a_wrong_import(source: str) -> None:
    """The check itself: a selector importing a service or the web layer is caught."""
    assert wrong_imports(source, "campaigns.selectors.probe") != []
