"""`{% instant when zone %}`: every instant a page shows, the same way (campaigns/_instant.html
is this tag, for templates that include it).

UTC ISO in `datetime` for deadline.js, which rewrites the text in the reader's zone; the no-JS
text in the reader's profile zone if they chose one (the context's `viewer_time_zone`), else
`zone` (the campaign's); the campaign's own zone always on hover. The format is the
language's (a translatable date format).

Written in Python rather than as an included template because a page shows many of them
(past turns, notices, announcements, the roster): an {% include %} with two {% timezone %}
blocks cost a page about as much as one of its queries."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

register = template.Library()


def in_zone(when: dt.datetime, zone: str) -> str:
    """`when` in the site's date format (the language's), in `zone`."""
    fmt = pgettext("date format of a time shown on the site", "D j M Y, H:i T")
    return dateformat.format(when.astimezone(ZoneInfo(zone)), fmt)


def instant_html(when: dt.datetime | None, zone: str, viewer_zone: str = "") -> SafeString:
    """The <time> element of `when`: as _instant.html wrote it, byte for byte."""
    if not isinstance(when, dt.datetime):  # as Django's date filters: nothing to show
        return format_html('<time datetime="" data-local-time title=" ({})"></time>', zone)
    if timezone.is_naive(when):  # as Django's {% timezone %}: in the default zone
        when = timezone.make_aware(when)
    return format_html(
        '<time datetime="{}" data-local-time title="{} ({})">{}</time>',
        when.astimezone(dt.UTC).isoformat(),
        in_zone(when, zone),
        zone,
        in_zone(when, viewer_zone or zone),
    )


@register.simple_tag(takes_context=True)
def instant(context: template.Context, when: dt.datetime | None, zone: str) -> SafeString:
    """`{% instant turn.deadline campaign.time_zone %}`."""
    return instant_html(when, zone, context.get("viewer_time_zone") or "")
