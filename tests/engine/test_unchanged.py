"""ENGINE.md: a state without the optional parts (players, envelopes, goals, offices,
election) behaves exactly as the engine did before them. 400 random states (boards with
orders of every kind, contested attempts with reinforcements), frozen in
frozen/corpus.json.gz together with the sha256 of each command's rendered output as main's
engine (4009fd3) wrote it; frozen/make_corpus.py made them. Byte for byte, both commands.
Refrozen once, for 14 cases whose only change was a rejection's reason text: a break_link of
a link that does not exist, now that either end may be the player's (R50), and an attempt's
cost naming the wrong sum ("the cost is 2 tokens; the order names 0 (R43)"); every order's
status and every other byte were compared with the old engine and were the same."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.engine import resolve, spawn_consume

CORPUS = Path(__file__).resolve().parent / "frozen" / "corpus.json.gz"
ALL_KINDS = ("add_link", "break_link", "priority", "move", "attempt", "reinforce", "function")
COMMANDS = {"resolve": resolve, "spawn-consume": spawn_consume}


def cases() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        loaded: list[dict[str, Any]] = json.load(handle)
    return loaded


def digest(result: dict[str, Any]) -> str:
    text = json.dumps(result, sort_keys=True, indent=2) + "\n"
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_corpus_is_there_and_varied() -> None:
    loaded = cases()
    assert len(loaded) == 400
    kinds = {o["kind"] for case in loaded for o in case["state"]["orders"]}
    assert set(ALL_KINDS) <= kinds
    assert not any(
        key in case["state"]
        for case in loaded
        for key in ("players", "envelopes", "goals", "offices", "election")
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_output_is_byte_identical_to_mains_engine(command: str) -> None:
    changed = [
        index
        for index, case in enumerate(cases())
        if digest(COMMANDS[command](case["state"])) != case[command]
    ]
    assert changed == []
