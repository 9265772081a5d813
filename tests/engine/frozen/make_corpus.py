"""Write the frozen corpus behind tests/engine/test_unchanged.py: random ENGINE.md states
without any of the optional parts (players, envelopes, goals, offices, election), and the
sha256 of each rendered output of both commands, as the engine stood before those parts
(main at 4009fd3). Run once; the inputs are frozen so that a change of hypothesis or of
strategies.py cannot move them.

    .venv/bin/python tests/engine/frozen/make_corpus.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[2]))

from strategies import boards_with_orders, contested_boards  # noqa: E402

from campaigns.engine import resolve, spawn_consume  # noqa: E402

COUNT = 400


def render(result: dict) -> str:
    return json.dumps(result, sort_keys=True, indent=2) + "\n"


def digest(result: dict) -> str:
    return hashlib.sha256(render(result).encode()).hexdigest()


def main() -> None:
    states: list[dict] = []

    @settings(max_examples=COUNT, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.one_of(boards_with_orders(max_orders=12), contested_boards()))
    def collect(state: dict) -> None:
        states.append(json.loads(json.dumps(state)))

    collect()
    cases = [
        {"state": s, "resolve": digest(resolve(s)), "spawn-consume": digest(spawn_consume(s))}
        for s in states
    ]
    with gzip.open(HERE / "corpus.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(cases, handle, separators=(",", ":"))  # key order kept: it matters
    print(f"{len(cases)} states frozen")


if __name__ == "__main__":
    main()
