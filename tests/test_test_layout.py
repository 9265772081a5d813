"""The tests' own layout (issue 26): no test module imports another test module. What tests
share (builders, tables such as the crawl's PAGES, page helpers) lives in tests/support/, so a
test module can be read, moved or deleted on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def is_test_module(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1].startswith("test_")


def imported_test_modules(source: str, package: str) -> list[str]:
    """The test modules (`test_*`) a module's source imports, wherever the import stands (a
    function's own import too), absolute or relative; `package` is the module's package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            if is_test_module(base):
                found.append(base)
            found += [f"{base}.{a.name}" for a in node.names if is_test_module(a.name)]
    return found


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(TESTS.parent).parent.parts)


def test_no_test_module_imports_another_test_module() -> None:
    wrong = {
        str(path.relative_to(TESTS.parent)): imported
        for path in sorted(TESTS.rglob("*.py"))
        if (imported := imported_test_modules(path.read_text(), package_of(path)))
    }
    assert wrong == {}, (
        "Move what these share into a module of tests/support/ named for what it holds, and "
        "import it from there"
    )


@pytest.mark.parametrize(
    "source",
    ["from tests.web.test_crawl import PAGES", "import tests.web.test_crawl",
     "from tests.web import test_crawl", "from .test_crawl import PAGES",
     "def f():\n    from tests.web.test_deal_orders import post"],
)  # fmt: skip
def test_the_check_sees_a_test_module_imported(source: str) -> None:
    assert imported_test_modules(source, "tests.web") != []


def test_the_check_lets_support_modules_be_imported() -> None:
    source = "from tests.support.crawl_pages import PAGES\nfrom tests.factories import X"
    assert imported_test_modules(source, "tests.web") == []
