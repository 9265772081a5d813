"""Press in templates: `{{ text|press_text }}` shows a message as its sender typed it (escaped,
line breaks kept, http(s) addresses as links and nothing else: no HTML, no rule or department
links, RULES R50), and `{% press_box campaign %}` is the campaign page's announcements and
link to the press."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# An address starts with http:// or https:// and runs to the next space or angle bracket or
# quote; punctuation that ends a sentence is not part of it.
URL = re.compile(r"https?://[^\s<>\"']+", re.IGNORECASE)
TRAILING = ".,;:!?)]}"


def link(url: str) -> tuple[str, str]:
    """(the address, what followed it in the text) with sentence punctuation given back."""
    cut = len(url)
    while cut > 0 and url[cut - 1] in TRAILING:
        if url[cut - 1] == ")" and url[:cut].count("(") >= url[:cut].count(")"):
            break  # a balanced ")" belongs to the address (Wikipedia's, for one)
        cut -= 1
    return url[:cut], url[cut:]


@register.filter
def press_text(text: str) -> SafeString:
    parts: list[str] = []
    position = 0
    for found in URL.finditer(text):
        address, rest = link(found.group(0))
        parts.append(escape(text[position : found.start()]))
        if len(address) > len("https://"):
            parts.append(
                format_html(
                    '<a href="{}" rel="nofollow noopener noreferrer" target="_blank">{}</a>',
                    address,
                    address,
                )
            )
        else:
            parts.append(escape(address))
        parts.append(escape(rest))
        position = found.end()
    parts.append(escape(text[position:]))
    return mark_safe("".join(parts).replace("\r\n", "\n").replace("\n", "<br>"))


@register.inclusion_tag("press/_box.html", takes_context=True)
def press_box(context: dict[str, Any], box: Any) -> dict[str, Any]:
    """The campaign page's press card: the latest announcements (`box`, a
    campaign_boxes.PressBox the view read), unread messages, links. The unread counts are
    the ones the navigation bar shows (accounts/web/preferences.py, a context processor: every page
    rendered with its request has them), counted once per request."""
    counts = context["press_unread_counts"]
    return {
        "campaign": box.campaign,
        "announcements": box.announcements,
        "unread": counts.get(box.campaign.pk, 0),
        "is_gm": box.is_gm,
    }
