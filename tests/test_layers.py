"""The import graph runs engine <- models/selectors <- services <- web/tasks, never back up
(README, "Layout": web -> services -> selectors -> engine/models), and no module re-exports names
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
        "words",
        "reasons",
        "management",
    },
    "words": {"models", "selectors", "services", "web", "tasks"},
    # The audit log's words name a campaign's, a membership's and a turn's choices (models).
    "words.audit": {"selectors", "services", "web", "tasks"},
    # It reads selectors' placeholder for an unknown department (UNNAMED), nothing else.
    "words.notices": {"models", "services", "web", "tasks"},
    "reasons": {"models", "selectors", "services", "web", "tasks"},
    "csv_cells": {"models", "selectors", "services", "web", "tasks"},
    "models": {"selectors", "services", "web", "tasks"},
    "selectors": {"services", "web", "tasks"},
    "services": {"web", "tasks"},
    "web": {"tasks"},
    # Template tags draw what the view read (selectors/campaign_boxes.py): none of them may
    # reach the database, so none imports models or the layers that query (issue 26).
    "templatetags": {"models", "selectors", "services", "web", "tasks"},
}


# The domain packages beside the core loop (campaigns/selectors, services, web: the campaign,
# boards, turns and orders). Each has the same floors inside it: selectors, services, web.
DOMAINS = ("intrigue", "elections", "press", "history", "archive", "accounts", "classic")

# domain -> the domains it may import. The core loop gathers every domain (the turn job
# resolves intrigue and elections, the campaign page shows press and characters); a domain
# leans on the core and on the few others named here, and on nothing else.
MAY_IMPORT = {
    "core": set(DOMAINS),
    "intrigue": {"core", "accounts"},  # a member's display name
    "elections": {"core", "intrigue"},  # shticks that offices grant
    "press": {"core", "accounts"},  # a member's name and language in mails
    "history": {"core", "elections"},  # office timelines on the history page
    "archive": {"core", "press", "classic"},  # conversations the GM may read; classic states
    "accounts": {"core", "press"},  # the navbar's unread counts
    "classic": {"core", "history"},  # the turns a board has a record of
}


def layer_of(module: str) -> str | None:
    """`campaigns.<layer>...` or, inside a domain package, `campaigns.<domain>.<layer>...`."""
    parts = module.split(".")
    if parts[0] != "campaigns" or len(parts) < 2:
        return None
    if parts[1] in DOMAINS:
        return parts[2] if len(parts) > 2 else None
    return parts[1]


def domain_of(module: str) -> str | None:
    """The domain package of a module, "core" for the core loop's layers, else None (the
    engine, models, words and template tags are shared by every domain)."""
    parts = module.split(".")
    if parts[0] != "campaigns" or len(parts) < 2:
        return None
    if parts[1] in DOMAINS:
        return parts[1]
    return "core" if parts[1] in {"selectors", "services", "web"} else None


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


def rule_of(module: str) -> set[str]:
    """The layers `module` must never import: its own entry ("words.audit") if it has one,
    else its layer's."""
    own = ".".join(module.split(".")[1:3])
    return FORBIDDEN.get(own, FORBIDDEN.get(layer_of(module) or "", set()))


def wrong_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    forbidden = rule_of(module)
    found = imports_of(source, module, is_package=is_package)
    return sorted(name for name in found if layer_of(name) in forbidden)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up_the_layers(path: Path) -> None:
    module = module_name(path)
    wrong = wrong_imports(path.read_text(), module, is_package=path.name == "__init__.py")
    assert wrong == [], f"{module} imports {wrong}"


def wrong_domains(source: str, module: str, *, is_package: bool = False) -> list[str]:
    domain = domain_of(module)
    if domain is None:
        return []
    found = imports_of(source, module, is_package=is_package)
    return sorted(
        name
        for name in found
        if domain_of(name) not in (None, domain) and domain_of(name) not in MAY_IMPORT[domain]
    )


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_domain_imports_only_the_domains_it_may(path: Path) -> None:
    module = module_name(path)
    wrong = wrong_domains(path.read_text(), module, is_package=path.name == "__init__.py")
    assert wrong == [], f"{module} imports {wrong} (MAY_IMPORT[{domain_of(module)!r}])"


def test_every_domain_has_its_package() -> None:
    for domain in DOMAINS:
        assert (APP / domain / "__init__.py").exists(), domain
    assert set(MAY_IMPORT) == {"core", *DOMAINS}


