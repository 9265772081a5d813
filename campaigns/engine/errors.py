"""Errors the engine raises. Every message is one line naming the problem, and a problem
with a board ends with the rule it breaks (RULES R2-R13, ...): the GM's editor and the board
import show these lines as they are."""

import re

# A reason that already ends with its rule ids: "... (R10)", "... (R42, R36)".
NAMES_A_RULE = re.compile(r"\(R\d+[^()]*\)$")


def under_rule(reason: str, rule: str) -> str:
    """`reason` ending with `rule` (" (R4)"), unless it names its own rule already."""
    return reason if NAMES_A_RULE.search(reason) else f"{reason} ({rule})"


class EngineError(ValueError):
    """Bad input: malformed state, an unknown slug, or a rule the state itself breaks."""


class OrderRejected(Exception):  # noqa: N818 - a verdict, not a crash
    """An order that is illegal when resolved (RULES R40); the message is its reason."""
