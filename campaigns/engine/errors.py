"""Errors the engine raises. Every message is one line naming the problem."""


class EngineError(ValueError):
    """Bad input: malformed state, an unknown slug, or a rule the state itself breaks."""


class OrderRejected(Exception):  # noqa: N818 - a verdict, not a crash
    """An order that is illegal when resolved (RULES R40); the message is its reason."""
