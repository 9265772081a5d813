"""engine/legal.py on a classic board (RULES R90, R94-R97): `legal_choices`, the one entry the
site calls, dispatches on the state's ruleset and lists every classic kind with the reason a
kind has none. The two-way property test (test_classic_legal_properties.py) goes through the
same entry."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classic_boards import board, held  # noqa: E402

from campaigns.engine.classic.legal import REASONS, ClassicLegal, GroupChoice  # noqa: E402
from campaigns.engine.classic.orders import KINDS  # noqa: E402
from campaigns.engine.legal import Legal, legal_choices  # noqa: E402


def test_a_classic_state_gets_the_classic_choices_of_every_kind() -> None:
    """R90: `"ruleset": "classic"` dispatches to engine/classic/legal.py."""
    state = board(held("mafia", "alice", "alice-illuminati", power=6, arrows=3))
    legal = legal_choices(state, "alice")
    assert isinstance(legal, ClassicLegal)
    assert set(KINDS) == {"attack", "defend", "interfere", "transfer", "move_group",
                          "give_group", "accept", "drop", "gift", "pass"}  # fmt: skip
    for kind in KINDS:
        offered = legal.choices(kind)
        assert (legal.why_not(kind) is None) == bool(offered), kind
    assert GroupChoice("mafia") in legal.choices("drop")
    assert GroupChoice("mafia") in legal.choices("defend")


def test_a_kind_without_choices_says_why() -> None:
    """R97: alice controls only her Illuminati, so she has nothing to drop or defend."""
    legal = legal_choices(board(), "alice")
    assert isinstance(legal, ClassicLegal)
    assert legal.choices("drop") == []
    assert legal.why_not("drop") == REASONS["drop"]
    assert "R91" in (legal.why_not("defend") or "")
    assert legal.why_not("pass") is None


def test_a_state_without_a_ruleset_keeps_the_standard_choices() -> None:
    """R90: no ruleset (or "illumineaucracy") is a board of parts 1-9, as before."""
    state = {
        "turn": 1, "seed": "0" * 64,
        "departments": [
            {"slug": "vault", "name": "Vault", "effect": 1, "obstruct": 1, "impress": 1,
             "structure": "alice", "home": True},
        ],
        "links": [], "orders": [],
    }  # fmt: skip
    assert isinstance(legal_choices(state, "alice"), Legal)
    assert isinstance(legal_choices({**state, "ruleset": "illumineaucracy"}, "alice"), Legal)
