"""Classic boards (RULES part 10, R90-R99; ENGINE.md part 10): the card game Illuminati played
weekly. `campaigns.engine.api` dispatches here on `"ruleset": "classic"`.

Readings where RULES part 10 and ENGINE.md part 10 are silent:
- Closeness (R95) is 10 / 5 / 2 at depth 1 / 2 / 3 and 0 deeper: the worked example "the
  Bavarian Illuminati (P 10) against a group of R 2 deep in another player's structure that
  spends 3 MB of its own treasury needs 2" holds at depth 4 or more (10 - (2 + 2 * 3)); at
  depth 3 the same attack needs 0 (tests/engine/test_rules_classic.py has both).
- Standing orders (defend, interfere, accept) are checked once, on the board after the
  passes: a defence names a group of the player's other than the Illuminati; interference a
  group some attack could aim at; an accept a group in play, not the player's, not an
  Illuminati, hung on a group of the player's (its free arrow is checked when the give comes).
  Otherwise they are rejected; if never used, failed ("not used").
- A standing order that applies but finds an empty treasury is used and spends 0.
- Goals (R98) count the Illuminati with the player's groups (power, transferable, money, an
  alignment); `every_alignment` needs one group of the structure per listed alignment.
- A failed attack's entry also carries `reason` (ENGINE.md's general rule for failed orders).
- Transfers and gifts of 0 MB are legal (only negative amounts are rejected).
- An assistant may be the target of its own player's destroy (nothing forbids it).
- `legal.py` lists each order as if it were the player's only order, on the board at the
  start of resolution (queued orders of the player are not taken into account)."""

from __future__ import annotations

from typing import Any

from ..dice import check_seed
from .resolve import resolve_classic
from .spawn import open_turn
from .state import classic_json, parse_classic

RULESET = "classic"


def is_classic(state: dict[str, Any]) -> bool:
    """R90: a state with `"ruleset": "classic"`; absent or "illumineaucracy" is not."""
    return state.get("ruleset") == RULESET


def spawn_consume(state: dict[str, Any]) -> dict[str, Any]:
    """R93: income, then one group per player drawn onto the table."""
    board = parse_classic(state)
    report = open_turn(board)
    return {**classic_json(state, board), "report": report}


def resolve(state: dict[str, Any]) -> dict[str, Any]:
    """R94-R98: the state after the orders, with report.seat_order, orders and winners."""
    board = parse_classic(state)
    report = resolve_classic(board, state.get("orders"), seed=check_seed(state.get("seed")))
    return {**classic_json(state, board), "report": report}


def resolve_then_spawn(state: dict[str, Any]) -> dict[str, Any]:
    """R93: the turn job's engine work on a classic board, both reports merged."""
    board = parse_classic(state)
    report = resolve_classic(board, state.get("orders"), seed=check_seed(state.get("seed")))
    report.update(open_turn(board))
    return {**classic_json(state, board), "report": report}
