"""Templates count in words through campaigns/wording.py: {{ n|count:"die" }} -> "2 dice"."""

from __future__ import annotations

from django import template

from campaigns import wording

register = template.Library()


@register.filter
def count(n: int, singular: str) -> str:
    return wording.count(int(n), singular)
