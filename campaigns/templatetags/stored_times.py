"""Stored text (a notice) as a page shows it: put into words in the reader's language
(campaigns/words/notices.py), rule ids linked (rules.py) and each time marker
(campaigns/stored_times.py) as the page's usual <time> (instants.py), in the reader's zone."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from campaigns.stored_times import times_in_words
from campaigns.templatetags.instants import instant_html
from campaigns.templatetags.rules import rule_links
from campaigns.words.notices import notice_text

register = template.Library()


@register.simple_tag(takes_context=True)
def stored_text(context: template.Context, text: object, zone: str) -> SafeString:
    """`{% stored_text notice.text campaign.time_zone %}`."""
    viewer_zone = context.get("viewer_time_zone") or ""

    def instant(when: dt.datetime) -> str:
        return instant_html(when, zone, viewer_zone)

    # rule_links escaped the text; the markers hold nothing to escape and come out as they went in.
    return mark_safe(times_in_words(str(rule_links(text)), instant))  # noqa: S308


@register.simple_tag(takes_context=True)
def notice_words(context: template.Context, notice: Any, zone: str) -> SafeString:
    """`{% notice_words notice campaign.time_zone %}`: a Notice (or anything with its `code`,
    `params` and `text`) in the reader's language and zone; no query."""
    return stored_text(context, notice_text(notice.code, notice.params, notice.text), zone)
