"""Rewrite every golden NAME.out.json from the engine's current answer to NAME.in.json.

    .venv/bin/python tests/engine/golden/regen.py [NAME ...]

A regenerated file is only the engine's opinion. Before committing one, check every number
in it by hand against docs/rules.md (stash arithmetic, statuses, chain lengths, capacities,
discards, link ranks, structure membership, roll keys/dice/skills/TNs, and the faces by an
independent R23 computation), exactly as the "_why" note of its .in.json reasons. Where the
engine and the hand computation disagree, the .out.json must hold the hand-computed answer
(and the test fails until the engine is fixed): do not regenerate such a case blindly.

Classic boards' cases (RULES part 10) are in classic/ and are regenerated with the rest.

Each .in.json carries "command": "spawn-consume" or "resolve" (unknown keys such as
"command" and "_why" are ignored by the engine).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from campaigns.engine import resolve, spawn_consume  # noqa: E402

COMMANDS = {"spawn-consume": spawn_consume, "resolve": resolve}


def render(result: dict) -> str:
    return json.dumps(result, sort_keys=True, indent=2) + "\n"


def run_case(path: Path) -> dict:
    state = json.loads(path.read_text())
    return COMMANDS[state["command"]](state)


def main(names: list[str]) -> None:
    paths = sorted(HERE.glob("*.in.json")) + sorted((HERE / "classic").glob("*.in.json"))
    if names:
        paths = [p for p in paths if p.name.removesuffix(".in.json") in names]
    for path in paths:
        out = path.with_name(path.name.removesuffix(".in.json") + ".out.json")
        out.write_text(render(run_case(path)))
        print(f"wrote {out.name}  (check it by hand before committing)")


if __name__ == "__main__":
    main(sys.argv[1:])
