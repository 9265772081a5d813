"""Checks of plain JSON values in a state, shared by every parser of the engine. Each raises
EngineError with one line naming the value."""

from __future__ import annotations

from .errors import EngineError
from .refusals import refuse


def whole(value: object, what: str, minimum: int = 0) -> int:
    """A whole number >= minimum (booleans are not numbers here)."""
    if type(value) is not int or value < minimum:
        raise EngineError(refuse("whole_number", what=what, minimum=minimum))
    return value


def text(value: object, what: str) -> str:
    """A non-empty string (ids, slugs, player ids, names)."""
    if not isinstance(value, str) or not value:
        raise EngineError(refuse("non_empty", what=what))
    return value


def optional_text(value: object, what: str) -> str | None:
    """null, or a non-empty string."""
    return None if value is None else text(value, what)


def objects(value: object, what: str) -> list[dict[str, object]]:
    """A list of JSON objects (missing: empty)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise EngineError(refuse("objects_list", what=what))
    return value


def unique_ids(items: list[dict[str, object]], what: str) -> list[str]:
    """Each object's `id`, a non-empty string, no two the same."""
    ids = [text(item.get("id"), f"each of {what} needs an id which") for item in items]
    seen: set[str] = set()
    for item_id in ids:
        if item_id in seen:
            raise EngineError(refuse("duplicate_id", what=what, item=item_id))
        seen.add(item_id)
    return ids
