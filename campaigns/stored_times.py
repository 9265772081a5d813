"""A time inside text that is stored now and read later (a notice): written as a marker that
holds the UTC instant, put into words only when read, so each reader sees it in their own
time zone (a page: templatetags/stored_times.py, as every page shows a time; a mail: in the
reader's zone, services/notifications.py). Text written before markers existed has none and
reads as it was written."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

# Survives HTML escaping and rule-id linking unchanged (no "<", "&", quote or "R<digit>").
MARKER = re.compile(r"\[\[time (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00)\]\]")


def time_marker(instant: dt.datetime) -> str:
    """`instant` (aware) as a marker to store in text."""
    utc = instant.astimezone(dt.UTC).replace(microsecond=0)
    return f"[[time {utc.isoformat()}]]"


def times_in_words(text: str, words: Callable[[dt.datetime], str]) -> str:
    """`text` with each marker replaced by `words(instant)`."""
    return MARKER.sub(lambda m: words(dt.datetime.fromisoformat(m.group(1))), text)
