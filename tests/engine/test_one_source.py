"""The engine is the one source of the rules: no Python module outside campaigns/engine/
computes them (RULES R6, R10-R12, R21, R41-R47). A grep-like check on the source text.

Checked outside campaigns/engine/ (models and migrations may only *store* the link-limit
settings, which they hand to the engine):
- the target number and cost arithmetic: `7 +`, `2 *`, `["amount"] *`, `- identical`;
- link limits and link legality: `max_out_links`, `max_in_links`, `link_problem`,
  `type_problem`, `attempt_problem`, `check_attempt`;
- alignments, pools and the R47 clamp: `.counts(`, `Catalogue`, `pool_for`,
  `function_skill`, `min(... defence ...)`;
- priority orderings: `permutations`;
- odds: `attack_wins(` only in campaigns/web/order_choices.py, and fed only with the
  engine's pools (`pools.` arguments).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "target number arithmetic (R6)": r"\b7 \+|-\s*identical\b",
    "cost arithmetic (R43)": r"\b2 \*|\[\"amount\"\]\s*\*",
    "link limits (R11)": r"max_out_links|max_in_links",
    "link legality (R10, R43)": r"link_problem|type_problem|attempt_problem|check_attempt",
    "alignment counts (R6)": r"\.counts\(|\bCatalogue\b",
    "dice pools (R21, R22)": r"\bpool_for\b|\bfunction_skill\b",
    "standing defence clamp (R47)": r"min\([^)]*defence",
    "priority orderings (R12)": r"\bpermutations\b",
}
# They store the settings (and the GM's set-up form and service set them, the audit log's
# words name them); only the engine reads them to decide what is legal.
STORES_SETTINGS = (
    "campaigns/words/audit.py",
    "campaigns/models/",
    "campaigns/migrations/",
    "campaigns/services/setup.py",
    "campaigns/web/setup_forms.py",
)


def outside_engine() -> list[Path]:
    files = sorted((REPO / "campaigns").rglob("*.py"))
    return [p for p in files if "campaigns/engine/" not in p.relative_to(REPO).as_posix()]


def test_no_module_outside_the_engine_computes_rules() -> None:
    found = []
    for path in outside_engine():
        rel = path.relative_to(REPO).as_posix()
        text = path.read_text()
        for what, pattern in FORBIDDEN.items():
            if what == "link limits (R11)" and rel.startswith(STORES_SETTINGS):
                continue
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{rel}:{line}: {what}: {match.group()!r}")
    assert not found, "\n".join(found)


def test_the_odds_are_fed_only_with_the_engines_pools() -> None:
    calls = []
    for path in outside_engine():
        text = path.read_text()
        for match in re.finditer(r"attack_wins\((.*?)\)", text, re.S):
            calls.append((path.relative_to(REPO).as_posix(), match.group(1)))
    assert [rel for rel, _ in calls] == ["campaigns/web/attempt_preview.py"]
    arguments = re.findall(r"=\s*([^,\s)]+)", calls[0][1])
    assert len(arguments) == 5 and all(a.startswith("pools.") for a in arguments), arguments


def test_the_checks_would_catch_a_copy() -> None:
    """The patterns match what the old web copy of the rules did (so they can fail)."""
    old = 'tn = 7 + opposed - identical\ncost=2 * target["consumes"]["amount"]\n'
    assert re.search(FORBIDDEN["target number arithmetic (R6)"], old)
    assert re.search(FORBIDDEN["cost arithmetic (R43)"], old)
    assert re.search(FORBIDDEN["priority orderings (R12)"], "for perm in permutations(c):")
