"""Templates count in words through campaigns/wording.py: {{ n|count:"die" }} -> "2 dice"."""

from __future__ import annotations

from typing import Any

from django import template

from campaigns import wording

register = template.Library()


@register.filter
def count(n: int, singular: str) -> str:
    return wording.count(int(n), singular)


@register.filter
def in_text(label: object) -> str:
    """{{ role_label|in_text }}: a noun label inside a sentence (wording.in_text)."""
    return wording.in_text(label)


@register.filter
def amounts(tokens: list[Any]) -> str:
    """A list of `.amount`/`.label` items (a stash, a defence) as "9 People, 1 Authority"."""
    return ", ".join(f"{t.amount} {t.label}" for t in tokens)
