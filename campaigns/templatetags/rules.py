"""Rule ids (RULES R1..R90) as links to the "How to play" page, which players can read
instead of the rulebook: `{% rule "R46" %}` in a template's own text, `{{ text|rule_links }}`
for text that carries ids (order refusals and reasons, notices, messages)."""

from __future__ import annotations

import re

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Every rule RULES.md defines; the rules page has one anchor per id (tests/web/test_rules_page.py
# checks both against RULES.md). An id outside this set is left as plain text: no dead links.
RULE_IDS = frozenset(
    f"R{n}"
    for n in (
        *range(1, 7), *range(10, 15), *range(20, 24), *range(30, 37), *range(40, 48),
        *range(50, 54), *range(60, 63), *range(70, 73), 80, *range(90, 100),
    )
)  # fmt: skip

# "R43" standing alone: not inside a word or a number ("R2D2", "AR15", "R430" stay as they are).
RULE_ID = re.compile(r"(?<![\w#/])R\d{1,3}(?![\w])")
# Split already-safe HTML into tags and text, so ids are only linked in text, never inside a
# tag's attributes, and never inside an existing link.
TAG = re.compile(r"(<[^>]*>)")


def rule_url(rule_id: str) -> str:
    return f"{reverse('how_to_play')}#{rule_id}"


def rule_anchor(rule_id: str) -> SafeString:
    return format_html('<a href="{}" class="rule-link">{}</a>', rule_url(rule_id), rule_id)


def link_ids(text: str) -> str:
    """Link each known id in `text` (plain text already escaped: it holds no tags)."""
    return RULE_ID.sub(
        lambda m: rule_anchor(m.group()) if m.group() in RULE_IDS else m.group(), text
    )


@register.filter(is_safe=True)
def rule_links(value: object) -> SafeString:
    """`value` with every rule id linked to the rules page. Plain text is escaped first;
    text Django already marked safe keeps its markup, and only its text between tags (not
    inside an <a> already) gets links, so user text never goes through unescaped."""
    escaped = str(conditional_escape(value))
    parts = []
    in_link = 0
    for part in TAG.split(escaped):
        if TAG.fullmatch(part):
            lowered = part.lower()
            if lowered.startswith("<a ") or lowered == "<a>":
                in_link += 1
            elif lowered.startswith("</a"):
                in_link = max(0, in_link - 1)
            parts.append(part)
        else:
            parts.append(part if in_link else link_ids(part))
    return mark_safe("".join(parts))  # noqa: S308 - every part was escaped above


@register.simple_tag
def rule(rule_id: str) -> SafeString:
    """`{% rule "R46" %}`: the id as a link to its explanation on the rules page."""
    if rule_id not in RULE_IDS:
        # A template naming a rule RULES.md does not define is a bug: show it, unlinked.
        return conditional_escape(rule_id)
    return rule_anchor(rule_id)
