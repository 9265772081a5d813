"""Templates count in words through campaigns/words/labels.py: {{ n|count:"die" }} -> "2 dice"."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import json_script

from campaigns.words import audit, labels, scripts

register = template.Library()


@register.filter
def percent(value: float) -> str:
    """{{ goal.percent|percent }} -> '50%' (English), '50 %' (German)."""
    return labels.percent_text(value, 0)


@register.filter
def count(n: int, singular: str) -> str:
    return labels.count(int(n), singular)


@register.filter
def audit_target(stored: object) -> str:
    """{{ entry.target|audit_target }}: what an audit-log entry is about, in words."""
    return audit.audit_target(str(stored))


@register.simple_tag
def audit_values(values: object, zone: object) -> list[tuple[str, str]]:
    """{% audit_values entry.before zone as lines %}: an entry's before or after as lines of
    (what, value) in words, times in `zone` (audit.audit_values)."""
    return audit.audit_values(values, str(zone))


@register.filter
def status_word(code: object) -> str:
    """{{ private.status|status_word }}: a department's status (R34) in words."""
    return labels.status_label(code)


@register.simple_tag
def map_words() -> str:
    """{% map_words %}: the map's words as JSON for board_map.js (words/scripts.py)."""
    return json_script(scripts.map_words(), "map-words")


@register.filter
def in_text(label: object) -> str:
    """{{ role_label|in_text }}: a noun label inside a sentence (labels.in_text)."""
    return labels.in_text(label)


@register.filter
def amounts(tokens: list[Any]) -> str:
    """A list of `.amount`/`.label` items (a stash, a defence) as "9 People, 1 Authority"."""
    return ", ".join(f"{t.amount} {t.label}" for t in tokens)