def test_the_domain_check_sees_a_wrong_import() -> None:
    """Press may not reach into elections; a selector of a domain may not import a service."""
    module = "campaigns.press.selectors.probe"
    assert wrong_domains("from campaigns.elections.selectors import elections", module)
    assert wrong_domains("from campaigns.selectors.visibility import is_gm", module) == []
    assert wrong_imports("from campaigns.press.services.press import x", module)


@pytest.mark.parametrize(
    "source",
    ["from campaigns.services.orders import orders_submit", "from ..web import access",
     "import campaigns.services.turns", "def f():\n    from campaigns.web.urls import x"],
)  # fmt: skip
def test_the_layer_check_sees_a_wrong_import(source: str) -> None:
    """The check itself: a selector importing a service or the web layer is caught."""
    assert wrong_imports(source, "campaigns.selectors.probe") != []


WORDS = sorted((APP / "words").glob("*.py"))


def imports_inside_functions(source: str) -> set[str]:
    found: set[str] = set()
    for function in ast.walk(ast.parse(source)):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module:
                    found.add(node.module)
                elif isinstance(node, ast.Import):
                    found |= {alias.name for alias in node.names}
    return {name for name in found if name.startswith("campaigns.words")}


def test_the_words_modules_import_each_other_without_a_cycle() -> None:
    """labels.py is the floor of the words package: the other words modules import it (and
    game.py imports intrigue.py and election.py) at the top, and no import of one words module
    by another hides inside a function to dodge a cycle."""
    graph = {
        module_name(path): {
            name.rsplit(".", 1)[0] if name.count(".") > 2 else name
            for name in imports_of(path.read_text(), module_name(path))
            if name.startswith("campaigns.words.")
        }
        - {module_name(path)}
        for path in WORDS
    }
    assert graph["campaigns.words.labels"] == set()
    hidden = {module_name(p): imports_inside_functions(p.read_text()) for p in WORDS}
    assert {m: found for m, found in hidden.items() if found} == {}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for step in graph.get(start, set()) - seen:
            if step == goal or reaches(step, goal, seen | {step}):
                return True
        return False

    assert [m for m in graph if reaches(m, m, set())] == []


# --- Views import shared helpers from web/access.py, never from another view module ------------

WEB = APP / "web"
# The modules views share besides their own area's forms and choices: access.py (who may open
# what, posted, a GM's change from a button, FORM_METHODS, map_url) and post_only.py.
SHARED = {"campaigns.web.access", "campaigns.web.post_only"}


def view_modules() -> set[str]:
    """The modules whose views web/urls.py routes to (`from campaigns.web import ...`, or a
    domain's `from campaigns.<domain>.web import ...`)."""
    tree = ast.parse((WEB / "urls.py").read_text())
    return {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith(".web")
        for alias in node.names
    }


# Every web module: the core loop's and each domain's.
WEB_MODULES = sorted([*WEB.glob("*.py"), *APP.glob("*/web/*.py")])


def views_imported(source: str, module: str, views: set[str]) -> list[str]:
    found = {
        name if name in views else name.rsplit(".", 1)[0] for name in imports_of(source, module)
    }
    return sorted((found & views) - {module})


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(APP)))
def test_no_web_module_imports_a_view_module(path: Path) -> None:
    """A helper several views need lives in a shared module (SHARED), not in one view module
    that the others import; a helper module imports no view module either."""
    if path.name == "urls.py":
        return
    assert views_imported(path.read_text(), module_name(path), view_modules()) == []


@pytest.mark.parametrize(
    "source",
    ["from campaigns.web.editor import gm_board", "from campaigns.history.web import history",
     "from .editor import tell", "def f():\n    import campaigns.elections.web.elections"],
)  # fmt: skip
def test_the_view_check_sees_a_view_importing_another(source: str) -> None:
    """The check itself: members.py importing editor.py's helper is caught, access.py's is not."""
    views = view_modules()
    assert {"campaigns.web.editor", "campaigns.web.members", "campaigns.web.orders"} <= views
    assert not views & SHARED
    assert views_imported(source, "campaigns.web.members", views) != []
    shared = "from campaigns.web.access import gm_board"
    assert views_imported(shared, "campaigns.web.members", views) == []


@pytest.mark.parametrize(
    "source",
    ["from campaigns.models import Campaign",
     "from campaigns.press.selectors.press import announcements",
     "def f():\n    from campaigns.selectors import pages"],
)  # fmt: skip
def test_the_layer_check_sees_a_template_tag_that_would_query(source: str) -> None:
    """Template tags get their data from the view: one importing models or a selector is
    caught."""
    assert wrong_imports(source, "campaigns.templatetags.probe") != []
